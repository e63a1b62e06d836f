"""The client address of the request being served, HTTP or a Socket.IO event alike.

Per-address limits (server.shared.buckets) key a visitor by it (server.edge.ratelimit):
the peer's address, or behind `CHESS_TRUSTED_PROXIES` proxies the one the outermost trusted
proxy saw. A Socket.IO event is served in the request context of its connection's handshake,
so the same headers answer there.
"""

from __future__ import annotations

from flask import current_app, request

from server.edge.ratelimit import client_address


def request_client() -> str:
    """The key of the client making the current request."""
    return client_address(
        request.remote_addr,
        request.headers.get("X-Forwarded-For"),
        int(current_app.config["TRUSTED_PROXIES"]),
    )
