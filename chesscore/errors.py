"""The errors chesscore raises. Every one is a `ValueError` (through `ChessError`), so callers
that only care about "bad input" can catch one type, and every message quotes the input that
was wrong so the person who typed it can see what to fix.
"""

from __future__ import annotations


class ChessError(ValueError):
    """Base class of every error chesscore raises on bad input."""


class InvalidSquareError(ChessError):
    """A square name that is not one of a1..h8."""


class InvalidFenError(ChessError):
    """A FEN that is malformed (the message names the field) or describes an unplayable position."""


class InvalidMoveError(ChessError):
    """Move text (UCI or SAN) that is malformed, whatever the position."""


class IllegalMoveError(ChessError):
    """A well-formed move that is not legal in the position (the message names move and FEN)."""


class AmbiguousMoveError(ChessError):
    """SAN that matches more than one legal move."""


class InvalidPgnError(ChessError):
    """PGN text that cannot be read, or whose moves are not legal (names the first bad move)."""
