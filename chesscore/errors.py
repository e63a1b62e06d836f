"""The errors chesscore raises. Every one is a `ValueError` (through `ChessError`), so callers
that only care about "bad input" can catch one type, and every message quotes the input that
was wrong so the person who typed it can see what to fix.

An error carries its words as data beside its English `str()`: a `Message`, an English msgid
with named `{placeholders}` (marked `N_` where it is written, for `make messages`) and the
values that fill them, a value possibly a `Message` of its own (the reason inside "unplayable
position {fen}: {reason}"). Whoever tells a person about the error (the server, in the request's
language) translates the msgid and puts the values in after; chesscore itself knows no catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field


def N_(message: str) -> str:
    """Marks `message` for extraction into the catalogs; it is translated when said.

    The trainer's marker (chesscore.training.words.N_) does the same; the rules keep their own
    because chesscore.training imports the rules."""
    return message


@dataclass(frozen=True)
class Message:
    """A message with named `{placeholders}` and the values that fill them; `str()` is the
    English sentence, `say` the sentence through a translation of its msgids."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.say(_as_written)

    def say(self, translate: Callable[[str], str]) -> str:
        """The sentence with every msgid (its own and its values') passed through
        `translate`; a translation that lost a placeholder falls back to the English one."""
        if not self.params:
            return translate(self.template)
        values = {
            name: value.say(translate) if isinstance(value, Message) else value
            for name, value in self.params.items()
        }
        try:
            return translate(self.template).format(**values)
        except (KeyError, IndexError, ValueError):
            return self.template.format(**values)


def _as_written(message: str) -> str:
    return message


class ChessError(ValueError):
    """Base class of every error chesscore raises on bad input.

    Raised as `ChessError(N_("... {name} ..."), name=value)`; `message` keeps the msgid and its
    values for a translation, `str(error)` is the English sentence. A message given without
    values is taken as written (braces and all)."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.message = Message(template, params)
        super().__init__(str(self.message))


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
