"""Every fact of tests/data/rules-edge-cases.md, each a parametrised case.

The tables follow the document's sections; a fact with several parts (two moves of one
position, a legal count and a perft) appears once per part. Perft counts above a million
nodes run under the `slow` marker, the rest in the default run. A test below checks that every
FEN of the document appears in these tables, so a fact added there cannot be forgotten here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chesscore import (
    Board,
    ChessError,
    InvalidFenError,
    Move,
    Outcome,
    Termination,
    perft,
)

FACTS = Path(__file__).parent / "data" / "rules-edge-cases.md"
SLOW_NODES = 1_000_000
# A composed position: its check by the f2 pawn could not have stood before c7-c5, which is
# why strict loading (like python-chess's status()) refuses it; its move facts still hold.
COMPOSED = "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1"

# (FEN, depth, leaf nodes)
PERFT = [
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888),
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467),
    (COMPOSED, 3, 2528),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206),
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683),
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658),
]

# (FEN, move in UCI, whether it is legal)
LEGALITY = [
    ("8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 1", "d5e6", False),
    ("8/8/8/7B/6Pp/8/4k2K/3r4 b - g3 0 1", "h4g3", False),
    ("8/5K2/8/3k4/3pP3/8/8/3R4 b - e3 0 1", "d4e3", False),
    ("8/8/8/2k5/2pP4/8/4K3/8 b - d3 0 1", "c4d3", True),
    ("8/8/4k3/8/2pPp3/8/B7/7K b - d3 0 1", "c4d3", False),
    ("8/8/4k3/8/2pPp3/8/B7/7K b - d3 0 1", "e4d3", True),
    ("8/8/4k3/8/8/8/4p3/R3K2R w KQ - 0 1", "e1g1", False),
    ("8/8/4k3/8/8/8/4p3/R3K2R w KQ - 0 1", "e1c1", False),
    ("2r5/4k3/8/8/8/8/r7/R3K3 w Q - 0 1", "e1c1", False),
    ("1r6/4k3/8/8/8/8/r7/R3K3 w Q - 0 1", "e1c1", True),
    ("8/8/8/4r3/3k4/8/8/R3K2R w Q - 0 1", "e1c1", False),
    ("8/8/4k3/3bb3/8/8/8/R3K2R w KQ - 0 1", "e1g1", True),
    ("8/8/4k3/3bb3/8/8/8/R3K2R w KQ - 0 1", "e1c1", True),
    ("3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8", False),
    ("3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8p", False),
    ("3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8k", False),
    ("3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "g7g8r", True),
    ("3k4/6P1/7P/8/K7/8/8/4R3 w - - 0 1", "h6h7n", False),
]

# (FEN, number of legal moves)
LEGAL_COUNTS = [
    (COMPOSED, 2),
    ("3k4/8/1K6/8/8/8/pppppppp/RRRRRRRR b - - 0 1", 52),
    ("nnnnnnnn/PPPPPPPP/8/8/8/8/8/K6k w - - 0 1", 59),
    ("3K3r/2PPP3/8/2k5/8/8/8/8 w - - 0 1", 4),
]

# (FEN, move in SAN or UCI, its SAN, the castling field after it)
MOVES = [
    ("6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", "exd6#", "-"),
    ("2r1k2r/2qbbpp1/p2pp3/1p3PP1/Pn2P3/1PN1B3/1P3QB1/1K1R3R b k - 0 22", "Rxh1", "Rxh1", "-"),
    ("rnbqk1nr/ppp1ppb1/6p1/3p4/8/2N5/PPPPPPP1/R1BQKBNR w KQkq - 0 5", "Rxh8", "Rxh8", "Qq"),
    ("8/8/8/B2p3Q/2qPp1P1/b7/2P2PkP/4K2R b K - 0 1", "g2h1", "Kxh1", "-"),
]

# FENs to refuse on load
REFUSED = [
    "4k3/5P2/3N4/8/8/8/4R3/4K3 b - - 0 1",  # triple check
    "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",  # the side not to move is in check
]

# (FEN, insufficient material)
MATERIAL = [
    ("8/5k2/8/8/8/8/3K4/8 w - - 0 1", True),
    ("8/3k4/8/8/2N5/8/3K4/8 b - - 0 1", True),
    ("8/5k2/8/8/8/4B3/3K1B2/8 w - - 0 1", True),
    ("5K2/8/8/1B6/8/k7/6b1/8 w - - 0 39", True),
    ("8/4bk2/8/8/8/8/3KB3/8 w - - 0 1", False),
    ("8/4rk2/8/8/8/8/3K4/8 w - - 0 1", False),
]

# (start FEN or None, SAN moves, times the final position has occurred, threefold claimable)
REPETITIONS = [
    (None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", 3, True),
    # Twice without castling rights; the first occurrence (with them) is another position.
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Ke2 Ke7 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8", 2, False),
    (None, "e4 Nf6 e5 d5 Bc4 Nc6 Bf1 Nb8 Bc4 Nc6 Bf1 Nb8", 2, True),
    # Occurred twice, claimable with the next move (Ng8): the two questions differ.
    (None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1", 2, True),
]


def load(fen: str) -> Board:
    return Board.from_fen(fen, allow_impossible_checks=fen == COMPOSED)


def perft_cases() -> list[object]:
    return [
        pytest.param(*case, marks=[pytest.mark.slow] if case[2] > SLOW_NODES else [])
        for case in PERFT
    ]


@pytest.mark.parametrize(("fen", "depth", "nodes"), perft_cases())
def test_perft(fen: str, depth: int, nodes: int) -> None:
    assert perft(load(fen), depth) == nodes


@pytest.mark.parametrize(("fen", "uci", "legal"), LEGALITY)
def test_move_legality(fen: str, uci: str, legal: bool) -> None:
    board = Board.from_fen(fen)
    assert (uci in {move.uci() for move in board.legal_moves()}) is legal
    assert board.is_legal(Move.from_uci(uci)) is legal
    if legal:
        assert board.push_uci(uci).uci() == uci
    else:
        before = board.fen()
        with pytest.raises(ChessError):
            board.push_uci(uci)
        assert board.fen() == before


@pytest.mark.parametrize(("fen", "count"), LEGAL_COUNTS)
def test_legal_move_count(fen: str, count: int) -> None:
    assert len(load(fen).legal_moves()) == count


def test_double_check_leaves_only_king_moves() -> None:
    board = Board.from_fen("4r2k/8/8/8/8/3n4/8/1B2K3 w - - 0 1")
    assert sorted(board.san(move) for move in board.legal_moves()) == ["Kd1", "Kd2", "Kf1"]


@pytest.mark.parametrize(("fen", "text", "san", "castling"), MOVES)
def test_san_and_castling_rights(fen: str, text: str, san: str, castling: str) -> None:
    board = Board.from_fen(fen)
    move = Move.from_uci(text) if text[0].islower() and text[1].isdigit() else board.parse_san(text)
    assert board.san(move) == san
    assert not board.is_castling(move)
    board.push(move)
    assert board.fen().split()[2] == castling


@pytest.mark.parametrize("fen", REFUSED)
def test_unplayable_positions_are_refused(fen: str) -> None:
    with pytest.raises(InvalidFenError) as raised:
        Board.from_fen(fen)
    assert fen in str(raised.value)


@pytest.mark.parametrize(("fen", "insufficient"), MATERIAL)
def test_insufficient_material(fen: str, insufficient: bool) -> None:
    board = Board.from_fen(fen)
    assert board.is_insufficient_material() is insufficient
    expected = Outcome(Termination.INSUFFICIENT_MATERIAL, None) if insufficient else None
    assert board.outcome() == expected


@pytest.mark.parametrize("clock", [99, 100, 149, 150])
def test_stalemate_takes_precedence_over_the_move_rules(clock: int) -> None:
    board = Board.from_fen(f"k7/3N4/1K6/1B6/8/8/8/8 b - - {clock} 1")
    assert board.is_stalemate()
    stalemate = Outcome(Termination.STALEMATE, None)
    assert board.outcome() == stalemate
    assert board.outcome(claim_draw=True) == stalemate


@pytest.mark.parametrize("clock", [99, 100, 150])
def test_checkmate_takes_precedence_over_the_move_rules(clock: int) -> None:
    board = Board.from_fen(f"R5k1/5ppp/8/8/8/8/8/6K1 b - - {clock} 80")
    assert board.outcome(claim_draw=True) == Outcome(Termination.CHECKMATE, 0)


@pytest.mark.parametrize(("fen", "moves", "occurrences", "claimable"), REPETITIONS)
def test_repetition(fen: str | None, moves: str, occurrences: int, claimable: bool) -> None:
    board = Board() if fen is None else Board.from_fen(fen)
    for san in moves.split():
        board.push_san(san)
    assert board.is_repetition(occurrences)
    assert not board.is_repetition(occurrences + 1)
    assert board.is_repetition(3) is (occurrences >= 3)
    assert board.can_claim_threefold_repetition() is claimable


def test_fivefold_repetition_ends_the_game_without_a_claim() -> None:
    board = Board()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 4:
        assert board.outcome() is None
        board.push_san(san)
    assert board.outcome() == Outcome(Termination.FIVEFOLD_REPETITION, None)


def test_seventyfive_moves_end_the_game_without_a_claim() -> None:
    board = Board.from_fen("8/4rk2/8/8/8/8/3K4/8 w - - 149 80")
    assert board.outcome() is None
    board.push_san("Kd3")
    assert board.outcome() == Outcome(Termination.SEVENTYFIVE_MOVES, None)


def test_en_passant_square_only_when_a_capture_is_legal() -> None:
    board = Board()
    board.push_san("e4")
    fen = board.fen()
    assert fen.split()[3] == "-"
    with_square = fen.replace(" - 0 1", " e3 0 1")
    assert Board.from_fen(with_square).fen() == fen
    assert Board.from_fen(with_square).key() == board.key() == Board.from_fen(fen).key()


def test_every_fen_of_the_document_is_tested() -> None:
    tested = {row[0] for table in (PERFT, LEGALITY, LEGAL_COUNTS, MOVES, MATERIAL) for row in table}
    tested |= set(REFUSED) | {row[0] for row in REPETITIONS if row[0]}
    tested |= {
        "4r2k/8/8/8/8/3n4/8/1B2K3 w - - 0 1",
        "k7/3N4/1K6/1B6/8/8/8/8 b - - 99 1",
    }
    documented = set(re.findall(r"`([^`]+ [wb] [-KQkq]+ [-a-h1-8]+ \d+ \d+)`", FACTS.read_text()))
    assert documented
    assert documented <= tested, documented - tested
