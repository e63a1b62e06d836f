"""The opening's name on the wire (issue 17), against the real server on 127.0.0.1: spectators
see it during the game, players once it is over, over Socket.IO and HTTP alike, and the PGN
carries `ECO` and `Opening`."""

from __future__ import annotations

import pytest
import requests

from tests.support.game_client import FriendGame, GameClient, api_state
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("openings")

RUY_LOPEZ = ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5")  # C60 Ruy Lopez
MORPHY = {"eco": "C70", "name": "Ruy Lopez: Morphy Defense"}


def test_spectators_see_the_opening_and_players_once_the_game_is_over(server: LiveServer) -> None:
    table = FriendGame(server.url)
    watcher = GameClient(server.url)
    try:
        assert watcher.join(table.id)["role"] == "spectator"
        assert watcher.states[-1]["opening"] is None  # the start position has no name
        state = table.play(*RUY_LOPEZ, "a7a6", "h2h3")  # out of the book after 3... a6
        seen = watcher.wait_version(table.version)
        assert seen["opening"] == MORPHY  # the last named position of the game
        assert state["opening"] is None  # the players do not get it while they play
        assert table.black.wait_version(table.version)["opening"] is None
        assert api_state(server.url, table.id)["opening"] == MORPHY  # anonymous: a spectator
        assert api_state(server.url, table.id, table.white_seat)["opening"] is None

        reply = table.black.call("resign", {"game": table.id})
        assert reply["ok"], reply
        over = table.white.wait_version(reply["version"])
        assert over["status"] == "finished"
        assert over["opening"] == MORPHY
        assert table.black.wait_version(reply["version"])["opening"] == MORPHY
    finally:
        watcher.close()
        table.close()


def test_a_transposition_is_named_like_the_book_line(server: LiveServer) -> None:
    table = FriendGame(server.url)
    watcher = GameClient(server.url)
    try:
        watcher.join(table.id)
        table.play("g1f3", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4", "d2d4")
        expected = {"eco": "E21", "name": "Nimzo-Indian Defense: Three Knights Variation"}
        assert watcher.wait_version(table.version)["opening"] == expected
    finally:
        watcher.close()
        table.close()


def test_the_pgn_carries_eco_and_opening(server: LiveServer) -> None:
    table = FriendGame(server.url)
    try:
        table.play(*RUY_LOPEZ)
        response = requests.get(f"{server.url}/api/games/{table.id}/pgn", timeout=10)
        assert response.status_code == 200
        assert '[ECO "C60"]' in response.text
        assert '[Opening "Ruy Lopez"]' in response.text
        fresh = FriendGame(server.url)  # no move: no name, no header
        text = requests.get(f"{server.url}/api/games/{fresh.id}/pgn", timeout=10).text
        fresh.close()
        assert "[ECO " not in text and "[Opening " not in text
    finally:
        table.close()
