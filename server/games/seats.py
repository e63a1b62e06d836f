"""Seat and invitation tokens: secrets that say who may play which colour.

A token is 32 random bytes from `secrets` (256 bits) in URL-safe base64, 43 characters. Only a
token's SHA-256 hash is stored, so a leaked database holds no usable seat. Tokens reach their
holders in replies and in an HttpOnly cookie per game, `seat_<game id>`; `cookie_name` is the
one place that name is made.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

TOKEN_BYTES = 32
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")
GAME_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{12}")
COOKIE_MAX_AGE = 30 * 24 * 3600


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    # 9 bytes -> 12 characters: unguessable enough that ids cannot be enumerated.
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def is_token(text: str) -> bool:
    return TOKEN_PATTERN.fullmatch(text) is not None


def is_game_id(text: str) -> bool:
    return GAME_ID_PATTERN.fullmatch(text) is not None


def hashes_match(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a token against a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def cookie_name(game_id: str) -> str:
    return f"seat_{game_id}"
