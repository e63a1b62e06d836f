"""The lobby over real Socket.IO clients against a real server: open challenges appear, are
taken and vanish (taken, cancelled, replaced, their creator gone); quick pairing pairs two and
only two; seat tokens reach only their holders; names are checked; junk is refused clearly and
changes nothing; per-address limits hold; the watch list follows the games in play."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.game_client import GameClient, create_game
from tests.support.live_server import LiveServer
from tests.support.lobby_client import LobbyClient
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("lobby-server")
limited_server = module_server(
    "lobby-limits",
    {"CHESS_LOBBY_PER_ADDRESS": "2", "CHESS_LOBBY_BURST": "4", "CHESS_LOBBY_INTERVAL": "60"},
)


class Visitors:
    """Lobby clients opened by a test, all closed after it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.opened: list[LobbyClient] = []

    def __call__(self, enter: bool = True) -> LobbyClient:
        client = LobbyClient(self.url)
        self.opened.append(client)
        if enter:
            client.enter()
        return client

    def close(self) -> None:
        for client in self.opened:
            client.close()


@pytest.fixture
def visitor(server: LiveServer) -> Iterator[Visitors]:
    visitors = Visitors(server.url)
    yield visitors
    visitors.close()
    # Every test leaves the lobby empty for the next (their connections are closed).
    probe = LobbyClient(server.url)
    try:
        probe.call("lobby_enter", {})
    finally:
        probe.close()


def seat_of(client: GameClient, game: str, seat: str) -> dict[str, Any]:
    reply = client.call("join", {"game": game, "seat": seat})
    assert reply["ok"], reply
    return reply


def test_a_seek_appears_is_taken_and_vanishes(visitor: Visitors) -> None:
    owner, taker, onlooker = visitor(), visitor(), visitor()
    created = owner.call("seek", {"control": "5+3", "color": "white", "name": "Owner_1"})
    assert created["ok"], created
    seek = created["seek"]
    assert seek == {
        "id": seek["id"],
        "name": "Owner_1",
        "control": "5+3",
        "color": "white",
        "assisted": True,
        "rated": False,
        "rating": None,  # a visitor without an account has none
        "provisional": None,
        "rating_range": None,
        "speed": "blitz",  # the lobby compares a range with the visitor's rating in it
    }
    assert onlooker.wait_message("seek_added")["seek"] == seek
    assert [listed["id"] for listed in visitor().enter()["seeks"]] == [seek["id"]]

    taken = taker.call("seek_accept", {"seek": seek["id"], "name": "Taker 2"})
    assert taken["ok"], taken
    assert taken["color"] == "black" and taken["opponent"] == "Owner_1"
    told = owner.wait_message("paired")
    assert told["game"] == taken["game"] and told["color"] == "white"
    assert told["opponent"] == "Taker 2"
    assert onlooker.wait_message("seeks_removed")["ids"] == [seek["id"]]
    assert visitor().enter()["seeks"] == []

    # The seats are real and distinct; the game carries the names and the clock.
    white = seat_of(owner, taken["game"], told["seat"])
    black = seat_of(taker, taken["game"], taken["seat"])
    assert (white["role"], black["role"]) == ("white", "black")
    state = white["state"]
    assert state["players"]["white"]["name"] == "Owner_1"
    assert state["players"]["black"]["name"] == "Taker 2"
    assert state["players"]["white"]["seated"] and state["players"]["black"]["seated"]
    assert state["clock"]["initial_ms"] == 300_000 and state["clock"]["increment_ms"] == 3_000
    # Nobody else saw either seat token.
    seen = json.dumps(onlooker.messages)
    assert told["seat"] not in seen and taken["seat"] not in seen
    assert "paired" not in [name for name, _ in onlooker.messages]
    assert taken["seat"] not in json.dumps(owner.messages)


def test_a_seek_is_taken_once(visitor: Visitors) -> None:
    owner, first, second = visitor(), visitor(), visitor()
    seek = owner.call("seek", {})["seek"]
    assert seek["control"] is None and seek["color"] == "random"
    assert seek["name"].startswith("Anonymous-") and len(seek["name"]) == len("Anonymous-4821")
    assert owner.call("seek_accept", {"seek": seek["id"]})["code"] == "not_allowed"
    assert first.call("seek_accept", {"seek": seek["id"]})["ok"]
    late = second.call("seek_accept", {"seek": seek["id"]})
    assert late["code"] == "not_found" and "taken or withdrawn" in late["error"]
    owner.wait_message("paired")
    assert len(owner.received("paired")) == 1


