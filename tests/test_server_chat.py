"""Quick phrases in a game against a real server over real Socket.IO clients (server.chat):
the players' chat and the spectators' apart, a phrase carried by its key, the recent lines
given to a page that opens the chat later (the last 30, after a restart too, a deleted
account's under "deleted player"), a phrase not offered refused, the chat of a game not
joined refused, and a speaker saying too much limited."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from server.chat.phrases import PHRASES
from server.chat.service import BURST
from server.chat.tables import KEPT
from tests.support.game_client import WAIT_SECONDS, FriendGame, GameClient
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("chat", {"CHESS_TRUSTED_PROXIES": "1"})


class ChatReader:
    """Records the `chat` lines a client receives."""

    def __init__(self, client: GameClient) -> None:
        self.client = client
        self.lines: list[dict[str, Any]] = []
        self.condition = threading.Condition()
        client.client.on("chat", self._record)

    def _record(self, line: dict[str, Any]) -> None:
        with self.condition:
            self.lines.append(line)
            self.condition.notify_all()

    def wait_lines(self, count: int) -> list[dict[str, Any]]:
        with self.condition:
            assert self.condition.wait_for(lambda: len(self.lines) >= count, WAIT_SECONDS)
            return list(self.lines)


def spectator(url: str, game: str, address: str, **headers: str) -> GameClient:
    client = GameClient(url, headers={"X-Forwarded-For": address, **headers})
    assert client.join(game)["role"] == "spectator"
    return client


@pytest.fixture
def game(server: LiveServer) -> Iterator[FriendGame]:
    played = FriendGame(server.url)
    yield played
    played.close()


def test_players_and_spectators_chat_apart(server: LiveServer, game: FriendGame) -> None:
    watcher = spectator(server.url, game.id, "10.9.0.1")
    other = spectator(server.url, game.id, "10.9.0.2")
    try:
        readers = {
            name: ChatReader(client)
            for name, client in (
                ("white", game.white), ("black", game.black), ("watcher", watcher), ("other", other)
            )
        }  # fmt: skip
        for client in (game.white, game.black, watcher, other):
            joined = client.call("chat_join", {"game": game.id})
            assert joined["ok"] and joined["lines"] == [], joined
        assert game.white.call("chat_join", {"game": game.id})["audience"] == "players"
        assert watcher.call("chat_join", {"game": game.id})["audience"] == "spectators"

        assert game.white.call("chat_say", {"game": game.id, "phrase": "good_luck"}) == {"ok": True}
        assert readers["black"].wait_lines(1) == [
            {"phrase": "good_luck", "by": "white", "name": None}
        ]
        assert readers["white"].wait_lines(1)[0]["phrase"] == "good_luck"  # the sayer sees it too
        assert watcher.call("chat_say", {"game": game.id, "phrase": "hello"}) == {"ok": True}
        assert readers["other"].wait_lines(1) == [
            {"phrase": "hello", "by": "spectator", "name": None}
        ]
        assert game.black.call("chat_say", {"game": game.id, "phrase": "you_too"})["ok"]
        assert [line["phrase"] for line in readers["white"].wait_lines(2)] == [
            "good_luck",
            "you_too",
        ]
        # The spectators heard none of the players' lines, the players none of theirs.
        assert [line["phrase"] for line in readers["watcher"].wait_lines(1)] == ["hello"]
        assert [line["phrase"] for line in readers["other"].lines] == ["hello"]
        assert all(line["by"] != "spectator" for line in readers["black"].lines)

        # A page opening the chat later (a reload) gets the recent lines of its own chat.
        again = GameClient(server.url)
        try:
            again.join(game.id, seat=game.black_seat)
            lines = again.call("chat_join", {"game": game.id})["lines"]
            assert [line["phrase"] for line in lines] == ["good_luck", "you_too"]
        finally:
            again.close()
    finally:
        watcher.close()
        other.close()


@pytest.mark.parametrize(
    "payload",
    [
        {"phrase": "You are bad"},
        {"phrase": "Hello"},  # the key, never the text
        {"phrase": "hello", "text": "hi"},
        {},
    ],
)
def test_a_phrase_not_offered_is_refused(game: FriendGame, payload: dict[str, Any]) -> None:
    reply = game.white.call("chat_say", {"game": game.id, **payload})
    assert reply["ok"] is False and reply["code"] == "bad_request", reply
    assert game.white.call("chat_say", {"phrase": "hello"})["code"] == "bad_request"  # no game


def test_the_chat_of_a_game_not_joined_is_refused(server: LiveServer, game: FriendGame) -> None:
    stranger = GameClient(server.url)
    try:
        for event, payload in (
            ("chat_join", {"game": game.id}),
            ("chat_say", {"game": game.id, "phrase": "hello"}),
        ):
            reply = stranger.call(event, payload)
            assert reply["ok"] is False and reply["code"] == "not_found", reply
    finally:
        stranger.close()


def test_a_speaker_saying_too_much_is_limited(server: LiveServer, game: FriendGame) -> None:
    reader = ChatReader(game.black)
    game.black.call("chat_join", {"game": game.id})
    replies = [
        game.white.call("chat_say", {"game": game.id, "phrase": "hello"}) for _ in range(BURST + 1)
    ]
    assert all(reply["ok"] for reply in replies[:BURST])
    assert replies[BURST]["code"] == "rate_limited", replies[BURST]
    assert len(reader.wait_lines(BURST)) == BURST
    # The other player is a speaker of its own.
    assert game.black.call("chat_say", {"game": game.id, "phrase": "bye"})["ok"]


def test_a_chat_keeps_its_last_lines_in_order(server: LiveServer, game: FriendGame) -> None:
    said = []
    for number in range(KEPT // BURST + 1):  # each spectator a speaker of its own
        watcher = spectator(server.url, game.id, f"10.9.1.{number}")
        try:
            watcher.call("chat_join", {"game": game.id})
            for phrase in list(PHRASES)[:BURST]:
                assert watcher.call("chat_say", {"game": game.id, "phrase": phrase})["ok"]
                said.append(phrase)
        finally:
            watcher.close()
    assert len(said) > KEPT
    late = spectator(server.url, game.id, "10.9.2.1")
    try:
        lines = late.call("chat_join", {"game": game.id})["lines"]
    finally:
        late.close()
    assert [line["phrase"] for line in lines] == said[-KEPT:]
    assert game.white.call("chat_join", {"game": game.id})["lines"] == []  # the players' apart


def test_a_deleted_accounts_lines_say_deleted_player(server: LiveServer, game: FriendGame) -> None:
    http = requests.Session()
    http.headers["X-Forwarded-For"] = "10.9.3.1"
    name, password = f"p{secrets.token_hex(6)}", "correct horse battery"
    signed_up = http.post(
        server.url + "/api/account/signup",
        json={"name": name, "password": password},
        timeout=WAIT_SECONDS,
    )
    assert signed_up.status_code == 201, signed_up.text
    cookie = f"session={http.cookies['session']}"
    watcher = spectator(server.url, game.id, "10.9.3.1", Cookie=cookie)
    try:
        watcher.call("chat_join", {"game": game.id})
        assert watcher.call("chat_say", {"game": game.id, "phrase": "well_played"})["ok"]
    finally:
        watcher.close()
    late = spectator(server.url, game.id, "10.9.3.2")
    try:
        lines = late.call("chat_join", {"game": game.id})["lines"]
        assert lines == [{"phrase": "well_played", "by": "spectator", "name": name}]
        deleted = http.post(
            server.url + "/api/account/delete", json={"password": password}, timeout=WAIT_SECONDS
        )
        assert deleted.status_code == 200, deleted.text
        lines = late.call("chat_join", {"game": game.id})["lines"]
        assert lines == [{"phrase": "well_played", "by": "spectator", "name": "deleted player"}]
    finally:
        late.close()


def test_the_recent_lines_outlive_a_restart(tmp_path: Path) -> None:
    live = LiveServer(instance_path=tmp_path / "instance").start()
    try:
        played = FriendGame(live.url)
        played.white.call("chat_join", {"game": played.id})
        assert played.white.call("chat_say", {"game": played.id, "phrase": "good_game"})["ok"]
        played.close()
        live.stop()
        live.start()
        again = GameClient(live.url)
        try:
            again.join(played.id, seat=played.black_seat)
            lines = again.call("chat_join", {"game": played.id})["lines"]
        finally:
            again.close()
        assert lines == [{"phrase": "good_game", "by": "white", "name": None}]
    finally:
        live.stop()


def test_the_nine_phrases() -> None:
    assert list(PHRASES.values()) == [
        "Hello", "Good luck", "Have fun", "You too", "Good game", "Well played", "Thank you",
        "I've got to go", "Bye",
    ]  # fmt: skip
