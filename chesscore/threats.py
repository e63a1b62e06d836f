"""The threat map: for every square, which pieces of each colour attack or defend it.

`make_threat_map` builds the plain, JSON-ready data the browser overlays draw, from the board's
one attack primitive (`board.attackers(color, sq)`: pawns only diagonally, sliders stopped by
the first piece), and its `pins` and `checkers`. Derived facts ride along: the pieces giving
check, the absolutely pinned pieces of both colours with their pinners, and the hanging pieces:
a piece (not a king) attacked by the other colour and either undefended or attacked by a piece
worth less than itself (pawn 1, knight 3, bishop 3, rook 5, queen 9). Every list of squares is
sorted by square name, so equal positions give equal maps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from chesscore.squares import BLACK, KING, WHITE, square_name

if TYPE_CHECKING:
    from chesscore.board import Board

# Indexed by piece type (PAWN=1 .. KING=6); a king is never "hanging", so its value only has
# to be above every other piece's.
PIECE_VALUES = (0, 1, 3, 3, 5, 9, 100)

BOARD_SQUARES = tuple(rank * 16 + file for rank in range(8) for file in range(8))
NAMES = {sq: square_name(sq) for sq in BOARD_SQUARES}


class SquareAttackers(TypedDict):
    """The squares of the white and of the black pieces that attack or defend one square."""

    white: list[str]
    black: list[str]


class Pin(TypedDict):
    """An absolutely pinned piece, the piece pinning it, and the king behind it."""

    pinned: str
    pinner: str
    king: str


class ThreatMap(TypedDict):
    """The threat map: a plain dict at run time, ready for JSON."""

    squares: dict[str, SquareAttackers]
    checkers: list[str]
    pins: list[Pin]
    hanging: list[str]


def make_threat_map(board: Board) -> ThreatMap:
    """The threat map of `board` (see the module docstring for its shape).

    >>> from chesscore import Board
    >>> threats = Board().threat_map()
    >>> threats["squares"]["f3"]
    {'white': ['e2', 'g1', 'g2'], 'black': []}
    >>> threats["checkers"], threats["pins"], threats["hanging"]
    ([], [], [])
    """
    attackers = board.attackers
    names = NAMES
    squares: dict[str, SquareAttackers] = {}
    counts: dict[int, tuple[list[int], list[int]]] = {}
    for sq in BOARD_SQUARES:
        white = attackers(WHITE, sq)
        black = attackers(BLACK, sq)
        counts[sq] = (white, black)
        squares[names[sq]] = {
            "white": sorted(names[s] for s in white),
            "black": sorted(names[s] for s in black),
        }
    return {
        "squares": squares,
        "checkers": sorted(names[sq] for sq in board.checkers()),
        "pins": _make_pins(board),
        "hanging": _find_hanging(board, counts),
    }


def _make_pins(board: Board) -> list[Pin]:
    pins: list[Pin] = []
    for color in (WHITE, BLACK):
        king = NAMES[board.king_square(color)]
        for pinned, pinner in board.pins(color):
            pins.append({"pinned": NAMES[pinned], "pinner": NAMES[pinner], "king": king})
    return sorted(pins, key=lambda pin: pin["pinned"])


def _find_hanging(board: Board, counts: dict[int, tuple[list[int], list[int]]]) -> list[str]:
    """Pieces attacked by the other colour and undefended, or attacked by a cheaper piece."""
    hanging = []
    for sq, piece in board.pieces().items():
        if piece.piece_type == KING:
            continue
        defenders = counts[sq][piece.color]
        enemies = counts[sq][1 - piece.color]
        if not enemies:
            continue
        value = PIECE_VALUES[piece.piece_type]
        cheapest = min(_value_at(board, attacker) for attacker in enemies)
        if not defenders or cheapest < value:
            hanging.append(NAMES[sq])
    return sorted(hanging)


def _value_at(board: Board, sq: int) -> int:
    piece = board.piece_at(sq)
    return 0 if piece is None else PIECE_VALUES[piece.piece_type]
