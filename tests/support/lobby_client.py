"""A lobby visitor for the tests and bench/lobby.py: a real python-socketio client over a real
WebSocket that records every lobby message the server pushes (seeks added and removed, the
watch list, a private `paired`) and waits for one that matches."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from tests.support.game_client import WAIT_SECONDS, GameClient

LOBBY_MESSAGES = ("seek_added", "seeks_removed", "paired", "lobby_games")


class LobbyClient(GameClient):
    """A `GameClient` (it can join games too) that also records the lobby's messages, as
    (event, payload) pairs in arrival order."""

    def __init__(self, url: str, **options: Any) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []
        self.message_condition = threading.Condition()
        super().__init__(url, **options)
        for event in LOBBY_MESSAGES:
            self.client.on(event, self._recorder(event))

    def _recorder(self, event: str) -> Callable[[dict[str, Any]], None]:
        def record(payload: dict[str, Any]) -> None:
            with self.message_condition:
                self.messages.append((event, payload))
                self.message_condition.notify_all()

        return record

    def enter(self) -> dict[str, Any]:
        reply: dict[str, Any] = self.call("lobby_enter", {})
        assert reply["ok"], reply
        return reply

    def wait_message(
        self, event: str, predicate: Callable[[dict[str, Any]], bool] = lambda _: True
    ) -> dict[str, Any]:
        """The first `event` message (received or coming) whose payload meets `predicate`."""

        def found() -> dict[str, Any] | None:
            return next(
                (data for name, data in self.messages if name == event and predicate(data)), None
            )

        with self.message_condition:
            assert self.message_condition.wait_for(lambda: found() is not None, WAIT_SECONDS), (
                f"no {event} message; got {self.messages[-5:]}"
            )
            result = found()
            assert result is not None
            return result

    def received(self, event: str) -> list[dict[str, Any]]:
        with self.message_condition:
            return [data for name, data in self.messages if name == event]