def test_a_seek_vanishes_when_cancelled_replaced_or_its_creator_leaves(visitor: Visitors) -> None:
    owner, onlooker = visitor(), visitor()
    first = owner.call("seek", {"control": "1+0"})["seek"]
    second = owner.call("seek", {"control": "3+2"})
    assert second["replaced"] == [first["id"]]  # one seek per visitor: the new one replaces
    assert onlooker.wait_message("seeks_removed", lambda m: first["id"] in m["ids"])
    listed = [seek["id"] for seek in onlooker.call("lobby_enter", {})["seeks"]]
    assert listed == [second["seek"]["id"]]

    assert owner.call("seek_cancel", {"seek": second["seek"]["id"]})["removed"] == [
        second["seek"]["id"]
    ]
    assert owner.call("seek_cancel", {})["removed"] == []

    third = owner.call("seek", {"control": "10+5"})["seek"]
    owner.close()
    gone = onlooker.wait_message("seeks_removed", lambda m: third["id"] in m["ids"])
    assert gone["ids"] == [third["id"]]
    assert onlooker.call("lobby_enter", {})["seeks"] == []


def test_quick_pairing_pairs_two_and_only_two(visitor: Visitors) -> None:
    first, other_control, second, third = visitor(), visitor(), visitor(), visitor()
    assert first.call("pair", {"control": "3+2", "name": "First"}) == {
        "ok": True,
        "paired": False,
        "replaced": [],
    }
    assert not other_control.call("pair", {"control": "5+3"})["paired"]
    done = second.call("pair", {"control": "3+2", "name": "Second"})
    assert done["paired"] and done["opponent"] == "First"
    told = first.wait_message("paired")
    assert told["game"] == done["game"] and told["opponent"] == "Second"
    assert {told["color"], done["color"]} == {"white", "black"}
    # The pair is gone: the next visitor waits, and the one waiting for 5+3 was not touched.
    assert not third.call("pair", {"control": "3+2"})["paired"]
    assert other_control.received("paired") == []
    assert third.received("paired") == []
    assert second.received("paired") == []  # its seat came in the acknowledgement only
    state = seat_of(second, done["game"], done["seat"])["state"]
    assert state["clock"]["initial_ms"] == 180_000 and state["clock"]["increment_ms"] == 2_000
    assert state["players"][done["color"]]["name"] == "Second"
    # Waits are never listed as open challenges.
    assert visitor().enter()["seeks"] == []


def test_a_wait_is_cancelled_replaced_and_dropped_on_disconnect(visitor: Visitors) -> None:
    waiting, other = visitor(), visitor()
    assert not waiting.call("pair", {"control": "15+10"})["paired"]
    assert waiting.call("pair_cancel", {})["removed"]
    assert not other.call("pair", {"control": "15+10"})["paired"]  # nobody waits any more
    assert other.call("pair_cancel", {})["removed"]

    assert not waiting.call("pair", {"control": "30+20"})["paired"]
    replaced = waiting.call("seek", {"control": "30+20"})["replaced"]
    assert len(replaced) == 1  # the wait made way for the seek
    waiting.call("seek_cancel", {})
    assert not waiting.call("pair", {"control": "1+0"})["paired"]
    waiting.close()
    late = visitor()
    try:
        assert not late.call("pair", {"control": "1+0"})["paired"]  # the leaver was dropped
    finally:
        late.call("pair_cancel", {})


@pytest.mark.parametrize(
    "name",
    ["<b>x</b>", "", " lead", "trail ", "a" * 21, "tab\there", "semi;colon", 5, "\uff58\u200b"],
)
def test_bad_names_are_refused_everywhere(visitor: Visitors, server: LiveServer, name: Any) -> None:
    client = visitor()
    for event, payload in (
        ("seek", {"name": name}),
        ("pair", {"control": "1+0", "name": name}),
        ("seek_accept", {"seek": "AAAAAAAAAAAA", "name": name}),
    ):
        reply = client.call(event, payload)
        assert reply["ok"] is False and reply["code"] == "bad_request", reply
        assert "display name" in reply["error"]
    response = requests.post(
        server.url + "/api/games", json={"opponent": "friend", "name": name}, timeout=10
    )
    assert response.status_code == 400 and "display name" in response.json()["error"]
    assert client.call("lobby_enter", {})["seeks"] == []


@pytest.mark.parametrize("name", ["José_9-x y", "A", "Магнус 2", "x" * 20])
def test_good_names_reach_the_state(server: LiveServer, name: str) -> None:
    created = create_game(server.url, opponent="friend", color="black", name=name)
    assert created["state"]["players"]["black"]["name"] == name
    assert created["state"]["players"]["white"]["name"] is None


