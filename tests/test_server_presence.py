"""Who is at the board: the state's `players.<colour>.connected`, true while a connection holds
the seat (the computer's always), pushed to the game's rooms when a seat comes or goes. Real
server, real Socket.IO clients."""

from __future__ import annotations

import pytest

from tests.support.game_client import FriendGame, GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("presence")


def connected(state: dict[str, object]) -> dict[str, bool]:
    players = state["players"]
    assert isinstance(players, dict)
    return {color: players[color]["connected"] for color in ("white", "black")}


def test_seats_connected_and_gone(server: LiveServer) -> None:
    game = FriendGame(server.url)
    spectator = GameClient(server.url)
    try:
        spectator.join(game.id)
        assert connected(spectator.states[-1]) == {"white": True, "black": True}
        game.black.close()
        state = spectator.wait_for(lambda s: not s["players"]["black"]["connected"])
        assert connected(state) == {"white": True, "black": False}
        assert state["version"] == spectator.states[0]["version"]  # no change to the game
        assert connected(api_state(server.url, game.id)) == {"white": True, "black": False}
        again = GameClient(server.url)
        try:
            again.join(game.id, seat=game.black_seat)
            state = game.white.wait_for(
                lambda s: s["players"]["black"]["connected"] and s is not game.white.states[0]
            )
            assert connected(state) == {"white": True, "black": True}
        finally:
            again.close()
    finally:
        spectator.close()
        game.close()


def test_spectators_do_not_count(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    watcher = GameClient(server.url)
    try:
        reply = watcher.join(created["game"])
        assert connected(reply["state"]) == {"white": False, "black": False}
    finally:
        watcher.close()


def test_the_computer_is_always_there(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="white", level=1)
    assert connected(created["state"]) == {"white": False, "black": True}
