"""Multi-PV analysis: legal lines, exact ranks, mate scores from White's view, its updates.

python-chess is the oracle for legality (every line is replayed on it) and for the positions
after a forced first move. The mate positions are those of tests/test_search.py (checked with
Stockfish) and a black back-rank mate, each for the side that mates and, one move in, for the
side being mated.
"""

from __future__ import annotations

import random
import threading

import chess
import pytest

from chesscore.engine.analyse import Analysis, Score, analyse
from chesscore.engine.search import Searcher, SearchLimits
from chesscore.rules.board import Board
from chesscore.rules.squares import WHITE

# (name, FEN, first move, mate in moves from White's view)
MATES = [
    ("white mates in 1", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1),
    ("black mates in 1", "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1", -1),
    (
        "white mates in 2",
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        "d5f6",
        2,
    ),
    ("black mates in 2", "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1", -2),
    ("white mates in 3", "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", 3),
    ("black mates in 3", "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", "b1g6", -3),
]


def line_uci(analysis: Analysis, rank: int = 1) -> list[str]:
    return [move.uci() for move in analysis.lines[rank - 1].moves]


def assert_lines_legal(fen: str, analysis: Analysis) -> None:
    for line in analysis.lines:
        oracle = chess.Board(fen)
        for move in line.moves:
            assert chess.Move.from_uci(move.uci()) in oracle.legal_moves, (fen, line)
            oracle.push_uci(move.uci())


@pytest.mark.parametrize(("name", "fen", "first", "mate"), MATES, ids=[m[0] for m in MATES])
def test_mates_are_scored_from_whites_view(name: str, fen: str, first: str, mate: int) -> None:
    depth = 2 * abs(mate) + 1
    result = analyse(Board.from_fen(fen), SearchLimits(depth=depth), multipv=3)
    best = result.lines[0]
    assert best.moves[0].uci() == first, name
    assert best.score == Score(None, mate), name
    assert_lines_legal(fen, result)
    # The line leads to the mate: replayed, it ends in checkmate.
    oracle = chess.Board(fen)
    for move in best.moves:
        oracle.push_uci(move.uci())
    assert len(best.moves) == 2 * abs(mate) - 1 and oracle.is_checkmate(), name


@pytest.mark.parametrize(("name", "fen", "first", "mate"), MATES[2:], ids=[m[0] for m in MATES[2:]])
def test_the_side_being_mated_sees_the_mate_coming(
    name: str, fen: str, first: str, mate: int
) -> None:
    """One move into each mate, the defender to move: every line is still the same mate."""
    oracle = chess.Board(fen)
    oracle.push_uci(first)
    after = oracle.fen()
    remaining = mate - 1 if mate > 0 else mate + 1
    result = analyse(Board.from_fen(after), SearchLimits(depth=2 * abs(mate)), multipv=3)
    assert result.lines, name
    assert result.lines[0].score == Score(None, remaining), name
    assert all(line.score.mate is not None for line in result.lines), name
    assert_lines_legal(after, result)


def test_scores_are_exact_and_ranked() -> None:
    """A hanging queen: taking it is far ahead of the rest, and the ranks follow the scores."""
    fen = "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    result = analyse(Board.from_fen(fen), SearchLimits(depth=3), multipv=3)
    assert [line.rank for line in result.lines] == [1, 2, 3]
    assert line_uci(result)[0] == "f3h4"
    cps = [line.score.cp for line in result.lines]
    assert all(cp is not None for cp in cps)
    assert cps[0] is not None and cps[1] is not None and cps[0] > cps[1] + 500
    assert cps == sorted(cps, reverse=True)  # type: ignore[type-var]
    assert len({line.moves[0] for line in result.lines}) == 3


def test_black_to_move_scores_are_from_whites_view() -> None:
    """The same hanging queen, colours swapped: Black wins it, so the score is negative."""
    fen = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    mirrored = fen.mirror().fen()
    result = analyse(Board.from_fen(mirrored), SearchLimits(depth=3), multipv=2)
    best = result.lines[0].score
    assert line_uci(result)[0] == "f6h5"
    assert best.cp is not None and best.cp < -500
    second = result.lines[1].score.cp
    assert second is not None and second > best.cp


@pytest.mark.parametrize(
    "fen", ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]
)
def test_stalemate_and_checkmate_have_no_lines(fen: str) -> None:
    updates: list[Analysis] = []
    result = analyse(Board.from_fen(fen), SearchLimits(depth=5), on_update=updates.append)
    assert result.lines == () and result.done
    assert updates == [result]


