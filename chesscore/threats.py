"""The threat map: for every square, which pieces of each colour attack or defend it.

`make_threat_map` builds the plain, JSON-ready data the browser overlays draw from the board's
one attack primitive (`board.attackers(color, sq)`: pawns only diagonally, sliders stopped by
the first piece), here in its all-squares-at-once form `attack_lists` (see there). Derived facts
ride along: the pieces giving check (the attackers of the king of the side to move), the
absolutely pinned pieces of both colours with their pinners (`board.pins`), and the hanging
pieces: a piece (not a king) attacked by the other colour and either undefended or attacked by
a piece worth less than itself (pawn 1, knight 3, bishop 3, rook 5, queen 9). Every list of
squares is sorted by square name, so equal positions give equal maps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from chesscore.squares import (
    BLACK,
    KING,
    PAWN,
    PAWN_CAPTURE_TARGETS,
    PIECE_RAYS,
    WHITE,
    Color,
    square_name,
)

if TYPE_CHECKING:
    from chesscore.board import Board

# Indexed by piece type (PAWN=1 .. KING=6); a king is never "hanging", so its value only has
# to be above every other piece's.
PIECE_VALUES = (0, 1, 3, 3, 5, 9, 100)

NAMES = tuple(square_name(sq) if not sq & 0x88 else "" for sq in range(128))
SQUARE_OF_NAME = {name: sq for sq, name in enumerate(NAMES) if name}
BOARD_SQUARES = tuple(SQUARE_OF_NAME[name] for name in sorted(SQUARE_OF_NAME))  # a1, a2, .., h8
# Sort key giving name order (a1 < a2 < ... < h8): file first, then rank.
NAME_ORDER = tuple((sq & 7) * 8 + (sq >> 4) for sq in range(128))


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
    # The per-square lists are created once, straight into the output, and filled in place
    # through two 0x88-indexed views (off-board slots share one list that is never filled).
    white: list[list[str]] = [[]] * 128
    black: list[list[str]] = [[]] * 128
    squares: dict[str, SquareAttackers] = {}
    for sq in BOARD_SQUARES:
        by_white: list[str] = []
        by_black: list[str] = []
        white[sq], black[sq] = by_white, by_black
        squares[NAMES[sq]] = {"white": by_white, "black": by_black}
    _walk_attacks(board, WHITE, white)
    _walk_attacks(board, BLACK, black)
    attacks = (white, black)
    turn = board.turn
    return {
        "squares": squares,
        # The checkers are the attackers of the king of the side to move.
        "checkers": list(attacks[turn ^ 1][board.king_square(turn)]),
        "pins": _make_pins(board),
        "hanging": _find_hanging(board, attacks),
    }


def attack_lists(board: Board, color: Color) -> list[list[str]]:
    """For each 0x88 index, the names (sorted) of the pieces of `color` attacking that square.

    This is `board.attackers(color, sq)` for all 64 squares at once, turned inside out for
    speed: rather than 64 calls that each test every piece of the colour, every piece walks
    its own attack rays once, on the same per-square ray tables the move generator uses, with
    the primitive's rules (pawns only diagonally, a ray ends on the first piece it meets). A
    test checks it against `board.attackers` on every square of many positions.
    """
    found: list[list[str]] = [[] for _ in range(128)]
    _walk_attacks(board, color, found)
    return found


def _walk_attacks(board: Board, color: Color, found: list[list[str]]) -> None:
    """Append the name of every piece of `color` to the lists of the squares it attacks.

    Walking the pieces in name order leaves every list sorted by name without sorting it.
    """
    cells = board.board
    pawn_targets = PAWN_CAPTURE_TARGETS[color]
    for origin in sorted(board.piece_squares[color], key=NAME_ORDER.__getitem__):
        name = NAMES[origin]
        kind = cells[origin] & 7
        if kind == PAWN:
            for target in pawn_targets[origin]:
                found[target].append(name)
            continue
        for ray in PIECE_RAYS[kind][origin]:
            for target in ray:
                found[target].append(name)
                if cells[target]:
                    break


def _make_pins(board: Board) -> list[Pin]:
    pins: list[Pin] = []
    for color in (WHITE, BLACK):
        king = NAMES[board.king_square(color)]
        for pinned, pinner in board.pins(color):
            pins.append({"pinned": NAMES[pinned], "pinner": NAMES[pinner], "king": king})
    return sorted(pins, key=lambda pin: pin["pinned"])


def _find_hanging(board: Board, attacks: tuple[list[list[str]], list[list[str]]]) -> list[str]:
    """Pieces attacked by the other colour and undefended, or attacked by a cheaper piece."""
    cells = board.board
    hanging = []
    for color in (WHITE, BLACK):
        defended, attacked = attacks[color], attacks[color ^ 1]
        for sq in board.piece_squares[color]:
            enemies = attacked[sq]
            kind = cells[sq] & 7
            if not enemies or kind == KING:
                continue
            cheapest = min(PIECE_VALUES[cells[SQUARE_OF_NAME[name]] & 7] for name in enemies)
            if not defended[sq] or cheapest < PIECE_VALUES[kind]:
                hanging.append(NAMES[sq])
    return sorted(hanging)
