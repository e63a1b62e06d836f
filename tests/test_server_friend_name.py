"""The invited friend's display name (server.games.play.name_friend), against a real server: given
with the Socket.IO `join` or the HTTP join it is kept once, for the friend's seat only, and
shows in every state, the PGN and the lobby's list; a bad name is refused naming the field and
changes nothing."""

from __future__ import annotations

import pytest
import requests

from chesscore import BLACK, WHITE, Board
from server.games.play import Game, GameSettings, claim_seat, name_friend, new_game
from tests.support.game_client import GameClient, create_game, invite_token
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("friend-name-api")


def join_url(server: LiveServer, game: str) -> str:
    return f"{server.url}/api/games/{game}/join"


def pgn_of(server: LiveServer, game: str) -> str:
    return requests.get(f"{server.url}/api/games/{game}/pgn", timeout=10).text


def test_the_http_join_keeps_the_friends_name(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white", name="Alice")
    game = created["game"]
    joined = requests.post(
        join_url(server, game), json={"invite": invite_token(created), "name": "Bob"}, timeout=10
    ).json()
    assert joined["ok"] and joined["color"] == "black"
    assert joined["state"]["players"]["black"]["name"] == "Bob"
    assert joined["state"]["players"]["white"]["name"] == "Alice"
    assert '[White "Alice"]' in pgn_of(server, game) and '[Black "Bob"]' in pgn_of(server, game)


def test_a_bad_name_is_refused_and_the_seat_stays_free(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="black", name="Alice")
    game, invite = created["game"], invite_token(created)
    refused = requests.post(
        join_url(server, game), json={"invite": invite, "name": "<b>x</b>"}, timeout=10
    )
    assert refused.status_code == 400 and "display name" in refused.json()["error"]
    joined = requests.post(join_url(server, game), json={"invite": invite}, timeout=10).json()
    assert joined["ok"] and joined["state"]["players"]["white"]["name"] is None
    assert '[White "White"]' in pgn_of(server, game)


def test_the_socket_join_names_the_friend_once_and_never_the_creator(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white", name="Alice")
    game = created["game"]
    creator, friend, again = GameClient(server.url), GameClient(server.url), GameClient(server.url)
    try:
        creator.join(game, seat=created["seat"], name="Mallory")  # the creator's name stays
        reply = friend.join(game, invite=invite_token(created), name="Bob")
        assert reply["role"] == "black" and reply["state"]["players"]["black"]["name"] == "Bob"
        # Everyone in the room is told (a `name` change, after the seat's).
        named = creator.wait_for(lambda state: state["players"]["black"]["name"] == "Bob")
        assert named["players"]["white"]["name"] == "Alice"
        # The friend's seat joined again with another name: the first name stays.
        again.join(game, seat=reply["seat"], name="Robert")
        assert '[White "Alice"]' in pgn_of(server, game) and '[Black "Bob"]' in pgn_of(server, game)
    finally:
        for client in (creator, friend, again):
            client.close()


START = Board().fen()


def seated_friend_game(names: tuple[str | None, str | None]) -> Game:
    game = new_game("g1", GameSettings("friend", WHITE, START, names=names))
    game.apply(claim_seat(game, WHITE))
    game.apply(claim_seat(game, BLACK))
    return game


def test_only_the_invited_friends_unnamed_seat_takes_a_name() -> None:
    game = seated_friend_game(("Alice", None))
    assert name_friend(game, WHITE, "Mallory") is None  # the creator's seat
    change = name_friend(game, BLACK, "Bob")
    assert change is not None and change.event["type"] == "name"
    game.apply(change)
    assert game.names == ("Alice", "Bob") and game.settings.names == ("Alice", None)
    assert name_friend(game, BLACK, "Robert") is None  # once
    # A game paired in the lobby has both names from the start: nothing to give.
    assert name_friend(seated_friend_game(("Alice", "Bruno")), BLACK, "Bob") is None
