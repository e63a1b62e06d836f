"""The errors chesscore raises. Every one is a `ValueError` (through `ChessError`), so callers
that only care about "bad input" can catch one type, and every message quotes the input that
was wrong so the person who typed it can see what to fix.

An error carries its words as data beside its English `str()`: a `chesscore.words.Message`, an
English msgid with named `{placeholders}` (marked `N_` where it is written, for `make
messages`) and the values that fill them, a value possibly a message of its own (the reason
inside "unplayable position {fen}: {reason}"). Whoever tells a person about the error (the
server, in the request's language) says it through a catalog; chesscore itself knows none.
"""

from __future__ import annotations

from chesscore.words import Message, Value, render


class ChessError(ValueError):
    """Base class of every error chesscore raises on bad input.

    Raised as `ChessError(N_("... {name} ..."), name=value)`; `message` keeps the msgid and its
    values for a translation, `str(error)` is the English sentence. A message given without
    values is taken as written (braces and all)."""

    def __init__(self, template: str, /, **params: Value) -> None:
        self.message = Message(template, tuple(params.items()))
        super().__init__(render(self.message))


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
