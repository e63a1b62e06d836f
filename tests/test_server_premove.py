"""Premoves on the server (the `premove` event): one queued move per seat, played by the server
the moment it becomes that seat's turn if it is legal then, dropped with a `premove` notice to
the seat if not; cancelled by `premove` with null. Real server, real Socket.IO clients.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.support.game_client import WAIT_SECONDS, FriendGame, GameClient, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("premove", env={"CHESS_COMPUTER_DELAY": "0.3"})


class Notices:
    """The `premove` notices one client received."""

    def __init__(self, client: GameClient) -> None:
        self.received: list[dict[str, Any]] = []
        self.arrived = threading.Event()
        client.client.on("premove", self._record)

    def _record(self, payload: dict[str, Any]) -> None:
        self.received.append(payload)
        self.arrived.set()

    def wait(self) -> dict[str, Any]:
        assert self.arrived.wait(WAIT_SECONDS), "no premove notice"
        return self.received[0]


def premove(client: GameClient, game: str, move: str | None) -> dict[str, Any]:
    return dict(client.call("premove", {"game": game, "move": move}))


def test_premove_is_played_on_the_opponents_move(server: LiveServer) -> None:
    game = FriendGame(server.url)
    try:
        game.play("e2e4")
        assert premove(game.white, game.id, "g1f3") == {"ok": True, "played": False}
        reply = game.black.move(game.id, 1, "e7e5")
        assert reply["ok"], reply
        state = game.black.wait_for(lambda s: s["ply"] == 3)
        assert [m["uci"] for m in state["moves"]] == ["e2e4", "e7e5", "g1f3"]
        assert state["turn"] == "black"
    finally:
        game.close()


def test_premove_is_played_on_the_computers_move(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="black", level=1)
    client = GameClient(server.url)
    try:
        client.join(created["game"], seat=created["seat"])
        # White (the computer) thinks first: the premove waits for its move.
        assert premove(client, created["game"], "e7e6")["ok"]
        state = client.wait_for(lambda s: s["ply"] >= 2)
        assert state["moves"][1]["uci"] == "e7e6"
    finally:
        client.close()


def test_illegal_premove_is_dropped_with_a_notice(server: LiveServer) -> None:
    game = FriendGame(server.url)
    notices = Notices(game.white)
    try:
        game.play("e2e4")
        # Legal-looking now; once black plays e5, the e-pawn is blocked.
        assert premove(game.white, game.id, "e4e5")["ok"]
        assert game.black.move(game.id, 1, "e7e5")["ok"]
        notice = notices.wait()
        assert notice["game"] == game.id and notice["move"] is None
        assert notice["dropped"] == "e4e5"
        assert "e4e5 is not legal here" in notice["reason"]
        assert "/" not in notice["reason"]  # no FEN in a player's words
        state = game.white.wait_version(game.black.states[-1]["version"])
        assert state["ply"] == 2 and state["turn"] == "white"
    finally:
        game.close()


def test_cancelled_premove_is_not_played(server: LiveServer) -> None:
    game = FriendGame(server.url)
    try:
        game.play("e2e4")
        assert premove(game.white, game.id, "g1f3")["ok"]
        assert premove(game.white, game.id, None) == {"ok": True, "played": False}
        reply = game.black.move(game.id, 1, "e7e5")
        state = game.white.wait_version(reply["version"])
        assert state["ply"] == 2 and state["turn"] == "white"
    finally:
        game.close()


def test_premove_replaces_the_earlier_one(server: LiveServer) -> None:
    game = FriendGame(server.url)
    try:
        game.play("e2e4")
        assert premove(game.white, game.id, "g1f3")["ok"]
        assert premove(game.white, game.id, "b1c3")["ok"]
        game.black.move(game.id, 1, "e7e5")
        state = game.black.wait_for(lambda s: s["ply"] == 3)
        assert state["moves"][2]["uci"] == "b1c3"
    finally:
        game.close()


def test_premove_on_ones_own_turn_is_played_at_once(server: LiveServer) -> None:
    game = FriendGame(server.url)
    try:
        reply = premove(game.white, game.id, "e2e4")
        assert reply["ok"] and reply["played"] and reply["ply"] == 1
        reply = premove(game.black, game.id, "e7e4")
        assert reply["ok"] is False and reply["code"] == "illegal_move"
    finally:
        game.close()


def test_premove_to_the_last_rank_promotes_to_a_queen(server: LiveServer) -> None:
    game = FriendGame(server.url, fen="4k3/1P6/8/8/8/8/7r/4K3 b - - 0 1")
    try:
        assert premove(game.white, game.id, "b7b8")["ok"]
        game.black.move(game.id, 0, "h2h3")
        state = game.white.wait_for(lambda s: s["ply"] == 2)
        assert state["moves"][1]["uci"] == "b7b8q"
    finally:
        game.close()


def test_only_the_seats_own_premove(server: LiveServer) -> None:
    game = FriendGame(server.url)
    spectator = GameClient(server.url)
    try:
        spectator.join(game.id)
        reply = premove(spectator, game.id, "e2e4")
        assert reply["ok"] is False and reply["code"] == "forbidden"
        # Black's premove is black's: white's piece cannot be premoved by black.
        assert premove(game.black, game.id, "d2d4")["ok"]
        game.play("e2e4")
        state = game.white.wait_version(game.version)
        assert state["ply"] == 1 and state["turn"] == "black"
    finally:
        spectator.close()
        game.close()


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"move": "e2e4"}, "missing field(s) 'game'"),
        ({"game": None, "move": "e2"}, "field 'move'"),
        ({"game": None, "move": 7}, "field 'move'"),
        ({"game": None}, "missing field(s) 'move'"),
        ({"game": None, "move": "e2e4", "uci": "e2e4"}, "unknown field(s) 'uci'"),
    ],
)
def test_bad_premoves_are_refused(server: LiveServer, fields: dict[str, Any], words: str) -> None:
    game = FriendGame(server.url)
    try:
        body = {key: game.id if key == "game" else value for key, value in fields.items()}
        reply = game.white.call("premove", body)
        assert reply["ok"] is False and reply["code"] == "bad_request", reply
        assert words in reply["error"], reply
    finally:
        game.close()


def test_premove_after_the_game_ended_is_refused(server: LiveServer) -> None:
    game = FriendGame(server.url)
    try:
        assert game.white.call("resign", {"game": game.id})["ok"]
        reply = premove(game.black, game.id, "e7e5")
        assert reply["ok"] is False and reply["code"] == "game_over"
    finally:
        game.close()
