"""Socket.IO handlers.

The skeleton's one round trip: a browser connects and the server sends it the position.
"""

from __future__ import annotations

from flask_socketio import SocketIO, emit

from chesscore import Board


def register(socketio: SocketIO) -> None:
    """Attach the handlers to `socketio` (called once per app by the factory)."""

    @socketio.on("connect")
    def on_connect() -> None:
        emit("position", {"fen": Board().fen()})
