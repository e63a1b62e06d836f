"""The trainer's words in the trainee's language: a gettext-shaped `Translator` passed in.

chesscore knows no web framework and no catalog: whoever makes a drill hands it something
with `gettext` and `ngettext` (the server gives its catalog of the request's language, a
`babel.support.Translations`); `ENGLISH`, the default, gives each message back as written.
Every sentence is a whole message with named `{placeholders}` filled after translation, so a
language may order its words as it needs; the messages are marked with `N_` (it marks, and
changes nothing) where they are kept in tables, for `make messages` to extract them.
"""

from __future__ import annotations

from typing import Protocol


class Translator(Protocol):
    """What gettext's translations objects have."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


class English:
    """The messages as written: English, gettext's way when no catalog is loaded."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


ENGLISH: Translator = English()


def N_(message: str) -> str:
    """Marks `message` for extraction where it is kept to be translated later."""
    return message


def plural_count(amount: float) -> int:
    """The count a plural form is chosen by: `amount` itself when whole, else 2, which every
    served language writes in its plural ("1.5 pawns")."""
    return int(amount) if amount == int(amount) else 2