def test_more_lines_asked_than_moves_gives_one_per_move() -> None:
    fen = "7k/8/8/8/8/8/6PP/7K w - - 0 1"  # Kg1, g3, g4, h3, h4: five moves
    result = analyse(Board.from_fen(fen), SearchLimits(depth=3), multipv=10)
    assert len(result.lines) == 5
    assert sorted(line.moves[0].uci() for line in result.lines) == sorted(
        move.uci() for move in chess.Board(fen).legal_moves
    )
    assert_lines_legal(fen, result)


def test_one_line_is_the_game_searchs_answer() -> None:
    """With one line, each depth is exactly the game search's iteration: same move, score."""
    for fen in random_positions(6, seed=3):
        board = Board.from_fen(fen)
        searched = Searcher().search(board, SearchLimits(depth=4))
        result = analyse(board, SearchLimits(depth=4), multipv=1)
        assert searched.move is not None
        assert result.lines[0].moves[0] == searched.move, fen
        sign = 1 if board.turn == WHITE else -1
        assert result.lines[0].score.cp == sign * searched.score, fen


def test_updates_deepen_and_end_with_done() -> None:
    board = Board()
    updates: list[Analysis] = []
    result = analyse(board, SearchLimits(depth=4), multipv=3, on_update=updates.append)
    assert [update.depth for update in updates] == [1, 2, 3, 4, 4]
    assert [update.done for update in updates] == [False] * 4 + [True]
    assert updates[-1] == result and result.lines == updates[-2].lines
    assert all(len(update.lines) == 3 for update in updates)
    nodes = [update.nodes for update in updates]
    assert nodes == sorted(nodes) and nodes[0] > 0
    assert board.fen() == chess.STARTING_FEN


def test_cancel_ends_with_the_last_finished_depth() -> None:
    cancel = threading.Event()
    updates: list[Analysis] = []

    def stop_after_three(update: Analysis) -> None:
        updates.append(update)
        if update.depth == 3:
            cancel.set()

    result = analyse(Board(), SearchLimits(depth=30), 3, stop_after_three, cancel)
    assert result.done and result.depth == 3
    assert result.lines == updates[-2].lines and len(result.lines) == 3


def test_time_limit_ends_the_analysis() -> None:
    result = analyse(Board(), SearchLimits(movetime=0.3), multipv=2)
    assert result.done and result.depth >= 1 and len(result.lines) == 2
    # The clock, not the depth limit (the default, far beyond what 0.3 s reaches), ended it;
    # without the clock the test would hang until pytest's timeout fails it.
    assert result.depth < SearchLimits().depth


def test_a_time_limit_however_short_still_gives_depth_one() -> None:
    """As a game search always gives a move: depth 1 cut short by the clock still gives
    its lines (those it finished, the rest by their static score)."""
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    result = analyse(Board.from_fen(kiwipete), SearchLimits(movetime=1e-6), multipv=3)
    assert result.done and result.depth == 1 and len(result.lines) == 3
    assert_lines_legal(kiwipete, result)


def test_a_cancel_cuts_even_depth_one() -> None:
    """The search looks at `cancel` every 1,024 nodes: Kiwipete's depth 1 takes more."""
    cancel = threading.Event()
    cancel.set()
    updates: list[Analysis] = []
    kiwipete = Board.from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    )
    result = analyse(kiwipete, SearchLimits(depth=5), 3, updates.append, cancel)
    assert result.done and result.lines == () and updates == [result]
    assert result.nodes == 1024


def test_multipv_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="multipv must be at least 1, got 0"):
        analyse(Board(), SearchLimits(depth=1), multipv=0)


def random_positions(count: int, seed: int) -> list[str]:
    """FENs of seeded random games played by python-chess, each with a legal move left."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(6, 70)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if any(board.legal_moves):
            fens.append(board.fen())
    return fens


@pytest.mark.parametrize("fen", random_positions(16, seed=17))
def test_lines_are_legal_in_random_positions(fen: str) -> None:
    board = Board.from_fen(fen)
    result = analyse(board, SearchLimits(depth=3, nodes=20_000), multipv=3)
    assert result.lines and len(result.lines) == min(3, len(list(chess.Board(fen).legal_moves)))
    assert_lines_legal(fen, result)
    assert len({line.moves[0] for line in result.lines}) == len(result.lines)
    assert board.fen() == fen
