"""The trainer's words in the trainee's language: a gettext-shaped `Translator` passed in.

chesscore knows no web framework and no catalog: whoever makes a drill hands it something
with gettext's methods (chesscore.words; the server gives its catalog of the request's language, a
`babel.support.Translations`); `ENGLISH`, the default, gives each message back as written.
Every sentence is a whole message with named `{placeholders}` filled after translation, so a
language may order its words as it needs; the messages are marked with `N_` (it marks, and
changes nothing) where they are kept in tables, for `make messages` to extract them.
"""

from __future__ import annotations

from chesscore.words import ENGLISH, N_, English, Translator

__all__ = ["ENGLISH", "N_", "English", "Translator", "plural_count"]


def plural_count(amount: float) -> int:
    """The count a plural form is chosen by: `amount` itself when whole, else 2, which every
    served language writes in its plural ("1.5 pawns")."""
    return int(amount) if amount == int(amount) else 2
