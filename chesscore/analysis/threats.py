"""The threat map: for every square, which pieces of each colour attack or defend it.

`make_threat_map` builds the plain, JSON-ready data the browser overlays draw from the one
attack primitive (chesscore.rules.attacks: pawns only diagonally, sliders stopped by the first
piece) in its whole-board shape, `attack_map`, labelled with square names. Derived facts
ride along: the pieces giving check (the attackers of the king of the side to move), the
absolutely pinned pieces of both colours with their pinners (`board.pins`), and the hanging
pieces: a piece (not a king) attacked by the other colour and either undefended or attacked by
a piece worth less than itself (pawn 1, knight 3, bishop 3, rook 5, queen 9). Every list of
squares is sorted by square name, so equal positions give equal maps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.attacks import attack_map, fill_attack_map
from chesscore.rules.squares import BLACK, KING, SQUARE_NAMES, WHITE, Color

if TYPE_CHECKING:
    from chesscore.rules.board import Board


NAMES = SQUARE_NAMES  # the labels the threat map gives squares: their names
SQUARE_OF_NAME = {name: sq for sq, name in enumerate(NAMES) if name}
BOARD_SQUARES = tuple(SQUARE_OF_NAME[name] for name in sorted(SQUARE_OF_NAME))  # a1, a2, .., h8
# Sort key giving name order (a1 < a2 < ... < h8): file first, then rank.
NAME_ORDER = tuple((sq & 7) * 8 + (sq >> 4) for sq in range(128))


# Per colour, by 0x88 index, the names of that colour's pieces attacking the square.
AttackLists = tuple[list[list[str]], list[list[str]]]


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
    >>> threats = make_threat_map(Board())
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
    fill_attack_map(board.board, _in_name_order(board, WHITE), NAMES, white)
    fill_attack_map(board.board, _in_name_order(board, BLACK), NAMES, black)
    attacks = (white, black)
    turn = board.turn
    return {
        "squares": squares,
        # The checkers are the attackers of the king of the side to move.
        "checkers": list(attacks[turn ^ 1][board.king_square(turn)]),
        "pins": _make_pins(board),
        "hanging": find_hanging(board, attacks),
    }


def attack_lists(board: Board, color: Color) -> list[list[str]]:
    """For each 0x88 index, the names (sorted) of the pieces of `color` attacking that square:
    `attack_map` labelled with names."""
    return attack_map(board.board, _in_name_order(board, color), NAMES)


def piece_attack_lists(board: Board) -> AttackLists:
    """Per colour, by 0x88 index, the names of the pieces of that colour attacking or
    defending the piece on that square, in no particular order: the threat map's facts about
    pieces, for a caller that needs no map. Only the lists at occupied squares are real: all
    other indexes share one list that collects what is entered there and is never read, which
    spares making 128 lists per colour where 32 pieces at most are looked at."""
    spill: list[str] = []
    white = [spill] * 128
    black = [spill] * 128
    for sq in board.piece_squares[WHITE] | board.piece_squares[BLACK]:
        white[sq] = []
        black[sq] = []
    fill_attack_map(board.board, board.piece_squares[WHITE], NAMES, white)
    fill_attack_map(board.board, board.piece_squares[BLACK], NAMES, black)
    return white, black


def _in_name_order(board: Board, color: Color) -> list[int]:
    """The squares of `color`'s pieces in name order: walked in that order, they leave every
    list of the attack map sorted by name without sorting it."""
    return sorted(board.piece_squares[color], key=NAME_ORDER.__getitem__)


def _make_pins(board: Board) -> list[Pin]:
    pins: list[Pin] = []
    for color in (WHITE, BLACK):
        king = NAMES[board.king_square(color)]
        for pinned, pinner in board.pins(color):
            pins.append({"pinned": NAMES[pinned], "pinner": NAMES[pinner], "king": king})
    return sorted(pins, key=lambda pin: pin["pinned"])


def find_hanging(board: Board, attacks: AttackLists) -> list[str]:
    """Pieces attacked by the other colour and undefended, or attacked by a cheaper piece,
    from the attack lists of both colours (read at the pieces' squares only)."""
    cells = board.board
    hanging = []
    for color in (WHITE, BLACK):
        defended, attacked = attacks[color], attacks[color ^ 1]
        for sq in board.piece_squares[color]:
            enemies = attacked[sq]
            kind = cells[sq] & 7
            if not enemies or kind == KING:
                continue
            if not defended[sq]:
                hanging.append(NAMES[sq])
                continue
            # A plain loop that stops at the first cheaper attacker: the threat map and every
            # move's insight ask this of each attacked piece, and `min` over a generator made
            # this function take over half as long again.
            value = PIECE_VALUES[kind]
            for name in enemies:
                if PIECE_VALUES[cells[SQUARE_OF_NAME[name]] & 7] < value:
                    hanging.append(NAMES[sq])
                    break
    return sorted(hanging)
