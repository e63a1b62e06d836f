"""What every HTTP response tells the browser about itself, and the address the site is known by.

The pages load their scripts, styles and the front-end packages from this server only, as ES
modules with no inline code, so the Content-Security-Policy can allow `'self'` and nothing
else: an injected `<script>` or `onclick=` does not run, and no other site may frame a page
(clickjacking a "resign" button). Only style attributes may be inline, which chessground
writes. Piece images are `data:` URIs inside chessground's CSS.
The analysis board runs Stockfish compiled to WebAssembly in a Web Worker. Compiling
WebAssembly needs `'wasm-unsafe-eval'`, and a dedicated worker obeys the policy sent with its
own script, so only the engine's scripts under /vendor/stockfish/ carry it: the pages keep a
policy that compiles nothing (they start the worker, which `worker-src 'self'` allows). The
analysis page is also cross-origin isolated (COOP `same-origin`, COEP `credentialless`, as
lichess sends), which gives its worker the SharedArrayBuffer the threaded build needs; it loads
nothing from another site, so the isolation costs it nothing.
`nosniff` stops a browser from guessing a script out of a PGN or JSON reply, and the referrer
never carries a game's address (which may hold a seat token before the redirect) to another
site.

The public address (the PGN's `Site` tag) comes from configuration, never from the request's
`Host` header, which any client can set to whatever it likes.
"""

from __future__ import annotations

import re
import socket
from typing import Any

from flask import request
from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "worker-src 'self'",
        "style-src 'self'",
        # chessground writes a style attribute on its SVG layers (`color-scheme`); attributes
        # cannot load anything or select on the page's data, as a <style> element could.
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        # 'self' covers the same host's ws: and wss: (CSP Level 3).
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# The engine's worker script: the page's policy, and WebAssembly may be compiled.
ENGINE_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)
CROSS_ORIGIN_ISOLATION = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "credentialless",
}
# The engine's files change only with the pinned package's version, and are 1.6-1.8 MB each.
ENGINE_CACHE_SECONDS = 7 * 24 * 3600

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Older browsers that know no frame-ancestors.
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}

# http(s)://host[:port][/path], with nothing a PGN tag or a header could be broken by.
PUBLIC_URL = re.compile(r"https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/\-]*)?")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


# Answers no cache may keep (recovery codes, the account, its games): the account API and the
# account pages.
NO_STORE_PREFIXES = ("/api/account", "/account", "/signup", "/login", "/recover")


def add_security_headers(response: Response) -> Response:
    """Flask `after_request` hook: the headers above on every response; `no-store` on the
    account's answers, and `private` (varying by cookie) on pages, which show who is signed
    in."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith(NO_STORE_PREFIXES):
        response.headers["Cache-Control"] = "no-store"
    elif response.mimetype == "text/html" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "private"
        response.vary.add("Cookie")
    return response


def cross_origin_isolate(response: Response) -> Response:
    """`response` (a page) with the headers that make it cross-origin isolated."""
    response.headers.update(CROSS_ORIGIN_ISOLATION)
    return response


def engine_file_headers(response: Response) -> Response:
    """`response` (a file of the engine under /vendor/stockfish/) allowed to compile
    WebAssembly, usable inside an isolated page, and cached for a week."""
    response.headers["Content-Security-Policy"] = ENGINE_SECURITY_POLICY
    response.headers["Cross-Origin-Embedder-Policy"] = "credentialless"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    response.cache_control.no_cache = None
    response.cache_control.public = True
    response.cache_control.max_age = ENGINE_CACHE_SECONDS
    return response


def check_public_url(url: str) -> str:
    """`url` without a trailing slash, or ValueError naming what is wrong with it."""
    if not PUBLIC_URL.fullmatch(url):
        raise ValueError(f"CHESS_PUBLIC_URL={url[:80]!r}: expected http(s)://host[:port][/path]")
    return url.rstrip("/")


def public_url(config: dict[str, Any]) -> str:
    """The site's address: CHESS_PUBLIC_URL if set, else the address the server listens on
    (the machine's name when it listens on every interface)."""
    configured = config.get("PUBLIC_URL")
    if configured:
        return check_public_url(str(configured))
    host = str(config["HOST"])
    if host in WILDCARD_HOSTS:
        host = socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{config['PORT']}"
