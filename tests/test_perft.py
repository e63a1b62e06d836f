"""Perft: the leaf counts of the legal move tree match the published suite and the rule edge
cases, at every depth up to 3 by default and deeper under the `slow` marker."""

from __future__ import annotations

import pytest

from chesscore import Board, perft, perft_divide
from tests.epd import load_epd, perft_cases

SHALLOW = perft_cases(1, 3, 10**9)
DEEP = perft_cases(4, 6, 3_000_000)

# From tests/data/rules-edge-cases.md: positions whose perft exposes en passant, castling,
# promotion and check bugs.
EDGE_CASE_PERFT = [
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467),
    ("rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1", 3, 2528),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658),
]


# The classic positions 4, 5 and 6, which bench/perft.py times but standard.epd lacks.
CLASSIC_PERFT = [
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 3, 9467),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890),
]


def _board(fen: str) -> Board:
    # The suite and the edge cases hold composed positions with checks no move could give
    # (two bishops on one diagonal; a pawn check beside an en passant square).
    return Board.from_fen(fen, allow_impossible_checks=True)


@pytest.mark.parametrize(("fen", "depth", "count"), SHALLOW)
def test_suite_to_depth_3(fen: str, depth: int, count: int) -> None:
    assert perft(_board(fen), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(("fen", "depth", "count"), DEEP)
def test_suite_deeper(fen: str, depth: int, count: int) -> None:
    assert perft(_board(fen), depth) == count


@pytest.mark.parametrize(("fen", "depth", "count"), CLASSIC_PERFT)
def test_classic_positions(fen: str, depth: int, count: int) -> None:
    assert perft(Board.from_fen(fen), depth) == count


@pytest.mark.parametrize(("fen", "depth", "count"), EDGE_CASE_PERFT)
def test_rule_edge_cases(fen: str, depth: int, count: int) -> None:
    assert perft(_board(fen), depth) == count


def test_suite_is_loaded_whole() -> None:
    positions = load_epd()
    assert len(positions) == 128
    assert len(SHALLOW) > 350


@pytest.mark.parametrize(("fen", "counts"), load_epd()[:6])
def test_divide_sums_to_perft_and_leaves_the_board_unchanged(
    fen: str, counts: dict[int, int]
) -> None:
    board = _board(fen)
    before = (board.fen(), board.key())
    divided = perft_divide(board, 2)
    assert sum(divided.values()) == counts[2]
    assert len(divided) == counts[1]
    assert (board.fen(), board.key()) == before


def test_depth_zero_counts_the_position_itself() -> None:
    assert perft(Board(), 0) == 1


@pytest.mark.parametrize("depth", [-1, -5])
def test_negative_depth_is_refused(depth: int) -> None:
    with pytest.raises(ValueError, match=str(depth)):
        perft(Board(), depth)
