"""The board read through names: what stands on a square, whose it is, its file and rank.

The board is chesscore.rules.board's list of 128 piece codes on 0x88 squares (a code is
`color << 3 | kind`, 0 an empty square; chesscore.rules.squares writes the representation
down). The explanation reads it through these small functions instead of shifting and masking
by hand; the hot loops of the rules, the threat map, SEE and the engine keep their own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.rules.squares import WHITE, Color, is_on_board

if TYPE_CHECKING:
    from chesscore.rules.board import Board


def kind_of(code: int) -> int:
    """The piece type (PAWN .. KING) of a piece code; 0 for an empty square."""
    return code & 7


def color_of(code: int) -> Color:
    """The colour of a piece code (meaningless for an empty square)."""
    return code >> 3


def kind_at(board: Board, sq: int) -> int:
    """The type of the piece on `sq` of `board`; 0 when the square is empty."""
    return kind_of(board.board[sq])


def color_at(board: Board, sq: int) -> Color:
    """The colour of the piece on `sq` of `board` (the square holds a piece)."""
    return color_of(board.board[sq])


def is_piece_of(board: Board, sq: int, color: Color) -> bool:
    """Whether a piece of `color` stands on `sq` of `board`."""
    code = board.board[sq]
    return bool(code) and color_of(code) == color


def file_of(sq: int) -> int:
    """The file index of a square, 0 (the a-file) to 7."""
    return sq & 7


def rank_of(sq: int) -> int:
    """The rank index of a square, 0 (the first rank) to 7."""
    return sq >> 4


def rank_for(sq: int, color: Color) -> int:
    """The rank of `sq` counted from `color`'s side: 0 is its first rank, 7 its eighth."""
    return rank_of(sq) if color == WHITE else 7 - rank_of(sq)


def on_board(sq: int) -> bool:
    """Whether a step landed on one of the 64 squares."""
    return is_on_board(sq)


def same_rank_square(rank_from: int, file_from: int) -> int:
    """The square on the rank of `rank_from` and the file of `file_from` (en passant's victim)."""
    return rank_of(rank_from) * 16 + file_of(file_from)
