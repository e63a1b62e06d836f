"""Account names: what one may be, and the key that keeps two names that read alike apart.

A username is 3 to 20 characters of ASCII letters, digits, `_` and `-`, as lichess allows:
plain ASCII leaves no room for a letter of another script drawn like a Latin one. It is
unique without regard to case or look-alikes: its `name_key` is the lobby's look-alike
`skeleton` (server.shared.names: case, `_`, and digits drawn like letters, 0 as o and 1 as l,
folded away), stored unique, so "Magnus", "magnus" and "MAGNUS" are one name, and so are
"Pl4yer_1" and "pl4yerl". Names that read as an anonymous visitor's ("Anonymous-1234") or as
a deleted account ("deleted player") are refused: those are the server's own.
"""

from __future__ import annotations

import re

from server.shared.errors import RequestError
from server.shared.names import ANONYMOUS_SKELETON, skeleton

MIN_LENGTH = 3
MAX_LENGTH = 20
USERNAME = re.compile(rf"[A-Za-z0-9_-]{{{MIN_LENGTH},{MAX_LENGTH}}}")
RESERVED_SKELETONS = frozenset({skeleton("deleted-player"), skeleton("deletedplayer")})
# What the name of a deleted account shows as, everywhere.
DELETED_NAME = "deleted player"


def name_key(name: str) -> str:
    """The key two names that read alike share (see the module docstring)."""
    return skeleton(name)


def parse_username(value: object) -> str:
    """`value` as a username, or `bad_name` saying what is wrong with it."""
    if not isinstance(value, str):
        raise RequestError("bad_name", "field 'name' must be a string")
    if not USERNAME.fullmatch(value):
        shown = value[:30]
        raise RequestError(
            "bad_name",
            f"the name {shown!r} is not {MIN_LENGTH} to {MAX_LENGTH} letters (A-Z, a-z), "
            "digits, '_' or '-'",
        )
    key = name_key(value)
    if ANONYMOUS_SKELETON.fullmatch(key) or key in RESERVED_SKELETONS:
        raise RequestError("bad_name", f"the name {value!r} reads like one the server gives")
    return value
