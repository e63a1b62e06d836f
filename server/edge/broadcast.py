"""Who is in which room, and how one change reaches the rooms of a game.

One process keeps its rooms in memory (`LocalManager`). Several processes share them through
Redis (`QueueManager`, chosen by `REDIS_URL`): python-socketio publishes every emit on a Redis
channel and every process delivers it to the members it holds. A change of a game goes to three
rooms (white, black, spectators), each with its own state; `emit_each` sends the three as one
message across the queue instead of three, so a move costs one publish and each process reads
one message. Messages cross Redis in `wire.QueueJson`'s format, states as JSON text.

`may_reach(socketio, room)` tells a sender whether anyone may be in a room, so work nobody would
receive (a state for an empty room, the lobby's watch list with nobody in the lobby) is not done:
one process knows its rooms' members; with Redis a member may be in another process, so every
room may have one.

`QueueManager` overrides and calls python-socketio's private `_handle_emit` and `_publish` and
writes its emit message by hand: not public API. tests/test_broadcast.py fails when an upgrade
of python-socketio changes them; keep this module only with that test, and review it then.
"""

from __future__ import annotations

from typing import Any

from socketio import Manager, RedisManager

from server.edge.wire import QueueJson

CHANNEL = "flask-socketio"


class LocalManager(Manager):  # type: ignore[misc]
    """The rooms of a single process."""

    def emit_each(self, event: str, deliveries: list[tuple[Any, str]]) -> None:
        """Emit `event` to each room with its own data: (data, room) pairs."""
        for data, room in deliveries:
            self.emit(event, data, namespace="/", room=room)

    def may_reach(self, room: str) -> bool:
        """Whether `room` has a member: this process holds every one (python-socketio deletes a
        room when its last member leaves)."""
        return bool(self.rooms.get("/", {}).get(room))


class QueueManager(RedisManager):  # type: ignore[misc]
    """The rooms of every process sharing a Redis server."""

    def set_server(self, server: Any) -> None:
        # python-socketio hands every manager the packets' json here, whatever it was given.
        super().set_server(server)
        self.json = QueueJson

    def emit_each(self, event: str, deliveries: list[tuple[Any, str]]) -> None:
        """Emit `event` to each room with its own data: (data, room) pairs, delivered here and
        published as one message (its `rooms` beside its `data`, one argument per room)."""
        message = {
            "method": "emit",
            "event": event,
            "data": [data for data, _ in deliveries],
            "rooms": [room for _, room in deliveries],
            "binary": False,
            "namespace": "/",
            "room": None,
            "skip_sid": None,
            "callback": None,
            "host_id": self.host_id,
        }
        self._handle_emit(message)
        self._publish(message)

    def may_reach(self, room: str) -> bool:
        """Always: the members of a room in other processes are not known here."""
        return True

    def _handle_emit(self, message: dict[str, Any]) -> None:
        rooms = message.get("rooms")
        if rooms is None:
            super()._handle_emit(message)
            return
        for room, data in zip(rooms, message["data"], strict=True):
            super()._handle_emit({**message, "room": room, "data": [data]})


def make_client_manager(redis_url: str) -> LocalManager | QueueManager:
    return QueueManager(redis_url, channel=CHANNEL) if redis_url else LocalManager()


def emit_each(socketio: Any, event: str, deliveries: list[tuple[Any, str]]) -> None:
    """Emit `event` to each room of `deliveries` ((data, room) pairs) through `socketio`'s
    manager, which `make_client_manager` made."""
    manager: LocalManager | QueueManager = socketio.server.manager
    manager.emit_each(event, deliveries)


def may_reach(socketio: Any, room: str) -> bool:
    """Whether an emit to `room` through `socketio` may reach anyone (see the docstring)."""
    manager: LocalManager | QueueManager = socketio.server.manager
    return manager.may_reach(room)
