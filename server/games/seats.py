"""Seats and game ids: who may play which colour of which game.

A seat is held by a token (server.shared.tokens: random, stored hashed). Tokens reach their
holders in replies and in an HttpOnly cookie per game, `seat_<game id>`; `cookie_name` is the
one place that name is made. Game ids are 9 random bytes, 12 characters: unguessable enough
that ids cannot be enumerated.
"""

from __future__ import annotations

import re
import secrets

GAME_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{12}")
COOKIE_MAX_AGE = 30 * 24 * 3600


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def is_game_id(text: str) -> bool:
    return GAME_ID_PATTERN.fullmatch(text) is not None


def cookie_name(game_id: str) -> str:
    return f"seat_{game_id}"
