"""Static exchange evaluation (chesscore.analysis.see) on known positions, worked out by hand, and
its safe/contested/losing labels checked against python-chess's legal captures on sampled positions.
"""

from __future__ import annotations

import re

import chess
import pytest

from chesscore import Board, IllegalMoveError, Move
from chesscore.analysis.describe import describe_move
from chesscore.analysis.insight import preview
from chesscore.analysis.see import classify_move, see
from tests.support.positions import sample_fens
from tests.support.safety import safety_by_name

# (FEN, move, SEE in centipawns, label, why)
EXCHANGES = [
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100, "safe",
     "an undefended pawn"),
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", -200, "losing",
     "NxP NxN RxN BxR QxB QxQ: rook and queen behind the rook and bishop join in"),
    ("4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1", "f3e5", 0, "contested", "knight for knight"),
    ("4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1", "f3g5", -300, "losing", "a pawn takes it"),
    ("4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1", "f3d4", 0, "safe", "no one reaches d4"),
    ("4k3/8/4n3/8/3p4/8/5B2/4RK2 w - - 0 1", "f2d4", 100, "safe",
     "the defending knight e6 is pinned to its king by the rook e1"),
    ("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100, "contested",
     "the rook d1 behind d2 outnumbers the rook d8"),
    ("3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5", -400, "losing",
     "without the rook behind, RxP RxR"),
    ("4k3/8/5p2/4n3/8/8/1B6/Q3K3 w - - 0 1", "b2e5", 100, "contested",
     "BxN PxB QxP: the queen behind the bishop"),
    ("4k3/4p3/8/8/8/8/4Q3/K3R3 w - - 0 1", "e2e7", 100, "safe",
     "the king may not take: the rook e1 defends e7 through the queen's old square"),
    ("4k3/4p3/8/8/8/8/4Q3/K7 w - - 0 1", "e2e7", -800, "losing", "the king takes the queen"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100, "safe", "en passant wins a pawn"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", -100, "losing",
     "the new queen is taken by the rook: a pawn lost"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", 1300, "safe", "a rook and a new queen"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n", 700, "safe", "a rook and a new knight"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0, "safe", "castling"),
    ("5rn1/2pk4/p2P3r/PN1P3p/6pb/BP5R/2K1Pp2/R4B2 w - - 1 34", "a1e1", -1300, "losing",
     "the pawn f2 takes the rook and promotes"),
    ("r6r/p7/4p1k1/1P1b3p/1P4q1/2KPR1Q1/7P/1R3B2 w - - 5 43", "f1g2", -300, "losing",
     "BxB QxB QxQ: the queen g4, pinned by the queen g3, is freed when that queen captures"),
    ("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", "e1d2", 900, "safe", "the king takes a lone queen"),
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100, "safe", "pawn takes pawn"),
    ("4k3/2p5/3p4/4P3/8/8/8/4K3 w - - 0 1", "e5d6", 0, "contested", "pawn for pawn"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "uci", "value", "label", "why"), EXCHANGES)
def test_known_exchanges(fen: str, uci: str, value: int, label: str, why: str) -> None:
    board = Board.from_fen(fen)
    move = board.parse_uci(uci)
    assert see(board, move) == value, why
    assert classify_move(board, move) == label, why
    assert board.fen() == fen  # nothing was played on the board itself


def test_a_promotion_square_takes_the_best_of_its_promotions() -> None:
    board = Board.from_fen("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert safety_by_name(board)["a7"] == {
        "a8": "losing",
        "b8": "safe",
    }


def test_classify_covers_exactly_the_legal_destinations() -> None:
    board = Board.from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    labels = safety_by_name(board)
    assert {origin: sorted(targets) for origin, targets in labels.items()} == board.destinations()
    assert labels["f3"]["e5"] == "losing"  # the knight for a pawn defended by the c6 knight
    assert labels["f1"]["b5"] == "safe"
    assert labels["f1"]["c4"] == "safe"
    assert labels["b1"]["c3"] == "safe"


@pytest.mark.parametrize("uci", ["e2e5", "e1e2", "e4e5"], ids=["illegal", "own-piece", "empty"])
def test_an_illegal_move_is_refused_by_name(uci: str) -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match=uci):
        see(board, Move.from_uci(uci))
    with pytest.raises(IllegalMoveError, match=uci):
        classify_move(board, Move.from_uci(uci))


@pytest.mark.parametrize("junk", ["e2e4", None, ("e2", "e4"), 20])
def test_what_is_not_a_move_is_refused_by_name(junk: object) -> None:
    with pytest.raises(IllegalMoveError, match=re.escape(repr(junk))):
        see(Board(), junk)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=re.escape(repr(junk))):
        preview(Board(), junk)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=re.escape(repr(junk))):
        describe_move(Board(), junk)  # type: ignore[arg-type]


def test_labels_agree_with_the_legal_captures_of_python_chess() -> None:
    """Without check in the way (a checking move restricts the reply), a destination is safe
    exactly when the opponent has no legal capture on it; SEE never exceeds what the move
    itself takes, and "losing" is exactly a negative SEE."""
    checked = 0
    for fen in sample_fens(range(8), max_plies=120, stride=10):
        board = Board.from_fen(fen)
        oracle = chess.Board(fen)
        labels = safety_by_name(board)
        for move in board.legal_moves():
            if board.gives_check(move):
                continue
            oracle.push(chess.Move.from_uci(move.uci()))
            recaptures = [m for m in oracle.legal_moves if m.to_square == _chess_square(move)]
            oracle.pop()
            label = classify_move(board, move)
            assert (label == "safe") == (not recaptures), (fen, move.uci())
            assert (label == "losing") == (see(board, move) < 0)
            assert labels[move.uci()[:2]][move.uci()[2:4]] in ("safe", "contested", "losing")
            checked += 1
    assert checked > 300


def _chess_square(move: Move) -> int:
    return (move.to_square >> 4) * 8 + (move.to_square & 7)
