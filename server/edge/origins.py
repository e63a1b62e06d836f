"""Cross-site requests: one check, at the edge, for every request that changes state.

A browser adds the session cookie (server.accounts.sessions, `SameSite=Lax`) and the seat
cookies to requests that other sites' pages make, so a request that changes anything must
come from the site's own pages. Every POST, PUT, PATCH and DELETE (the JSON API's, the
accounts', and Socket.IO's long-polling posts) is refused `cross_site` unless its `Origin` is
the site's own (the scheme and host the request was sent to, the origin of CHESS_PUBLIC_URL,
or one of CHESS_ALLOWED_ORIGINS). A request without an `Origin` (scripts, bots, curl: no
browser leaves it out of a POST today) is refused only when its `Sec-Fetch-Site` says another
site sent it. Reading (GET) changes nothing and is left to the pages' own rules; Socket.IO's
WebSocket handshake, a GET, is checked by Engine.IO against the same origins
(server.edge.security).
"""

from __future__ import annotations

import urllib.parse
from typing import Any

from server.edge.security import allowed_origins

CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Sec-Fetch-Site values a browser sends for requests made by another site's page.
FOREIGN_FETCH = frozenset({"cross-site", "same-site"})


def trusted_origins(config: dict[str, Any]) -> frozenset[str]:
    """The origins besides the request's own host that may change state."""
    origins = {
        origin.rstrip("/").lower()
        for origin in allowed_origins(config.get("ALLOWED_ORIGINS")) or []
    }
    if config.get("PUBLIC_URL"):
        parts = urllib.parse.urlsplit(str(config["PUBLIC_URL"]))
        origins.add(f"{parts.scheme}://{parts.netloc}".lower())
    return frozenset(origins)


def is_cross_site(environ: dict[str, Any], trusted: frozenset[str]) -> bool:
    """Whether the request would change state for a page of another site."""
    if str(environ.get("REQUEST_METHOD", "GET")).upper() not in CHANGING_METHODS:
        return False
    origin = environ.get("HTTP_ORIGIN")
    if origin is None:
        return str(environ.get("HTTP_SEC_FETCH_SITE", "")).lower() in FOREIGN_FETCH
    origin = str(origin).strip().lower()
    if origin in trusted:
        return False
    netloc = urllib.parse.urlsplit(origin).netloc
    host = str(environ.get("HTTP_HOST") or "").strip().lower()
    return not (netloc and host and netloc == host)
