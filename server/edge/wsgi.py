"""What every request meets first, Socket.IO's included: the hosts the site answers to, the
cross-site check of state-changing requests (server.edge.origins), and the security
headers on every response.

Flask's `after_request` hook (server.edge.headers) only sees Flask's responses; Engine.IO's
(`/socket.io/`, polling and the WebSocket upgrade) bypass Flask, so this WSGI middleware, the
outermost, puts the same headers on those too. And a request is answered only when its `Host`
names the site: the host of CHESS_PUBLIC_URL, the address the server listens on, the loopback
names when it listens on loopback, and CHESS_ALLOWED_HOSTS. A page served under another name
(DNS rebinding: `evil.example` resolving to this server) would otherwise be same-origin with
the socket it opens, as the Origin check compares the Origin with the Host. A server that
listens on every interface with no public address configured answers any Host: it has no
name to check against (the README says to set CHESS_PUBLIC_URL in production).
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable, Iterable
from typing import Any

from server.edge.headers import SECURITY_HEADERS, WILDCARD_HOSTS
from server.edge.origins import is_cross_site
from server.shared.errors import error_reply

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def host_name(host: str) -> str:
    """The name part of a Host header or netloc (`Example.org:8000` -> `example.org`,
    `[::1]:5000` -> `::1`)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def allowed_hosts(config: dict[str, Any]) -> frozenset[str] | None:
    """The host names the site answers to; None when any (a wildcard address, no public URL)."""
    names = {host_name(name) for name in str(config.get("ALLOWED_HOSTS", "")).split(",")}
    if config.get("PUBLIC_URL"):
        names.add(host_name(urllib.parse.urlsplit(str(config["PUBLIC_URL"])).netloc))
    listening = str(config["HOST"])
    if listening in WILDCARD_HOSTS and not config.get("PUBLIC_URL"):
        return None
    if listening not in WILDCARD_HOSTS:
        names.add(host_name(listening if ":" not in listening else f"[{listening}]"))
    if names & LOOPBACK_NAMES or listening in WILDCARD_HOSTS:
        names |= LOOPBACK_NAMES  # the machine's own tools (health checks, tests) by any name
    names.discard("")
    return frozenset(names)


class Edge:
    """WSGI middleware: refuse a Host the site is not and a state-changing request from
    another site (server.edge.origins), add the security headers."""

    def __init__(
        self,
        wsgi_app: WsgiApp,
        hosts: frozenset[str] | None,
        origins: frozenset[str] = frozenset(),
    ) -> None:
        self.wsgi_app = wsgi_app
        self.hosts = hosts
        self.origins = origins

    def allows(self, environ: dict[str, Any]) -> bool:
        """Whether the request names a host the site answers to."""
        return self.hosts is None or host_name(self._host(environ)) in self.hosts

    @staticmethod
    def _host(environ: dict[str, Any]) -> str:
        return str(environ.get("HTTP_HOST") or environ.get("SERVER_NAME", ""))

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not self.allows(environ):
            return self.refuse(self._host(environ), start_response)
        if is_cross_site(environ, self.origins):
            return self.refuse_cross_site(start_response)

        def with_headers(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            present = {name.lower() for name, _ in headers}
            headers = headers + [
                (name, value) for name, value in SECURITY_HEADERS.items()
                if name.lower() not in present
            ]  # fmt: skip
            return start_response(status, headers, *args)

        return self.wsgi_app(environ, with_headers)

    def refuse(self, host: str, start_response: StartResponse) -> list[bytes]:
        message = f"this server does not answer to the host {host[:60]!r}"
        return self._answer("400 BAD REQUEST", "bad_host", message, start_response)

    def refuse_cross_site(self, start_response: StartResponse) -> list[bytes]:
        message = "a request that changes anything must come from this site's own pages"
        return self._answer("403 FORBIDDEN", "cross_site", message, start_response)

    @staticmethod
    def _answer(status: str, code: str, message: str, start_response: StartResponse) -> list[bytes]:
        body = json.dumps(error_reply(code, message)).encode()
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            *SECURITY_HEADERS.items(),
        ]
        start_response(status, headers)
        return [body]
