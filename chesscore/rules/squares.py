"""Squares, colours, piece types and the geometry of the 0x88 board.

The board is a flat list of 128 ints: square `sq = rank * 16 + file` (a1 = 0, h1 = 7, a2 = 16,
h8 = 119). The right half of each 16-wide row is off the board, so `sq & 0x88` is non-zero
exactly when a step left the board; no bounds checks are needed. Directions are compass sums
(`N + E` is one step up and right). This module builds, once at import, the per-square tables
the move generator walks instead of testing `& 0x88` in its hot loop: for every square the rays
of each slider direction (squares in order, stopping at the edge) and the target squares of
knights and kings. Squares are plain ints everywhere inside chesscore; names appear only at the
edges (`square_name`, `parse_square`).
"""

from __future__ import annotations

from collections.abc import Iterable

from chesscore.errors import InvalidSquareError

__all__ = ["InvalidSquareError"]  # re-exported: parse_square raises it

Color = int
WHITE: Color = 0
BLACK: Color = 1
COLOR_NAMES = ("white", "black")

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6

N, S, E, W = 16, -16, 1, -1
ROOK_DIRECTIONS = (N, S, E, W)
BISHOP_DIRECTIONS = (N + E, N + W, S + E, S + W)
QUEEN_DIRECTIONS = ROOK_DIRECTIONS + BISHOP_DIRECTIONS
KNIGHT_OFFSETS = (
    N + N + E, N + N + W, S + S + E, S + S + W, E + E + N, E + E + S, W + W + N, W + W + S,
)  # fmt: skip

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"

# The 64 real squares in a1, b1, ..., h8 order.
SQUARES = tuple(rank * 16 + file for rank in range(8) for file in range(8))

A1, B1, C1, D1, E1, F1, G1, H1 = range(8)
A8, B8, C8, D8, E8, F8, G8, H8 = range(112, 120)


def make_square(file: int, rank: int) -> int:
    """The 0x88 square of a file and rank index (both 0..7)."""
    return rank * 16 + file


def file_of(sq: int) -> int:
    """The file index (0 for a .. 7 for h) of a 0x88 square."""
    return sq & 7


def rank_of(sq: int) -> int:
    """The rank index (0 for the 1st .. 7 for the 8th) of a 0x88 square."""
    return sq >> 4


def piece_type_of(code: int) -> int:
    """The piece type (PAWN .. KING) of a board cell's code, 0 for an empty cell: the board
    holds `piece_type | color << 3` (chesscore.rules.move.piece_code)."""
    return code & 7


def color_of(code: int) -> Color:
    """The colour (WHITE or BLACK) of a board cell's piece code (not of an empty cell)."""
    return code >> 3


def is_on_board(sq: int) -> bool:
    """True for the 64 squares of the board (any int is accepted)."""
    return 0 <= sq < 128 and not sq & 0x88


# Name of every 0x88 index ("" off the board): a lookup for the hot paths that name squares.
SQUARE_NAMES: tuple[str, ...] = tuple(
    "" if sq & 0x88 else FILE_NAMES[sq & 7] + RANK_NAMES[sq >> 4] for sq in range(128)
)


# A sort key by 0x88 index giving the order of the square names: a1, a2, ..., a8, b1, ... (file
# first, then rank). The analysis keeps its lists of squares in this order, so that they come out
# sorted by name when they are named at the edge, without sorting them there.
NAME_ORDER: tuple[int, ...] = tuple((sq & 7) * 8 + (sq >> 4) for sq in range(128))


def in_name_order(squares: Iterable[int]) -> list[int]:
    """`squares` sorted by `NAME_ORDER`: as their names sort."""
    return sorted(squares, key=NAME_ORDER.__getitem__)


def square_name(sq: int) -> str:
    """Algebraic name of a square: `square_name(0)` is "a1"."""
    name = SQUARE_NAMES[sq] if type(sq) is int and 0 <= sq < 128 else ""
    if not name:
        raise InvalidSquareError(f"not a square of the board: {sq!r}")
    return name


def parse_square(name: str) -> int:
    """The square named `name` ("a1".."h8"); raises InvalidSquareError quoting junk."""
    if (
        not isinstance(name, str)
        or len(name) != 2
        or name[0] not in FILE_NAMES
        or name[1] not in RANK_NAMES
    ):
        raise InvalidSquareError(f"not a square name: {name!r}")
    return make_square(FILE_NAMES.index(name[0]), RANK_NAMES.index(name[1]))


def _ray(sq: int, direction: int) -> tuple[int, ...]:
    squares = []
    sq += direction
    while not sq & 0x88 and 0 <= sq < 128:
        squares.append(sq)
        sq += direction
    return tuple(squares)


def _rays(directions: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square (all 128 indices, empty off the board), the non-empty rays in `directions`."""
    table = []
    for sq in range(128):
        rays = () if sq & 0x88 else tuple(r for d in directions if (r := _ray(sq, d)))
        table.append(rays)
    return tuple(table)


def _steps(offsets: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per square, the on-board squares one offset away (knight and king targets)."""
    table = []
    for sq in range(128):
        targets: tuple[int, ...] = ()
        if not sq & 0x88:
            targets = tuple(sq + d for d in offsets if 0 <= sq + d < 128 and not (sq + d) & 0x88)
        table.append(targets)
    return tuple(table)


ROOK_RAYS = _rays(ROOK_DIRECTIONS)
BISHOP_RAYS = _rays(BISHOP_DIRECTIONS)
QUEEN_RAYS = _rays(QUEEN_DIRECTIONS)
KNIGHT_TARGETS = _steps(KNIGHT_OFFSETS)
KING_TARGETS = _steps(QUEEN_DIRECTIONS)

# Every piece's moves as rays, so one loop serves knights and sliders alike: a knight's "ray"
# is a single square. Indexed by piece type (0 and PAWN unused), then by square.
PIECE_RAYS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = (
    (),
    (),
    tuple(tuple((t,) for t in targets) for targets in KNIGHT_TARGETS),
    BISHOP_RAYS,
    ROOK_RAYS,
    QUEEN_RAYS,
    tuple(tuple((t,) for t in targets) for targets in KING_TARGETS),
)

# Per square and colour, the squares from which a pawn of that colour attacks the square.
PAWN_ATTACKER_SQUARES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        ()
        if sq & 0x88
        else tuple(s for s in ((sq - 15, sq - 17) if color == WHITE else (sq + 15, sq + 17))
                   if 0 <= s < 128 and not s & 0x88 and abs((s & 7) - (sq & 7)) == 1)
        for sq in range(128)
    )
    for color in (WHITE, BLACK)
)  # fmt: skip


# Per square and colour, the squares a pawn of that colour on the square captures towards.
PAWN_CAPTURE_TARGETS: tuple[tuple[tuple[int, ...], ...], ...] = (
    PAWN_ATTACKER_SQUARES[BLACK],  # a white pawn captures where a black pawn would attack from
    PAWN_ATTACKER_SQUARES[WHITE],
)


def direction_between(a: int, b: int) -> int:
    """The compass step that leads from `a` to `b` along a rank, file or diagonal, else 0."""
    df = (b & 7) - (a & 7)
    dr = (b >> 4) - (a >> 4)
    if a == b or (df and dr and abs(df) != abs(dr)):
        return 0
    return (dr > 0) * N + (dr < 0) * S + (df > 0) * E + (df < 0) * W


def squares_between(a: int, b: int) -> list[int]:
    """Squares strictly between two aligned squares (empty when they are not aligned)."""
    step = direction_between(a, b)
    if not step:
        return []
    return list(range(a + step, b, step))
