"""X-ray attackers and pin lines (chesscore.analysis.xray): known positions written out by hand,
then every square of sampled positions against an oracle built on python-chess's attackers (take the
direct attackers of one colour off the board, see who attacks now, repeat), both for the map of
all squares and for one square at a time, and the absolute pins against python-chess's
`is_pinned` and chesscore's own `board.pins`. Squares are compared by name, read through the
wire form (server.threats.wire).
"""

from __future__ import annotations

import chess
import pytest

from chesscore import BLACK, WHITE, Board, parse_square, square_name
from chesscore.analysis.xray import find_pins, make_xray_map, xray_attackers, xrays_of_square
from server.threats.wire import pin_lines_json, xrays_json
from tests.support.positions import sample_fens

NONE = {"white": [], "black": []}  # the x-rays of a square no piece x-rays

# (FEN, square, white x-ray attackers, black x-ray attackers, why)
XRAYS = [
    ("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1", "d1", ["a1"], [], "doubled rooks on the first rank"),
    ("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1", "a1", [], [], "nothing behind b1 seen from a1"),
    ("4k3/8/8/8/3R4/3R4/3Q4/4K3 w - - 0 1", "d8", ["d2", "d3"], [], "queen behind two rooks"),
    ("4k3/8/8/4p3/8/8/1B6/Q3K3 w - - 0 1", "e5", ["a1"], [], "queen behind a bishop"),
    ("4k3/8/8/4p3/3P4/2B5/8/4K3 w - - 0 1", "e5", ["c3"], [], "bishop behind a pawn"),
    ("4k3/1Q6/8/3P4/4p3/8/8/4K3 w - - 0 1", "e4", [], [],
     "a pawn does not attack backwards, so nothing stands behind it"),
    ("4k3/8/8/3p4/8/8/3r4/3RK3 w - - 0 1", "d5", [], [], "an enemy rook in between ends the line"),
    ("3qk3/3r4/8/3p4/8/8/8/4K3 w - - 0 1", "d5", [], ["d8"], "black battery on the d-file"),
    ("4k3/8/8/8/8/8/5K2/6Q1 w - - 0 1", "e3", ["g1"], [], "queen behind the king"),
    ("4k3/8/8/8/8/4N3/8/4RK2 w - - 0 1", "e5", [], [], "a knight in front is no battery"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "square", "white", "black", "why"), XRAYS)
def test_known_xrays(fen: str, square: str, white: list[str], black: list[str], why: str) -> None:
    board = Board.from_fen(fen)
    xrays = xrays_json(make_xray_map(board))
    assert xrays.get(square, NONE) == {"white": white, "black": black}, why
    assert [square_name(sq) for sq in xray_attackers(board, WHITE, parse_square(square))] == white


# (FEN, pins as (pinner, pinned, target, absolute), why)
PINS = [
    ("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1", [("b5", "c6", "e8", True)], "to the king"),
    ("3qk3/8/5n2/6B1/8/8/8/4K3 w - - 0 1", [("g5", "f6", "d8", False)], "knight to queen"),
    ("1k6/n7/8/p7/8/8/8/R3K3 w - - 0 1", [], "a defended knight is worth less than the rook"),
    ("4k3/n7/8/p7/8/8/8/R3K3 w - - 0 1", [("a1", "a5", "a7", False)], "an undefended knight"),
    ("4k3/8/8/8/3p4/8/3R4/4K3 w - - 0 1", [], "a line with one piece pins nothing"),
    ("r3k3/8/8/q7/8/8/8/R6K w - - 0 1", [], "the piece behind is worth less: a skewer"),
    ("4k3/4n3/4p3/8/8/8/8/4RK2 w - - 0 1", [], "two pieces before the king, the second defended"),
    ("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", [], "a check is not a pin"),
    ("4k3/8/2n5/qB6/8/8/3N4/4K3 w - - 0 1", [("b5", "c6", "e8", True), ("a5", "d2", "e1", True)],
     "both colours"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "pins", "why"), PINS)
def test_known_pins(fen: str, pins: list[tuple[str, str, str, bool]], why: str) -> None:
    found = [
        (pin["pinner"], pin["pinned"], pin["target"], pin["absolute"])
        for pin in pin_lines_json(find_pins(Board.from_fen(fen)))
    ]
    assert found == pins, why


def _oracle_xrays(oracle: chess.Board, color: chess.Color, square: chess.Square) -> set[int]:
    """The pieces that attack `square` once the ones in front of them leave: remove the
    current attackers of `color`, ask again, until no new one appears."""
    board = oracle.copy()
    seen = set(board.attackers(color, square))
    front = set(seen)
    found: set[int] = set()
    while front:
        for sq in front:
            board.remove_piece_at(sq)
        front = set(board.attackers(color, square)) - seen
        seen |= front
        found |= front
    return found


def _name(square: chess.Square) -> str:
    return chess.square_name(square)


def test_xrays_agree_with_the_python_chess_oracle() -> None:
    compared = 0
    for fen in sample_fens(range(100, 106), max_plies=160, stride=6):
        board, oracle = Board.from_fen(fen), chess.Board(fen)
        squares = xrays_json(make_xray_map(board))
        for square in chess.SQUARES:
            expected = {
                "white": sorted(_name(sq) for sq in _oracle_xrays(oracle, chess.WHITE, square)),
                "black": sorted(_name(sq) for sq in _oracle_xrays(oracle, chess.BLACK, square)),
            }
            assert squares.get(_name(square), NONE) == expected, (fen, _name(square))
            sq = parse_square(_name(square))
            assert [sorted(found) for found in xrays_of_square(board.board, sq)] == [
                sorted(parse_square(name) for name in expected[color])
                for color in ("white", "black")
            ]
            compared += bool(expected["white"] or expected["black"])
    assert compared > 50  # the sample holds batteries, not only empty answers


def test_absolute_pins_agree_with_python_chess_and_board_pins() -> None:
    for fen in sample_fens(range(100, 106), max_plies=160, stride=3):
        board, oracle = Board.from_fen(fen), chess.Board(fen)
        pins = pin_lines_json(find_pins(board))
        absolute = {(pin["pinned"], pin["pinner"]) for pin in pins if pin["absolute"]}
        ours = {(square_name(p), square_name(q)) for c in (WHITE, BLACK) for p, q in board.pins(c)}
        assert absolute == ours, fen
        pinned = {
            _name(sq)
            for sq, piece in oracle.piece_map().items()
            if piece.piece_type != chess.KING and oracle.is_pinned(piece.color, sq)
        }
        assert {p for p, _ in absolute} == pinned, fen
