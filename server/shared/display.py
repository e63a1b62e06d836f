"""Text from a visitor's PGN made fit to show on a page: no bidi or control characters, and a
result that is one of the four.

Pages show PGN header values as text (never markup), but text can still mislead: U+202E
(right-to-left override) in an Event header reversed the review page's title, and a free-text
`Result` ("claim your prize at ...") was shown as the game's result. `display_value` drops
every control and format character (Unicode categories Cc and Cf: the bidi overrides,
embeddings and isolates, zero-width characters) and line and paragraph separators;
`display_result` keeps a result only when it is `1-0`, `0-1`, `1/2-1/2` or `*`.
"""

from __future__ import annotations

import unicodedata

RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "*"})
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


def display_value(text: str) -> str:
    """`text` without control, format (bidi) or separator characters, spaces trimmed."""
    if text.isascii() and text.isprintable():
        return text.strip()
    kept = (char for char in text if unicodedata.category(char) not in HIDDEN_CATEGORIES)
    return "".join(kept).strip()


def display_result(text: str | None, fallback: str = "*") -> str:
    """`text` when it is one of the four results, else `fallback` (itself one, or "*")."""
    if text in RESULTS:
        return str(text)
    return fallback if fallback in RESULTS else "*"


def display_headers(headers: dict[str, str]) -> dict[str, str]:
    """`headers` with every name and value fit to show, and `Result` one of the four."""
    shown = {display_value(name): display_value(value) for name, value in headers.items()}
    if "Result" in shown:
        shown["Result"] = display_result(shown["Result"])
    return shown
