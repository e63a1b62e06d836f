"""Tokens: secrets that say who holds a seat, a session or a device, stored only as hashes.

A token is 32 random bytes from `secrets` (256 bits) in URL-safe base64, 43 characters. Only a
token's SHA-256 hash is stored, so a leaked database holds no usable secret; `hashes_match`
compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

TOKEN_BYTES = 32
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def is_token(text: str) -> bool:
    return TOKEN_PATTERN.fullmatch(text) is not None


def hashes_match(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a token against a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
