"""The computer levels: the careful beginner's rules, the search levels, the worker-process call."""

from __future__ import annotations

import itertools
import multiprocessing
import random
import threading
from concurrent.futures import ProcessPoolExecutor

import chess
import pytest

from chesscore.analysis.threats import make_threat_map
from chesscore.engine.levels import (
    SEARCH_LEVELS,
    CarefulPlayer,
    SearchPlayer,
    choose_move_uci,
    hanging_squares,
    make_level_player,
)
from chesscore.engine.search import Searcher, SearchLimits
from chesscore.errors import ChessError, IllegalMoveError, InvalidFenError
from chesscore.rules.board import Board
from chesscore.rules.squares import square_name

# (name, FEN, the squares the careful player may capture on)
TAKES_WHAT_HANGS = [
    ("undefended queen", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", {"d5"}),
    ("defended rook attacked by a pawn", "4k3/8/2r5/1r1P4/8/8/8/4K3 w - - 0 1", {"c6"}),
    ("the rook before the bishop", "4k3/8/8/3q4/8/1n6/3R4/4K2B b - - 0 1", {"d2"}),
    ("black takes an undefended knight", "4k3/8/5b2/8/3N4/8/8/4K3 b - - 0 1", {"d4"}),
]


@pytest.mark.parametrize(("name", "fen", "targets"), TAKES_WHAT_HANGS)
@pytest.mark.parametrize("seed", range(3))
def test_careful_player_takes_what_hangs(name: str, fen: str, targets: set[str], seed: int):
    move = CarefulPlayer(seed).choose_move(Board.from_fen(fen))
    assert square_name(move.to_square) in targets, name


def random_boards(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(6, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


@pytest.mark.parametrize("fen", random_boards(12, seed=2))
def test_hanging_squares_agree_with_the_threat_map(fen: str):
    board = Board.from_fen(fen)
    from_map = {square_name(sq) for sq in make_threat_map(board).hanging}
    ours = {square_name(sq) for color in (0, 1) for sq in hanging_squares(board, color)}
    assert ours == from_map


def hanging_value(board: Board, color: int) -> int:
    values = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9}
    return sum(values[board.board[sq] & 7] for sq in hanging_squares(board, color))


@pytest.mark.parametrize("fen", random_boards(12, seed=3))
def test_careful_player_hangs_no_more_than_it_must(fen: str):
    board = Board.from_fen(fen)
    color = board.turn
    move = CarefulPlayer(seed=5).choose_move(board)
    assert move in board.legal_moves()
    if hanging_squares(board, 1 - color):
        return  # it took something instead: covered by the test above
    losses = {}
    for candidate in board.legal_moves():
        board.push(candidate)
        losses[candidate] = hanging_value(board, color)
        board.pop()
    assert losses[move] == min(losses.values())
    assert board.fen() == fen


def test_careful_player_is_reproducible_by_seed():
    fen = random_boards(1, seed=9)[0]
    first = [CarefulPlayer(seed=s).choose_move(Board.from_fen(fen)) for s in range(5)]
    again = [CarefulPlayer(seed=s).choose_move(Board.from_fen(fen)) for s in range(5)]
    assert first == again


def test_levels_grow_in_depth_and_time_and_top_thinks_about_two_seconds():
    levels = sorted(SEARCH_LEVELS)
    assert levels == [3, 4, 5, 6, 7, 8]
    for lower, higher in itertools.pairwise(levels):
        assert SEARCH_LEVELS[lower].depth <= SEARCH_LEVELS[higher].depth
        assert SEARCH_LEVELS[lower].movetime < SEARCH_LEVELS[higher].movetime
    assert 1.5 <= SEARCH_LEVELS[8].movetime <= 2.5


@pytest.mark.parametrize("level", sorted(SEARCH_LEVELS))
def test_search_levels_play_legal_moves(level: int):
    player = SearchPlayer(level, movetime=0.05)
    for fen in random_boards(3, seed=level):
        board = Board.from_fen(fen)
        move = player.choose_move(board)
        assert chess.Move.from_uci(move.uci()) in chess.Board(fen).legal_moves
        assert board.fen() == fen


def test_make_level_player_builds_each_level_and_refuses_others():
    assert isinstance(make_level_player(2, seed=1), CarefulPlayer)
    for level in SEARCH_LEVELS:
        player = make_level_player(level)
        assert isinstance(player, SearchPlayer)
        assert player.level == level
    for bad in (0, 1, 9, -3):
        with pytest.raises(ChessError, match=str(bad)):
            make_level_player(bad)


def test_choose_move_uci_runs_in_a_worker_process():
    with ProcessPoolExecutor(max_workers=1) as pool:
        mate = pool.submit(choose_move_uci, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", [], 4)
        later = pool.submit(choose_move_uci, chess.STARTING_FEN, ["e2e4", "e7e5"], 2, 7)
        assert mate.result(timeout=60) == "a1a8"
        reply = later.result(timeout=60)
    oracle = chess.Board()
    oracle.push_uci("e2e4")
    oracle.push_uci("e7e5")
    assert chess.Move.from_uci(reply) in oracle.legal_moves


@pytest.mark.parametrize(
    ("fen", "moves", "level", "error"),
    [
        ("nonsense", [], 3, InvalidFenError),
        (chess.STARTING_FEN, ["e2e5"], 3, IllegalMoveError),
        (chess.STARTING_FEN, [], 12, ChessError),
    ],
)
def test_choose_move_uci_names_bad_input(fen: str, moves: list[str], level: int, error: type):
    with pytest.raises(error):
        choose_move_uci(fen, moves, level)


def test_a_raised_cancel_signal_ends_the_search_at_its_first_look():
    cancel = threading.Event()
    cancel.set()
    board = Board.from_fen(random_boards(1, seed=4)[0])
    result = Searcher(cancel).search(board, SearchLimits(depth=6))
    # The signal is read every 1024 nodes: the search got no deeper than that allowed.
    assert result.move in board.legal_moves()
    assert result.nodes <= 1024 + 64
    assert Searcher().search(board, SearchLimits(depth=3)).depth == 3


def test_choose_move_uci_in_a_worker_obeys_a_cancel_signal():
    with multiprocessing.Manager() as manager, ProcessPoolExecutor(max_workers=1) as pool:
        cancel = manager.Event()
        cancel.set()
        # Level 8 with an hour to think: only the signal can end it.
        future = pool.submit(choose_move_uci, chess.STARTING_FEN, [], 8, None, cancel, 3600.0)
        assert chess.Move.from_uci(future.result(timeout=60)) in chess.Board().legal_moves
