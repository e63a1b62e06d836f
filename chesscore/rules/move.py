"""Moves and pieces: the public value types and the packed-int form the generator uses.

Inside the move generator a move is one int, because building objects for every generated
move would cost more than generating it: bits 0-6 hold the target square
(`move & SQUARE_MASK`), bits 7-13 the origin square (`move >> ORIGIN_SHIFT & SQUARE_MASK`, both
0x88), bits 14-16 the promotion piece type (`move >> PROMOTION_SHIFT & 7`, 0 for none) and bits
17-18 a flag (`move >> FLAG_SHIFT`: 0 ordinary, 1 pawn double step, 2 en passant, 3 castling).
Putting the target in the low bits lets the generator build a piece's moves as
`origin << ORIGIN_SHIFT | target`. Every packed move below 1 << PROMOTION_SHIFT is an ordinary
move, which lets make/unmake skip all special handling with one
comparison. Public `Move` values are made only at the API edge; a piece on the board is a
small int too, `piece_type | color << 3` (0 for an empty square), and `Piece` is its public
value.
"""

from __future__ import annotations

from dataclasses import dataclass

from chesscore.errors import InvalidMoveError
from chesscore.rules.squares import (
    KING,
    PAWN,
    SQUARE_NAMES,
    WHITE,
    Color,
    InvalidSquareError,
    is_on_board,
    parse_square,
)

ORIGIN_SHIFT = 7
PROMOTION_SHIFT = 14
FLAG_SHIFT = 17
FLAG_NORMAL, FLAG_DOUBLE_STEP, FLAG_EN_PASSANT, FLAG_CASTLING = 0, 1, 2, 3
SQUARE_MASK = 0x7F
MOVE_KEY_MASK = (1 << FLAG_SHIFT) - 1  # origin, target and promotion: what identifies a move

PIECE_SYMBOLS = " pnbrqk"


def piece_code(piece_type: int, color: Color) -> int:
    """The board's int for a piece: `piece_type | color << 3`."""
    return piece_type | color << 3


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another, with the promotion piece type if any."""

    from_square: int
    to_square: int
    promotion: int | None = None

    def __post_init__(self) -> None:
        # Moves also come from callers' code: refuse nonsense here rather than deep inside.
        squares_ok = all(
            type(sq) is int and is_on_board(sq) for sq in (self.from_square, self.to_square)
        )
        promotion_ok = self.promotion is None or (
            type(self.promotion) is int and PAWN <= self.promotion <= KING
        )
        if not (squares_ok and promotion_ok):
            raise InvalidMoveError(
                f"not a move: Move({self.from_square!r}, {self.to_square!r}, {self.promotion!r})"
            )

    def uci(self) -> str:
        """UCI text: "e2e4", "e7e8q"."""
        text = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        return text + PIECE_SYMBOLS[self.promotion] if self.promotion else text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse UCI text; raises InvalidMoveError quoting malformed text."""
        if not isinstance(text, str) or len(text) not in (4, 5):
            raise InvalidMoveError(f"not a UCI move: {text!r}")
        try:
            origin, target = parse_square(text[:2]), parse_square(text[2:4])
        except InvalidSquareError:
            raise InvalidMoveError(f"not a UCI move: {text!r}") from None
        promotion = None
        if len(text) == 5:
            if text[4] not in PIECE_SYMBOLS[1:]:
                raise InvalidMoveError(f"not a UCI promotion piece in {text!r}")
            promotion = PIECE_SYMBOLS.index(text[4])
        if origin == target:
            raise InvalidMoveError(f"a move must change square: {text!r}")
        return cls(origin, target, promotion)

    @classmethod
    def from_packed(cls, move: int) -> Move:
        """The public Move of a packed generator move."""
        promotion = move >> PROMOTION_SHIFT & 7
        return cls(move >> ORIGIN_SHIFT & SQUARE_MASK, move & SQUARE_MASK, promotion or None)

    def packed_key(self) -> int:
        """Origin, target and promotion packed as in a generated move, without the flag."""
        return (
            self.to_square
            | self.from_square << ORIGIN_SHIFT
            | (self.promotion or 0) << PROMOTION_SHIFT
        )

    def __str__(self) -> str:
        return self.uci()


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its type (PAWN..KING) and colour (WHITE or BLACK)."""

    piece_type: int
    color: Color

    def symbol(self) -> str:
        """FEN letter: upper case for white ("N"), lower case for black ("n")."""
        letter = PIECE_SYMBOLS[self.piece_type]
        return letter.upper() if self.color == WHITE else letter

    @classmethod
    def from_code(cls, code: int) -> Piece:
        """The Piece of a board int (non-zero)."""
        return cls(code & 7, code >> 3)

    def code(self) -> int:
        return self.piece_type | self.color << 3
