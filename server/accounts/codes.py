"""Recovery codes: shown once at sign-up, each resets the password once.

A code reads `abcd-efgh-jkmn-pqrs`: 16 characters of a 31-letter alphabet without look-alikes
(no 0/o, 1/l/i), 79 bits. Its first group is its public id (`code_id`, stored as it is, so a
recovery verifies one hash, not all of them); the other three groups (59 bits) are the secret,
stored as an Argon2id hash like a password (server.accounts.passwords). `parse_code` accepts
what a person may type back: any case, with or without the dashes, spaces around.
"""

from __future__ import annotations

import re
import secrets

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GROUPS = 4
GROUP = 4
CODES_PER_ACCOUNT = 8
TYPED = re.compile(r"[a-z0-9]{16}")


def new_code() -> str:
    letters = "".join(secrets.choice(ALPHABET) for _ in range(GROUPS * GROUP))
    return "-".join(letters[i : i + GROUP] for i in range(0, GROUPS * GROUP, GROUP))


def new_codes(count: int) -> list[str]:
    """`count` new codes with distinct ids (the id is part of the stored key)."""
    drawn: dict[str, str] = {}
    while len(drawn) < count:
        code = new_code()
        drawn.setdefault(split_code(code)[0], code)
    return list(drawn.values())


def split_code(code: str) -> tuple[str, str]:
    """(code id, secret) of a code in its normal form."""
    return code[:GROUP], code[GROUP + 1 :]


def parse_code(value: object) -> str | None:
    """The code in its normal form, or None when `value` cannot be one."""
    if not isinstance(value, str):
        return None
    letters = value.strip().lower().replace("-", "").replace(" ", "")
    if not TYPED.fullmatch(letters):
        return None
    return "-".join(letters[i : i + GROUP] for i in range(0, GROUPS * GROUP, GROUP))
