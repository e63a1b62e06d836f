"""Clients for the server's game protocol, used by the tests/test_server_* suites.

`GameClient` is a real python-socketio client over a real WebSocket (or long-polling, with
`transports=("polling",)`) that records every `state` and `rematch` the server pushes and waits
for one that matches. `create_game` and `start_friend_game` use the HTTP API exactly as a
script would. Waiting has a generous timeout only so a broken server fails the test instead
of hanging it; nothing here measures speed.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import requests
import socketio

WAIT_SECONDS = 60.0


class GameClient:
    """One Socket.IO connection; `states` holds every pushed state in arrival order."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str] | None = None,
        transports: tuple[str, ...] = ("websocket",),
    ) -> None:
        self.url = url
        self.states: list[dict[str, Any]] = []
        self.rematches: list[dict[str, Any]] = []
        self.condition = threading.Condition()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self._record_state)
        self.client.on("rematch", self._record_rematch)
        self.disconnected = threading.Event()
        self.client.on("disconnect", lambda *reason: self.disconnected.set())
        self.client.connect(
            url, transports=list(transports), wait_timeout=WAIT_SECONDS, headers=headers or {}
        )

    def _record_state(self, state: dict[str, Any]) -> None:
        with self.condition:
            self.states.append(state)
            self.condition.notify_all()

    def _record_rematch(self, payload: dict[str, Any]) -> None:
        with self.condition:
            self.rematches.append(payload)
            self.condition.notify_all()

    def call(self, event: str, *args: Any) -> Any:
        """Send `event` with `args` (each one Socket.IO argument) and return the ack."""
        data: Any = args[0] if len(args) == 1 else (args if args else None)
        return self.client.call(event, data, timeout=WAIT_SECONDS)

    def join(self, game: str, **fields: Any) -> dict[str, Any]:
        reply = self.call("join", {"game": game, **fields})
        assert reply["ok"], reply
        self._record_state(reply["state"])  # the state the join answered with counts as seen
        return reply

    def move(self, game: str, ply: int, uci: str) -> dict[str, Any]:
        return self.call("move", {"game": game, "ply": ply, "uci": uci})

    def wait_for(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first pushed state (already received or coming) that satisfies `predicate`."""
        with self.condition:
            found = self.condition.wait_for(
                lambda: any(predicate(state) for state in self.states), WAIT_SECONDS
            )
            assert found, f"no matching state; last: {self.states[-1:]}"
            return next(state for state in self.states if predicate(state))

    def wait_version(self, version: int) -> dict[str, Any]:
        return self.wait_for(lambda state: state["version"] >= version)

    def wait_rematch(self) -> dict[str, Any]:
        with self.condition:
            assert self.condition.wait_for(lambda: bool(self.rematches), WAIT_SECONDS)
            return self.rematches[0]

    @property
    def connected(self) -> bool:
        return bool(self.client.connected)

    def close(self) -> None:
        if not self.client.connected:
            return
        websocket = self.client.eio.ws
        if websocket is not None and self.client.eio.current_transport == "websocket":
            # The development server never answers the WebSocket close frame, and
            # websocket-client waits 3 s for that answer; the test does not need to.
            websocket.close = functools.partial(websocket.close, timeout=0.05)
        self.client.disconnect()


def create_game(url: str, **payload: Any) -> dict[str, Any]:
    response = requests.post(url + "/api/games", json=payload, timeout=WAIT_SECONDS)
    assert response.status_code == 201, response.text
    return dict(response.json())


def api_state(url: str, game: str, seat: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {seat}"} if seat else {}
    response = requests.get(f"{url}/api/games/{game}", headers=headers, timeout=WAIT_SECONDS)
    assert response.status_code == 200, response.text
    return dict(response.json()["state"])


def invite_token(created: dict[str, Any]) -> str:
    return str(created["links"]["invite"].split("invite=", 1)[1])


def api_join(url: str, created: dict[str, Any]) -> str:
    """Take the other seat of the game `create_game` returned, by its invitation; its token."""
    response = requests.post(
        f"{url}/api/games/{created['game']}/join",
        json={"invite": invite_token(created)},
        timeout=WAIT_SECONDS,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["seat"])


def api_move(url: str, game: str, seat: str, ply: int, uci: str) -> dict[str, Any]:
    """Play `uci` at `ply` over HTTP as the holder of `seat`; the reply must be 200."""
    response = requests.post(
        f"{url}/api/games/{game}/moves",
        json={"ply": ply, "uci": uci},
        headers={"Authorization": f"Bearer {seat}"},
        timeout=WAIT_SECONDS,
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


class FriendGame:
    """A game against a friend with white and black connected and seated."""

    def __init__(
        self, url: str, transports: tuple[str, ...] = ("websocket",), **options: Any
    ) -> None:
        self.url = url
        self.created = create_game(url, opponent="friend", color="white", **options)
        self.id: str = self.created["game"]
        self.white = GameClient(url, transports=transports)
        self.white.join(self.id, seat=self.created["seat"])
        self.black = GameClient(url, transports=transports)
        reply = self.black.join(self.id, invite=invite_token(self.created))
        assert reply["role"] == "black", reply
        self.black_seat: str = reply["seat"]
        self.white_seat: str = self.created["seat"]
        self.ply = self.created["state"]["ply"]
        self.version = reply["state"]["version"]

    def player(self, turn: str) -> GameClient:
        return self.white if turn == "white" else self.black

    def play(self, *ucis: str) -> dict[str, Any]:
        """Play `ucis` in turn, each acknowledged; returns the last state both have seen."""
        state = self.white.wait_version(self.version)
        for uci in ucis:
            reply = self.player(state["turn"]).move(self.id, state["ply"], uci)
            assert reply["ok"], (uci, reply)
            self.version = reply["version"]
            state = self.white.wait_version(self.version)
            self.black.wait_version(self.version)
        return state

    def close(self) -> None:
        self.white.close()
        self.black.close()