@pytest.mark.parametrize(
    ("event", "payload", "words"),
    [
        ("seek", [], "JSON object"),
        ("seek", {"control": "2+1"}, "'control'"),
        ("seek", {"control": 3}, "'control'"),
        ("seek", {"color": "green"}, "'color'"),
        ("seek", {"assisted": "yes"}, "'assisted'"),
        ("seek", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, "unknown field"),
        ("pair", {}, "missing field"),
        ("pair", {"control": None}, "'control'"),
        ("pair", {"control": "1+0", "color": "white"}, "unknown field"),
        ("seek_accept", {"seek": "short"}, "seek id"),
        ("seek_accept", {"seek": "A" * 300}, "seek id"),
        ("seek_cancel", {"seek": 12}, "seek id"),
        ("lobby_enter", {"x": 1}, "unknown field"),
        ("pair_cancel", "text", "JSON object"),
        ("lobby_games", None, "JSON object"),
    ],
)
def test_junk_is_refused_clearly_and_changes_nothing(
    visitor: Visitors, event: str, payload: Any, words: str
) -> None:
    client, onlooker = visitor(), visitor()
    reply = client.call(event, payload)
    assert reply["ok"] is False and reply["code"] == "bad_request", reply
    assert words in reply["error"]
    assert onlooker.call("lobby_enter", {})["seeks"] == []
    assert onlooker.received("seek_added") == []
    assert client.connected


def test_an_address_holds_few_seeks_and_makes_few_requests(limited_server: LiveServer) -> None:
    clients = [LobbyClient(limited_server.url) for _ in range(3)]
    try:
        assert clients[0].call("seek", {})["ok"]
        assert clients[1].call("pair", {"control": "1+0"})["ok"]
        refused = clients[2].call("seek", {})
        assert refused["code"] == "too_many_seeks" and "2 open challenges" in refused["error"]
        # Replacing one's own seek does not count twice against the address.
        assert clients[0].call("seek", {"control": "5+3"})["ok"]
        limited = clients[2].call("pair", {"control": "5+3"})
        assert limited["code"] == "rate_limited" and "lobby requests" in limited["error"]
    finally:
        for client in clients:
            client.close()


def test_the_watch_list_follows_the_games_in_play(visitor: Visitors) -> None:
    watcher, white, black = visitor(), visitor(), visitor()
    assert not white.call("pair", {"control": "10+5", "name": "Wanda"})["paired"]
    paired = black.call("pair", {"control": "10+5", "name": "Bruno"})
    game = paired["game"]
    listed = watcher.wait_message(
        "lobby_games", lambda m: any(g["game"] == game for g in m["games"])
    )
    entry = next(g for g in listed["games"] if g["game"] == game)
    names = {entry["players"]["white"]["name"], entry["players"]["black"]["name"]}
    assert names == {"Wanda", "Bruno"} and entry["control"] == "10+5" and entry["plies"] == 0
    told = white.wait_message("paired")
    seats = {told["color"]: (white, told["seat"]), paired["color"]: (black, paired["seat"])}
    mover, token = seats["white"]
    seat_of(mover, game, token)
    assert mover.move(game, 0, "e2e4")["ok"]
    moved = watcher.wait_message(
        "lobby_games", lambda m: any(g["game"] == game and g["plies"] == 1 for g in m["games"])
    )
    assert moved["tv"] == game  # the game with the latest move is on TV
    snapshot = requests.get(watcher.url + "/api/lobby", timeout=10).json()
    assert snapshot["ok"] and snapshot["tv"] == game
    assert mover.call("resign", {"game": game})["ok"]
    watcher.wait_message("lobby_games", lambda m: all(g["game"] != game for g in m["games"]))


def test_a_rematch_keeps_the_names_with_their_players(visitor: Visitors) -> None:
    waiting, taking = visitor(), visitor()
    assert not waiting.call("pair", {"control": "5+3", "name": "Vera"})["paired"]
    done = taking.call("pair", {"control": "5+3", "name": "Yuri"})
    told = waiting.wait_message("paired")
    game = done["game"]
    seat_of(waiting, game, told["seat"])
    seat_of(taking, game, done["seat"])
    assert waiting.call("resign", {"game": game})["ok"]
    assert waiting.call("offer", {"game": game, "kind": "rematch"})["ok"]
    accepted = taking.call("accept", {"game": game, "kind": "rematch"})
    assert accepted["ok"], accepted
    rematch = waiting.wait_rematch()
    assert rematch["color"] == done["color"]  # colours swap: Vera takes Yuri's
    state = seat_of(waiting, rematch["rematch"], rematch["seat"])["state"]
    assert state["players"][done["color"]]["name"] == "Vera"
    assert state["players"][told["color"]]["name"] == "Yuri"


def test_the_pgn_names_the_players(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="black", name="Ana Li")
    pgn = requests.get(f"{server.url}/api/games/{created['game']}/pgn", timeout=10).text
    assert '[White "Computer"]' in pgn and '[Black "Ana Li"]' in pgn
