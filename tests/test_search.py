"""The search: known answers at fixed depths, legal moves only, and its evaluation bookkeeping.

The known-answer positions were checked with Stockfish (each mate's first move is the only one
that mates that fast). python-chess serves as the oracle for legality and stalemate.
"""

from __future__ import annotations

import random
import threading

import chess
import pytest

from chesscore.engine.captures import generate_captures
from chesscore.engine.evaluate import evaluate, evaluation_terms, move_delta
from chesscore.engine.search import (
    MATE,
    Searcher,
    SearchInfo,
    SearchLimits,
)
from chesscore.rules.board import Board

# (name, FEN, depth, expected first move, moves to mate)
MATES = [
    ("back rank mate in 1", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 2, "a1a8", 1),
    ("corner mate in 1", "1k6/8/1K6/8/8/8/8/7R w - - 0 1", 2, "h1h8", 1),
    (
        "knight sacrifice mate in 2",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        4,
        "d5f6",
        2,
    ),
    ("black rook mate in 2", "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 4, "g2g1", 2),
    ("rook and bishop mate in 3", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 5, "f6a6", 3),
    (
        "queen chase mate in 3",
        "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1",
        5,
        "b1g6",
        3,
    ),
]

# (name, FEN, depth, expected move, least score after it): a hanging queen is taken.
WINS = [
    (
        "knight takes queen",
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        3,
        "f3h4",
        500,
    ),
    ("pawn takes queen", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", 2, "e4d5", 100),
    ("black bishop takes queen", "4k3/8/2b5/8/8/8/6Q1/4K3 b - - 0 1", 2, "c6g2", 250),
]

# Winning positions where a natural-looking move stalemates.
STALEMATE_TRAPS = [
    ("queen to c7 stalemates", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"),
    ("king to f8 stalemates", "7k/5K2/6Q1/8/8/8/8/8 w - - 0 1"),
    ("queen takes rook stalemates", "k7/2r5/1K6/8/8/8/8/2Q5 w - - 0 1"),
]


def search(fen: str, depth: int) -> SearchInfo:
    return Searcher().search(Board.from_fen(fen), SearchLimits(depth=depth))


@pytest.mark.parametrize(("name", "fen", "depth", "expected", "moves"), MATES)
def test_finds_mate_at_fixed_depth(name: str, fen: str, depth: int, expected: str, moves: int):
    result = search(fen, depth)
    assert result.move is not None
    assert result.move.uci() == expected, name
    assert result.mate_in == moves, name
    assert result.score == MATE - (2 * moves - 1)


@pytest.mark.parametrize(("name", "fen", "depth", "expected", "moves"), MATES[:5])
def test_mate_distance_survives_the_transposition_table(
    name: str, fen: str, depth: int, expected: str, moves: int
):
    # A second search reads the first one's table entries, stored as distances from the
    # node: a mistake in re-counting them from the root shows up as a wrong mate distance.
    searcher = Searcher()
    board = Board.from_fen(fen)
    searcher.search(board, SearchLimits(depth=depth))
    again = searcher.search(board, SearchLimits(depth=depth + 1))
    assert again.move is not None
    assert (again.move.uci(), again.mate_in) == (expected, moves), name
    board.push(again.move)
    after = searcher.search(board, SearchLimits(depth=depth))
    assert after.mate_in == -(moves - 1), name


@pytest.mark.parametrize(("name", "fen", "depth", "expected", "least"), WINS)
def test_takes_hanging_queen(name: str, fen: str, depth: int, expected: str, least: int):
    result = search(fen, depth)
    assert result.move is not None
    assert result.move.uci() == expected, name
    assert result.score >= least


@pytest.mark.parametrize(("name", "fen"), STALEMATE_TRAPS)
def test_avoids_stalemate_when_winning(name: str, fen: str):
    result = search(fen, 3)
    assert result.move is not None
    oracle = chess.Board(fen)
    oracle.push_uci(result.move.uci())
    assert not oracle.is_stalemate(), name
    assert result.score > 500


def test_stalemate_and_checkmate_positions_have_no_move():
    stalemate = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 3)
    mated = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 3)
    assert (stalemate.move, stalemate.score) == (None, 0)
    assert (mated.move, mated.score) == (None, -MATE)


def random_positions(count: int, seed: int) -> list[str]:
    """FENs reached by seeded random games (python-chess plays them, as an independent oracle)."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(4, 80)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if any(board.legal_moves):
            fens.append(board.fen())
    return fens


@pytest.mark.parametrize("fen", random_positions(24, seed=8))
def test_search_returns_a_legal_move_and_leaves_the_board_alone(fen: str):
    board = Board.from_fen(fen)
    result = Searcher().search(board, SearchLimits(depth=3, nodes=4000))
    assert result.move is not None
    assert chess.Move.from_uci(result.move.uci()) in chess.Board(fen).legal_moves
    assert board.fen() == fen
    assert all(move in board.legal_moves() for move in result.pv[:1])


@pytest.mark.parametrize("seed", range(4))
def test_capture_generator_matches_the_legal_captures(seed: int):
    rng = random.Random(seed)
    board = Board()
    checked = 0
    while checked < 150:
        moves = board.generate_legal()
        if not moves or board.halfmove_clock > 60:
            board = Board()
            continue
        if not board.is_check():
            # Queen promotions, and captures other than under-promotions.
            expected = {
                move
                for move in moves
                if move >> 14 & 7 == 5 or (board.is_capture_packed(move) and not move >> 14 & 7)
            }
            assert set(generate_captures(board)) == expected, board.fen()
            checked += 1
        # Prefer captures, so the positions get sparse and tactical.
        captures = [move for move in moves if board.is_capture_packed(move)]
        board.push_packed(rng.choice(captures if captures and rng.random() < 0.5 else moves))


@pytest.mark.parametrize("seed", range(6))
def test_incremental_evaluation_matches_a_full_count(seed: int):
    rng = random.Random(seed)
    board = Board()
    mg, eg, phase = evaluation_terms(board)
    for _ in range(120):
        moves = board.generate_legal()
        if not moves:
            break
        move = rng.choice(moves)
        dmg, deg, dphase = move_delta(board.board, move, board.turn)
        board.push_packed(move)
        mg, eg, phase = mg + dmg, eg + deg, phase + dphase
        assert (mg, eg, phase) == evaluation_terms(board), board.fen()


@pytest.mark.parametrize(
    "fen",
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ],
)
def test_evaluation_is_colour_symmetric(fen: str):
    mirrored = chess.Board(fen).mirror().fen()
    assert evaluate(Board.from_fen(fen)) == evaluate(Board.from_fen(mirrored))


def test_stop_from_another_thread_ends_an_unlimited_search():
    searcher = Searcher()
    board = Board()
    infos: list[SearchInfo] = []
    started = threading.Event()

    def on_info(info: SearchInfo) -> None:
        infos.append(info)
        if info.depth >= 2:
            started.set()

    result: list[SearchInfo] = []
    thread = threading.Thread(
        target=lambda: result.append(searcher.search(board, SearchLimits(), on_info))
    )
    thread.start()
    assert started.wait(timeout=30)
    searcher.stop()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert result[0].move is not None
    assert result[0].move in board.legal_moves()
    assert [info.depth for info in infos] == list(range(1, len(infos) + 1))


def test_time_limit_ends_the_search_with_a_move():
    result = Searcher().search(Board(), SearchLimits(movetime=0.2))
    assert result.move is not None
    assert result.depth >= 1


@pytest.mark.parametrize("fen", random_positions(6, seed=21))
def test_stopping_anywhere_unwinds_the_search_board(fen: str):
    searcher = Searcher()
    # The limits are looked at every 1024 nodes: these stop at the first, second and fourth look.
    for nodes in (1, 1025, 3073):
        result = searcher.search(Board.from_fen(fen), SearchLimits(nodes=nodes))
        assert result.move is not None
        assert searcher.board.fen() == fen
        assert len(searcher.board.keys) == 1
