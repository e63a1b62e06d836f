"""Recovery codes: shown once at sign-up, each resets the password once.

A code reads `abcd-efgh-jkmn-pqrs`: 16 characters of a 31-letter alphabet without look-alikes
(no 0/o, 1/l/i), 79 bits. Its first group is its public id (`code_id`, stored as it is, so a
recovery verifies one hash, not all of them); the other three groups (59 bits) are the secret.
`parse_code` accepts what a person may type back: any case, with or without the dashes,
spaces around.

A secret drawn at random with 59 bits needs no slow hash (Argon2 is for what people choose,
and eight of them made a sign-up cost nine hashes): `CodeHasher` stores HMAC-SHA256 of the
whole code, keyed with a key derived from the app's secret key (server.edge.security), as
`hmac-sha256$<hex>` in the same column. Without the key a stolen table gives nothing to
guess against; with it, 2^59 tries remain. Codes of accounts made before are Argon2id hashes
(`$argon2id$...`) and still verify, through the password lane (server.accounts.passwords).
Changing the secret key makes the keyed codes unusable: it is kept in the instance folder.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from server.accounts import passwords

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
GROUPS = 4
GROUP = 4
CODES_PER_ACCOUNT = 8
TYPED = re.compile(r"[a-z0-9]{16}")
KEYED = "hmac-sha256$"
# What the app's secret key is turned into before it keys a code's hash, so the key itself
# keys nothing but what it was made for.
KEY_PURPOSE = b"chess recovery codes v1"


class CodeHasher:
    """Hashes and verifies recovery codes with a key derived from `secret_key`."""

    def __init__(self, secret_key: str | bytes) -> None:
        secret = secret_key.encode() if isinstance(secret_key, str) else secret_key
        self.key = hmac.new(secret, KEY_PURPOSE, hashlib.sha256).digest()

    def hash(self, code: str) -> str:
        """The stored form of `code` (in its normal form)."""
        return KEYED + hmac.new(self.key, code.encode(), hashlib.sha256).hexdigest()

    def verify(self, stored: str | None, code: str) -> bool:
        """Whether `code` is the one `stored` holds: a keyed hash, or an older account's
        Argon2id hash of the code's secret part."""
        if stored is None:
            return False
        if stored.startswith(KEYED):
            return hmac.compare_digest(stored, self.hash(code))
        return passwords.verify_password(stored, split_code(code)[1])


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
