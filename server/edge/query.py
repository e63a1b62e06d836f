"""Numbers in URLs (query parameters and path parts), parsed strictly at the edge.

`str.isdigit` and `int` accept far more than ASCII digits (`int("٣")` is 3), and `int` of a
5,000-digit string raises a `ValueError` of its own (Python caps int-from-text conversion),
which became a 500. A number in a URL here is at most `MAX_DIGITS` ASCII digits, with a
leading `-` only where the caller allows negatives; anything else is a `bad_request` naming
the parameter and quoting the value, shortened.
"""

from __future__ import annotations

import re

from server.shared.errors import RequestError

MAX_DIGITS = 10
_NUMBER = re.compile(rf"(-?)([0-9]{{1,{MAX_DIGITS}}})")


def parse_query_int(name: str, text: str, *, negative: bool = False) -> int:
    """The integer `text` spells, for the URL parameter `name`; `negative` allows a minus."""
    match = _NUMBER.fullmatch(text)
    if match is None or (match.group(1) and not negative):
        kind = "an integer" if negative else "a non-negative integer"
        raise RequestError(
            "bad_request",
            f"parameter {name!r} must be {kind} of at most {MAX_DIGITS} digits 0-9,"
            f" got {text[:20]!r}",
        )
    return int(text)
