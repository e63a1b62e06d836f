"""The session cookie: a random id naming a signed-in session, stored only as its hash.

A session id is 32 random bytes (`secrets`, URL-safe base64, 43 characters); the store keeps
its SHA-256, so a leaked database signs nobody in (a fast hash is enough for 256 random bits).
The cookie `session` is `HttpOnly` (no script reads it), `SameSite=Lax` (another site's
requests carry it only on top-level GET navigation) and `Secure` when the site's public
address (CHESS_PUBLIC_URL) is https. A new id is made at every sign-in (the old one ends), and
signing out, changing the password or deleting the account ends it. A session unused for
`IDLE_SECONDS` ends too; the cookie lasts as long.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from werkzeug.wrappers import Response

COOKIE = "session"
IDLE_SECONDS = 30 * 24 * 3600
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{43}")


def new_session_id() -> str:
    return secrets.token_urlsafe(32)


def hash_session_id(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("ascii")).hexdigest()


def is_session_id(text: str | None) -> bool:
    return text is not None and SESSION_ID.fullmatch(text) is not None


def is_secure(config: dict[str, Any]) -> bool:
    """Whether the cookie is sent over https only: the site's public address is https."""
    return str(config.get("PUBLIC_URL", "")).lower().startswith("https://")


def set_session_cookie(response: Response, session_id: str, secure: bool) -> None:
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=IDLE_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=secure,
        path="/",
    )


def clear_session_cookie(response: Response, secure: bool) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=secure)
