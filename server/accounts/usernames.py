"""Account names: what one may be, and the key that keeps two names that read alike apart.

A username is 3 to 20 characters of ASCII letters, digits, `_` and `-`, as lichess allows: plain
ASCII leaves no room for a letter of another script drawn like a Latin one. It is unique without
regard to case or look-alikes: its `name_key`, stored unique, is the lobby's look-alike
`skeleton` (server.shared.names: case, `_`, 0 as o, 1 and I as l folded away) with `-` folded
away as `_` is, and every other digit read as the letter it is drawn like (2 z, 3 e, 4 a, 5 s, 6
g, 7 t, 8 b, 9 q: `DIGIT_LETTERS`; each digit its own letter, so "opponent_6" and "opponent_8"
stay two names). So "Magnus", "magnus" and "MAGNUS" are one name, and so are "Mag0367",
"Mag0367-", "-Mag0367", "M4g0367" and "Mag_O3G7"; since punctuation is dropped wherever it
stands, a name's leading and trailing `-` and `_` never tell it apart. (Accounts made before
this key stored the bare skeleton: `legacy_name_key` finds them until their keys are written
again.)

Some names are refused outright (`reserved_name`): those that read as the server's own, an
anonymous visitor's ("Anonymous-1234") or a deleted account's ("deleted player"), and the
names of `RESERVED` (staff and roles, the site's name "Chess" and its package's, the computer
opponent, guest and the like), compared by their keys, so "Adm1n" and "r00t" go too.
"""

from __future__ import annotations

import re

from server.shared.errors import N_, RequestError
from server.shared.names import ANONYMOUS_SKELETON, skeleton

MIN_LENGTH = 3
MAX_LENGTH = 20
USERNAME = re.compile(rf"[A-Za-z0-9_-]{{{MIN_LENGTH},{MAX_LENGTH}}}")
# Digits drawn like letters (0 and 1 are folded by the skeleton already).
DIGIT_LETTERS = str.maketrans("23456789", "zeasgtbq")
# What the name of a deleted account shows as, everywhere.
DELETED_NAME = "deleted player"
# Names that would pass for the site, its staff or the server's own players. Compared by key.
RESERVED = (
    "admin", "administrator", "moderator", "mod", "mods", "system", "root", "support", "staff",
    "official", "help", "security", "server", "chess", "chessthreats", "chesscore", "lichess",
    "anonymous", "guest", "visitor", "computer", "stockfish", "engine", "deleted player",
    "null", "undefined",
)  # fmt: skip


def name_key(name: str) -> str:
    """The key two names that read alike share (see the module docstring)."""
    return skeleton(name).replace("-", "").translate(DIGIT_LETTERS)


def legacy_name_key(name: str) -> str:
    """The key accounts made before `name_key` folded `-` and digits were stored under."""
    return skeleton(name)


RESERVED_KEYS = frozenset(name_key(name) for name in RESERVED)


def parse_username(value: object) -> str:
    """`value` as a username, or `bad_name` saying what is wrong with it."""
    if not isinstance(value, str):
        raise RequestError("bad_name", N_("field 'name' must be a string"))
    if not USERNAME.fullmatch(value):
        shown = value[:30]
        raise RequestError(
            "bad_name",
            N_(
                "the name {shown} is not {MIN_LENGTH} to {MAX_LENGTH} letters (A-Z, a-z), digits, "
                "'_' or '-'"
            ),
            shown=repr(shown),
            MIN_LENGTH=MIN_LENGTH,
            MAX_LENGTH=MAX_LENGTH,
        )
    if ANONYMOUS_SKELETON.fullmatch(skeleton(value)) or name_key(value) in RESERVED_KEYS:
        raise RequestError(
            "reserved_name", N_("the name {value} is reserved: choose another"), value=repr(value)
        )
    return value
