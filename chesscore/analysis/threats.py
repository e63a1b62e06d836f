"""The threat map: for every square, which pieces of each colour attack or defend it.

`make_threat_map` builds it from the one attack primitive (chesscore.rules.attacks: pawns only
diagonally, sliders stopped by the first piece) in its whole-board shape, `attack_map`. Derived
facts ride along: the pieces giving check (the attackers of the king of the side to move), the
absolutely pinned pieces of both colours with their pinners (`board.pins`), and the hanging
pieces: those whose capture wins material for the other side by the exchange on their square
(chesscore.analysis.exchange, the one rule the trainer and the explanations use too).

Squares are 0x88 ints here, as everywhere in chesscore; only the edges name them (the server's
wire form, the command line, words for screen readers). Every sequence of squares is in name
order (`NAME_ORDER`: a1, a2, ..., h8), so equal positions give equal maps and a list named at
the edge comes out sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.analysis.exchange import hanging_gains
from chesscore.rules.attacks import SQUARE_LABELS, AttackLists, fill_attack_map
from chesscore.rules.squares import BLACK, NAME_ORDER, SQUARES, WHITE, Color, in_name_order

if TYPE_CHECKING:
    from chesscore.rules.board import Board


# The 64 squares in name order.
BOARD_SQUARES = tuple(in_name_order(SQUARES))


@dataclass(frozen=True, slots=True)
class Pin:
    """An absolutely pinned piece, the piece pinning it, and the king behind it (squares)."""

    pinned: int
    pinner: int
    king: int


@dataclass(frozen=True, slots=True)
class ThreatMap:
    """The threat map of a position (see the module docstring).

    `attackers[color][sq]`, for every 0x88 index `sq` (off-board indexes hold an empty list), is
    the squares of the pieces of `color` attacking or defending `sq`, in name order. Read it,
    never change it: the lists are shared by every holder of the map.
    """

    attackers: AttackLists
    checkers: tuple[int, ...]
    pins: tuple[Pin, ...]
    hanging: tuple[int, ...]


def make_threat_map(board: Board) -> ThreatMap:
    """The threat map of `board` (see the module docstring).

    >>> from chesscore import Board
    >>> from chesscore.rules.squares import WHITE, parse_square, square_name
    >>> threats = make_threat_map(Board())
    >>> [square_name(sq) for sq in threats.attackers[WHITE][parse_square("f3")]]
    ['e2', 'g1', 'g2']
    >>> threats.checkers, threats.pins, threats.hanging
    ((), (), ())
    """
    # The off-board indexes share one list that is never filled.
    empty: list[int] = []
    white = [empty] * 128
    black = [empty] * 128
    for sq in SQUARES:
        white[sq] = []
        black[sq] = []
    fill_attack_map(board.board, _in_name_order(board, WHITE), SQUARE_LABELS, white)
    fill_attack_map(board.board, _in_name_order(board, BLACK), SQUARE_LABELS, black)
    attacks = (white, black)
    turn = board.turn
    return ThreatMap(
        attacks,
        # The checkers are the attackers of the king of the side to move.
        tuple(attacks[turn ^ 1][board.king_square(turn)]),
        _make_pins(board),
        find_hanging(board, attacks),
    )


def piece_attack_lists(board: Board) -> AttackLists:
    """Per colour, by 0x88 index, the squares of the pieces of that colour attacking or
    defending the piece on that square, in no particular order: the threat map's facts about
    pieces, for a caller that needs no map. Only the lists at occupied squares are real: all
    other indexes share one list that collects what is entered there and is never read, which
    spares making 128 lists per colour where 32 pieces at most are looked at."""
    spill: list[int] = []
    white = [spill] * 128
    black = [spill] * 128
    for sq in board.piece_squares[WHITE] | board.piece_squares[BLACK]:
        white[sq] = []
        black[sq] = []
    fill_attack_map(board.board, board.piece_squares[WHITE], SQUARE_LABELS, white)
    fill_attack_map(board.board, board.piece_squares[BLACK], SQUARE_LABELS, black)
    return white, black


def _in_name_order(board: Board, color: Color) -> list[int]:
    """The squares of `color`'s pieces in name order: walked in that order, they leave every
    list of the attack map in name order without sorting it."""
    return in_name_order(board.piece_squares[color])


def _make_pins(board: Board) -> tuple[Pin, ...]:
    pins: list[Pin] = []
    for color in (WHITE, BLACK):
        king = board.king_square(color)
        for pinned, pinner in board.pins(color):
            pins.append(Pin(pinned, pinner, king))
    return tuple(sorted(pins, key=lambda pin: NAME_ORDER[pin.pinned]))


def find_hanging(board: Board, attacks: AttackLists) -> tuple[int, ...]:
    """The hanging pieces of both colours (chesscore.analysis.exchange), from the attack lists of
    `board`, in name order."""
    return tuple(in_name_order(hanging_gains(board, attacks)))
