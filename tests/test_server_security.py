"""Transport safety: same-origin Socket.IO, the secret key, and the configured limits."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import websocket

from server import create_app
from server.edge.security import MAX_PAYLOAD_BYTES, allowed_origins, load_secret_key
from tests.support.in_process import IN_PROCESS
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server


server = module_server("security")


def open_websocket(server: LiveServer, origin: str) -> websocket.WebSocket:
    url = f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket"
    return websocket.create_connection(url, origin=origin, timeout=10)


def test_a_foreign_origin_cannot_open_a_socket(server: LiveServer) -> None:
    # gevent-websocket completes the WebSocket handshake before the app sees the request, so
    # the refusal is the connection closed before any Engine.IO packet; in threading mode it
    # is the handshake answered 400. Either way no session opens.
    try:
        ws = open_websocket(server, "http://evil.example")
    except websocket.WebSocketBadStatusException as refused:
        assert refused.status_code == 400
        return
    try:
        assert not ws.recv().startswith("0{")  # '' : the server closed the connection
        with pytest.raises(websocket.WebSocketConnectionClosedException):
            ws.recv()
    finally:
        ws.close(timeout=0.2)


def test_the_servers_own_origin_can(server: LiveServer) -> None:
    ws = open_websocket(server, server.url)
    try:
        assert ws.recv().startswith("0{")  # the Engine.IO open packet
    finally:
        ws.close(timeout=0.2)


def test_a_wildcard_origin_is_refused() -> None:
    with pytest.raises(ValueError, match=r"\*"):
        allowed_origins("https://chess.example, *")
    assert allowed_origins("") is None
    assert allowed_origins("https://a.example, https://b.example") == [
        "https://a.example",
        "https://b.example",
    ]


def test_the_instance_secret_key_is_private_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CHESS_SECRET_KEY", raising=False)
    first = create_app(IN_PROCESS | {"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"]
    second = create_app(IN_PROCESS | {"INSTANCE_PATH": str(tmp_path)}).config["SECRET_KEY"]
    assert first == second and len(first) == 64
    mode = stat.S_IMODE(os.stat(tmp_path / "secret_key").st_mode)
    assert mode == 0o600
    monkeypatch.setenv("CHESS_SECRET_KEY", "from-the-environment")
    assert load_secret_key(str(tmp_path)) == "from-the-environment"


def test_limits_are_a_few_kilobytes(tmp_path: Path) -> None:
    app = create_app(IN_PROCESS | {"INSTANCE_PATH": str(tmp_path)})
    assert app.config["MAX_CONTENT_LENGTH"] == 4096
    assert MAX_PAYLOAD_BYTES == 16384
    from server import socketio as bound

    assert bound.server.eio.max_http_buffer_size == MAX_PAYLOAD_BYTES
    assert bound.server.eio.cors_allowed_origins is None  # the server's own origin only
