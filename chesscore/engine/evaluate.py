"""Static evaluation: material plus piece-square tables, tapered from middlegame to endgame.

Every piece has two values on every square, one for the middlegame and one for the endgame:
its material worth plus a bonus for where it stands (knights and bishops toward the centre,
pawns forward, the king sheltered in the middlegame and central in the endgame). The game
phase counts the pieces left (knight and bishop 1, rook 2, queen 4; 24 at the start), and the
score blends the two sums by it, so the king walks out as the pieces come off. Scores are in
centipawns from White's side; the searcher keeps the two sums up to date move by move with
`move_delta` and turns them into the side to move's view with `blend`. Tables are indexed by
piece code (``color * 8 + piece_type``, White's codes 1-6, Black's 9-14) and 0x88 square, and
hold signed values (Black's negative), so a move's effect is plain addition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.rules.move import (
    FLAG_CASTLING,
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
)
from chesscore.rules.squares import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE

if TYPE_CHECKING:
    from chesscore.rules.board import Board

# Material in the middlegame and the endgame, by piece type (PAWN=1 .. KING=6).
MG_VALUE = (0, 100, 320, 330, 480, 950, 0)
EG_VALUE = (0, 120, 300, 320, 530, 960, 0)
PHASE_WEIGHT = (0, 0, 1, 1, 2, 4, 0, 0)
FULL_PHASE = 24

# Positional bonuses from White's side, written as the board looks from White: rank 8 first.
_PAWN_MG = """
  0   0   0   0   0   0   0   0
 60  70  70  80  80  70  70  60
 15  20  30  40  40  30  20  15
  5  10  15  30  30  15  10   5
  0   0  10  25  25   5   0   0
  5   0   0  10  10  -5   0   5
  5  10  10 -20 -20  10  10   5
  0   0   0   0   0   0   0   0
"""
_PAWN_EG = """
  0   0   0   0   0   0   0   0
120 120 115 110 110 115 120 120
 70  70  60  55  55  60  70  70
 35  35  30  25  25  30  35  35
 15  15  10  10  10  10  15  15
  5   5   0   0   0   0   5   5
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
"""
_KNIGHT = """
-50 -35 -25 -25 -25 -25 -35 -50
-35 -15   0   5   5   0 -15 -35
-25   5  15  20  20  15   5 -25
-25   5  20  25  25  20   5 -25
-25   0  15  25  25  15   0 -25
-25   5  15  15  15  15   5 -25
-35 -15   0   5   5   0 -15 -35
-50 -30 -25 -25 -25 -25 -30 -50
"""
_BISHOP = """
-20 -10 -10 -10 -10 -10 -10 -20
-10   0   0   0   0   0   0 -10
-10   0   5  10  10   5   0 -10
-10   5   5  10  10   5   5 -10
-10   0  10  10  10  10   0 -10
-10  10  10  10  10  10  10 -10
-10   5   0   0   0   0   5 -10
-20 -10 -15 -10 -10 -15 -10 -20
"""
_ROOK_MG = """
  0   0   0   5   5   0   0   0
 15  20  20  20  20  20  20  15
 -5   0   0   0   0   0   0  -5
 -5   0   0   0   0   0   0  -5
 -5   0   0   0   0   0   0  -5
 -5   0   0   0   0   0   0  -5
 -5   0   0   0   0   0   0  -5
  0   0   0   5   5   5   0   0
"""
_ROOK_EG = """
  5   5   5   5   5   5   5   5
 10  10  10  10  10  10  10  10
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
"""
_QUEEN = """
-20 -10 -10  -5  -5 -10 -10 -20
-10   0   0   0   0   0   0 -10
-10   0   5   5   5   5   0 -10
 -5   0   5   5   5   5   0  -5
 -5   0   5   5   5   5   0  -5
-10   5   5   5   5   5   0 -10
-10   0   5   0   0   0   0 -10
-20 -10 -10  -5  -5 -10 -10 -20
"""
_KING_MG = """
-40 -50 -50 -60 -60 -50 -50 -40
-40 -50 -50 -60 -60 -50 -50 -40
-40 -50 -50 -60 -60 -50 -50 -40
-40 -50 -50 -60 -60 -50 -50 -40
-30 -40 -40 -50 -50 -40 -40 -30
-20 -30 -30 -40 -40 -30 -30 -20
 10  10 -10 -20 -20 -10  10  10
 20  35  10 -10   0 -10  35  20
