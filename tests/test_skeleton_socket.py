"""The skeleton's Socket.IO round trip against the real server process on 127.0.0.1: a client
connects over a real WebSocket, sends an event and gets its acknowledgement. (The server no
longer pushes a `position` on connect: no page listened to it, issue 16.)"""

from __future__ import annotations

import socketio

from tests.support.live_server import LiveServer

UNKNOWN_GAME = "AAAAAAAAAAAA"


def test_a_client_connects_over_websocket_and_is_answered(live_server: LiveServer) -> None:
    pushed: list[tuple[str, object]] = []
    client = socketio.Client(reconnection=False)
    client.on("*", lambda event, *data: pushed.append((event, data)))
    client.connect(live_server.url, transports=["websocket"], wait_timeout=10)
    try:
        assert client.transport() == "websocket"
        reply = client.call("join", {"game": UNKNOWN_GAME}, timeout=10)
        assert reply["ok"] is False and reply["code"] == "not_found"
        assert pushed == []  # nothing is pushed to a connection that joined no game
    finally:
        client.disconnect()
