"""Display names: what a visitor without an account is called, checked once at the edge.

No accounts: a visitor chooses a name on the lobby (the browser keeps it) or is given one like
"Anonymous-4821". A name is 1 to 20 characters of letters (any script), digits, spaces, `_` and
`-`, neither starting nor ending with a space: nothing that markup, a control character or a
look-alike space could hide in. Pages show names as text only; this check is the second guard,
not the first.
"""

from __future__ import annotations

import secrets
import unicodedata

MAX_NAME_LENGTH = 20
NAME_WHAT = (
    f"a display name of 1 to {MAX_NAME_LENGTH} letters, digits, spaces, '_' or '-' "
    "(not starting or ending with a space)"
)
# Letters of any script and decimal digits; marks are refused, so a name is what it shows.
NAME_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"})


def is_name(text: str) -> bool:
    """Whether `text` is an acceptable display name (see the module docstring)."""
    if not 0 < len(text) <= MAX_NAME_LENGTH or text != text.strip(" "):
        return False
    return all(char in " _-" or unicodedata.category(char) in NAME_CATEGORIES for char in text)


def make_anonymous_name() -> str:
    """A name for a visitor who chose none: "Anonymous-" and four digits."""
    return f"Anonymous-{1000 + secrets.randbelow(9000)}"
