"""The skeleton's Socket.IO round trip against the real server process on 127.0.0.1."""

from __future__ import annotations

import queue

import socketio

from tests.support.live_server import LiveServer

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_server_sends_the_position_on_connect(live_server: LiveServer) -> None:
    received: queue.Queue[dict[str, str]] = queue.Queue()
    client = socketio.Client(reconnection=False)
    client.on("position", received.put)
    client.connect(live_server.url, transports=["websocket"], wait_timeout=10)
    try:
        assert client.transport() == "websocket"
        assert received.get(timeout=10) == {"fen": START_FEN}
    finally:
        client.disconnect()