"""
_KING_EG = """
-50 -35 -25 -20 -20 -25 -35 -50
-30 -15   0   5   5   0 -15 -30
-25   0  20  25  25  20   0 -25
-25   5  25  35  35  25   5 -25
-25   5  25  35  35  25   5 -25
-25   0  15  20  20  15   0 -25
-30 -20   0   0   0   0 -20 -30
-50 -35 -25 -25 -25 -25 -35 -50
"""

_BONUS_TEXT = {
    PAWN: (_PAWN_MG, _PAWN_EG),
    KNIGHT: (_KNIGHT, _KNIGHT),
    BISHOP: (_BISHOP, _BISHOP),
    ROOK: (_ROOK_MG, _ROOK_EG),
    QUEEN: (_QUEEN, _QUEEN),
    KING: (_KING_MG, _KING_EG),
}


def _parse_bonus(text: str) -> list[int]:
    """A 128-entry 0x88 table from eight rows written rank 8 first (White's view)."""
    rows = [[int(cell) for cell in line.split()] for line in text.strip().splitlines()]
    table = [0] * 128
    for row_index, row in enumerate(rows):
        rank = 7 - row_index
        for file, value in enumerate(row):
            table[rank * 16 + file] = value
    return table


def _build_tables(phase_index: int, values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Signed material + bonus per piece code and 0x88 square (Black mirrored and negated)."""
    tables: list[tuple[int, ...]] = [(0,) * 128 for _ in range(16)]
    for piece_type, texts in _BONUS_TEXT.items():
        bonus = _parse_bonus(texts[phase_index])
        value = values[piece_type]
        tables[WHITE * 8 + piece_type] = tuple(value + bonus[sq] for sq in range(128))
        # Black's a8 is White's a1: flipping the rank is `sq ^ 0x70` on a 0x88 board.
        tables[BLACK * 8 + piece_type] = tuple(
            -(value + bonus[sq ^ 0x70]) if not sq & 0x88 else 0 for sq in range(128)
        )
    return tuple(tables)


MG_TABLE = _build_tables(0, MG_VALUE)
EG_TABLE = _build_tables(1, EG_VALUE)
PHASE_OF_CODE = tuple(PHASE_WEIGHT[code & 7] for code in range(16))


def blend(mg: int, eg: int, phase: int, turn: int) -> int:
    """The tapered score for the side to move `turn` from White's two sums and the phase."""
    phase = min(phase, FULL_PHASE)
    score = mg * phase + eg * (FULL_PHASE - phase)
    # Negate before dividing: floor division rounds both colours the same way only then.
    return (-score if turn else score) // FULL_PHASE


MOP_UP_PHASE = 6  # at most a rook and a minor piece each, or a queen and a bishop...
MOP_UP_LEAD = 300  # ...and one side this far ahead in the endgame sum
# Per square: how far from the four centre squares (0 in the centre, 6 in a corner).
CENTRE_DISTANCE = tuple(
    max(3 - (sq & 7), (sq & 7) - 4) + max(3 - (sq >> 4), (sq >> 4) - 4) for sq in range(128)
)


def mop_up(kings: list[int], eg: int, phase: int, turn: int) -> int:
    """In a won endgame, a bonus for driving the lone king to the edge and closing in with ours.

    Material alone cannot tell a mating net from aimless checks; this gives the winning side a
    gradient to follow. Zero unless few pieces are left and one side leads clearly.
    """
    if phase > MOP_UP_PHASE or -MOP_UP_LEAD < eg < MOP_UP_LEAD:
        return 0
    strong = WHITE if eg > 0 else BLACK
    weak_king, strong_king = kings[strong ^ 1], kings[strong]
    distance = abs((weak_king & 7) - (strong_king & 7)) + abs((weak_king >> 4) - (strong_king >> 4))
    bonus = 12 * CENTRE_DISTANCE[weak_king] + 4 * (14 - distance)
    return bonus if strong == turn else -bonus


def evaluation_terms(board: Board) -> tuple[int, int, int]:
    """White's middlegame sum, endgame sum and the game phase of `board`, from scratch."""
    mg = eg = phase = 0
    for sq, piece in board.pieces().items():
        code = piece.color * 8 + piece.piece_type
        mg += MG_TABLE[code][sq]
        eg += EG_TABLE[code][sq]
        phase += PHASE_OF_CODE[code]
    return mg, eg, phase


def evaluate(board: Board) -> int:
    """The static score of `board` in centipawns for the side to move.

    >>> from chesscore import Board
    >>> evaluate(Board())
    0
    >>> evaluate(Board.from_fen("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1")) > 3000
    True
    """
    mg, eg, phase = evaluation_terms(board)
    return blend(mg, eg, phase, board.turn) + mop_up(board.kings, eg, phase, board.turn)


def move_delta(squares: list[int], move: int, turn: int) -> tuple[int, int, int]:
    """How `move` changes White's middlegame sum, endgame sum and the phase.

    Called before the move is made, while `squares` still shows the moving piece on its origin.
    """
    target = move & SQUARE_MASK
    origin = move >> ORIGIN_SHIFT & SQUARE_MASK
    piece = squares[origin]
    victim = squares[target]
    mg_table, eg_table = MG_TABLE, EG_TABLE
    mg = mg_table[piece][target] - mg_table[piece][origin] - mg_table[victim][target]
    eg = eg_table[piece][target] - eg_table[piece][origin] - eg_table[victim][target]
    phase = -PHASE_OF_CODE[victim]
    if move < 1 << PROMOTION_SHIFT:  # no promotion, no flag: the common case
        return mg, eg, phase
    promotion = move >> PROMOTION_SHIFT & 7
    flag = move >> FLAG_SHIFT
    if promotion:
        promoted = promotion | turn << 3
        mg += mg_table[promoted][target] - mg_table[piece][target]
        eg += eg_table[promoted][target] - eg_table[piece][target]
        phase += PHASE_OF_CODE[promoted]
    elif flag == FLAG_EN_PASSANT:
        captured_sq = target - 16 if turn == 0 else target + 16
        pawn = PAWN | (1 - turn) << 3
        mg -= mg_table[pawn][captured_sq]
        eg -= eg_table[pawn][captured_sq]
    elif flag == FLAG_CASTLING:
        rook = ROOK | turn << 3
        rook_from, rook_to = (
            (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        )
        mg += mg_table[rook][rook_to] - mg_table[rook][rook_from]
        eg += eg_table[rook][rook_to] - eg_table[rook][rook_from]
    return mg, eg, phase
