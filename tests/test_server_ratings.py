"""Rated games against a real server: two accounts paired through rated quick pairing play to
the end over real Socket.IO clients holding their session cookies, and both ratings move as
Glicko-2 says (expected values from tests/support/glicko_oracle.py, the paper written again);
an aborted rated game and a casual game change nothing; a rated game sends its players no
overlays; the lobby shows the rating and honours a seek's rating range; a rated seek needs a
clock, and walking away from a rated game loses it on time, rated; a game whose player deleted
the account while it was played ends as usual, unrated."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.game_client import WAIT_SECONDS, GameClient
from tests.support.glicko_oracle import lichess_game
from tests.support.live_server import LiveServer
from tests.support.lobby_client import LobbyClient
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("ratings", {"CHESS_TRUSTED_PROXIES": "1", "CHESS_SIGNUP_BURST": "1000"})

PASSWORD = "correct horse battery"
FOOLS_MATE = ("f2f3", "e7e5", "g2g4", "d8h4")  # black mates: 0-1
NEW = (1500.0, 500.0, 0.09, None)  # a new account (docs/ratings.md)
_addresses = itertools.count(1)


class Player:
    """A signed-up account: its HTTP session (own address) and a lobby connection holding its
    session cookie."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = f"r{secrets.token_hex(5)}"
        self.http = requests.Session()
        address = f"10.7.{next(_addresses) % 250}.1"  # its own: one person is two players here
        self.http.headers["X-Forwarded-For"] = address
        response = self.http.post(
            f"{url}/api/account/signup",
            json={"name": self.name, "password": PASSWORD},
            timeout=WAIT_SECONDS,
        )
        assert response.status_code == 201, response.text
        cookie = f"session={self.http.cookies['session']}"
        self.lobby = LobbyClient(url, headers={"Cookie": cookie, "X-Forwarded-For": address})
        self.lobby.enter()

    def ratings(self) -> dict[str, Any]:
        body = self.http.get(f"{self.url}/api/account", timeout=WAIT_SECONDS).json()
        return dict(body["account"]["ratings"])

    def close(self) -> None:
        self.lobby.close()


@pytest.fixture
def players(server: LiveServer) -> Iterator[Any]:
    opened: list[Player] = []

    def open_player() -> Player:
        player = Player(server.url)
        opened.append(player)
        return player

    yield open_player
    for player in opened:
        player.close()


def paired(first: Player, second: Player, rated: bool, control: str = "1+0") -> dict[str, Any]:
    """Pair the two through quick pairing; the game id and each player's seat by colour."""
    wait = first.lobby.call("pair", {"control": control, "rated": rated})
    assert wait["ok"] and wait["paired"] is False, wait
    taken = second.lobby.call("pair", {"control": control, "rated": rated})
    assert taken["ok"] and taken["paired"] is True, taken
    other = first.lobby.wait_message("paired", lambda seat: seat["game"] == taken["game"])
    seats = {taken["color"]: (second, taken["seat"]), other["color"]: (first, other["seat"])}
    for player, seat in seats.values():
        player.lobby.join(taken["game"], seat=seat)
    return {"game": taken["game"], "seats": seats}


def play(game: dict[str, Any], moves: tuple[str, ...]) -> None:
    play_from(game, moves, 0)


def play_from(game: dict[str, Any], moves: tuple[str, ...], start: int) -> None:
    for ply, uci in enumerate(moves, start):
        player, _ = game["seats"]["white" if ply % 2 == 0 else "black"]
        reply = player.lobby.move(game["game"], ply, uci)
        assert reply["ok"], reply


def shown(values: tuple[float, float, float], diff: int) -> dict[str, Any]:
    return {"rating": int(values[0]), "provisional": values[1] >= 110, "diff": diff}


def test_a_rated_game_moves_both_ratings_as_glicko2_says(players: Any) -> None:
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True)
    white, _ = game["seats"]["white"]
    black, _ = game["seats"]["black"]
    start = white.lobby.states[-1]
    assert start["rated"] is True and start["assisted"] is False
    new = {"rating": 1500, "provisional": True, "diff": None}
    assert [start["players"][c]["rating"] for c in ("white", "black")] == [new, new]
    play(game, FOOLS_MATE)
    expected_white = lichess_game(NEW, NEW, 0.0, 0.0)  # never played: time does not count
    expected_black = lichess_game(NEW, NEW, 1.0, 0.0)
    diffs = {"white": int(expected_white[0]) - 1500, "black": int(expected_black[0]) - 1500}
    assert diffs["black"] > 0 > diffs["white"]
    for player in (white, black):
        # Each player saw the game end, then the ratings, in that order.
        ended = player.lobby.wait_for(lambda s: s["status"] == "finished")
        rated = player.lobby.wait_for(lambda s: s["players"]["white"]["rating"]["diff"] is not None)
        assert ended["version"] < rated["version"]
        assert ended["players"]["black"]["rating"] == new  # not rated yet at the end itself
        assert rated["players"]["white"]["rating"] == shown(expected_white, diffs["white"])
        assert rated["players"]["black"]["rating"] == shown(expected_black, diffs["black"])
    for player, values in ((white, expected_white), (black, expected_black)):
        bullet = player.ratings()["bullet"]
        assert bullet == {
            "rating": int(values[0]),
            "deviation": round(values[1]),
            "provisional": True,
            "games": 1,
        }
        public = requests.get(f"{player.url}/api/users/{player.name}", timeout=WAIT_SECONDS)
        assert public.json()["user"]["ratings"]["bullet"] == bullet
        assert player.ratings()["blitz"]["games"] == 0  # other speeds untouched
    # A rematch is rated too, colours swapped, showing the ratings as they stand now.
    assert white.lobby.call("offer", {"game": game["game"], "kind": "rematch"})["ok"]
    assert black.lobby.call("accept", {"game": game["game"], "kind": "rematch"})["ok"]
    rematch = white.lobby.wait_rematch()
    state = white.lobby.join(rematch["rematch"], seat=rematch["seat"])["state"]
    assert rematch["color"] == "black" and state["rated"] is True
    assert state["players"]["black"]["rating"] == {**shown(expected_white, 0), "diff": None}
    assert state["players"]["white"]["rating"] == {**shown(expected_black, 0), "diff": None}


def test_nobody_gets_a_rated_games_threat_facts_until_it_has_ended(players: Any) -> None:
    """Not its players, not a spectator's socket or its previews and squares in words, not
    the HTTP state, positions, annotated PGN or the analysis board; once over, spectators
    and every route get them again (issue 33, 2)."""
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True, control="3+2")
    game_id, url = game["game"], ann.url
    play(game, ("f2f3", "e7e5"))
    for player, _ in game["seats"].values():
        state = player.lobby.wait_for(lambda s: s["ply"] == 2)
        assert state["threats"] is None and state["insight"] is None and state["safety"] is None
    watcher = GameClient(url)
    try:
        watched = watcher.join(game_id)["state"]
        assert (watched["threats"], watched["insight"]) == (None, None)
        refused = watcher.call("preview", {"game": game_id, "ply": 2, "uci": "g2g4"})
        assert refused["code"] == "not_allowed" and "rated" in refused["error"], refused
        said = watcher.call("describe", {"game": game_id, "ply": 2, "square": "e5"})
        assert said == {"ok": True, "text": "e5, black pawn"}  # what it is, not who attacks it
        read = requests.get(f"{url}/api/games/{game_id}", timeout=WAIT_SECONDS).json()
        assert (read["state"]["threats"], read["state"]["insight"]) == (None, None)
        earlier = requests.get(f"{url}/api/games/{game_id}/positions/1", timeout=WAIT_SECONDS)
        assert (earlier.json()["threats"], earlier.json()["insight"]) == (None, None)
        annotated = requests.get(f"{url}/api/games/{game_id}/pgn?annotated=1", timeout=WAIT_SECONDS)
        assert (annotated.status_code, annotated.json()["code"]) == (409, "game_in_play")
        analysed = requests.get(f"{url}/api/analysis/game/{game_id}", timeout=WAIT_SECONDS)
        assert (analysed.status_code, analysed.json()["code"]) == (409, "game_in_play")
        play_from(game, ("g2g4", "d8h4"), 2)
        ended = watcher.wait_for(lambda s: s["status"] == "finished")
        assert ended["threats"] is not None and ended["insight"] is not None
        earlier = requests.get(f"{url}/api/games/{game_id}/positions/1", timeout=WAIT_SECONDS)
        assert earlier.json()["threats"] is not None
        annotated = requests.get(f"{url}/api/games/{game_id}/pgn?annotated=1", timeout=WAIT_SECONDS)
        assert annotated.status_code == 200 and "[%" in annotated.text
        analysed = requests.get(f"{url}/api/analysis/game/{game_id}", timeout=WAIT_SECONDS)
        assert analysed.status_code == 200, analysed.text
        said = watcher.call("describe", {"game": game_id, "ply": 2, "square": "e5"})
        assert said["ok"] and said["text"] != "e5, black pawn"
    finally:
        watcher.close()


def test_an_aborted_rated_game_changes_nothing(players: Any) -> None:
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True, control="5+3")
    player, _ = game["seats"]["white"]
    reply = player.lobby.call("abort", {"game": game["game"]})
    assert reply["ok"], reply
    state = player.lobby.wait_for(lambda s: s["status"] == "aborted")
    assert state["players"]["white"]["rating"]["diff"] is None
    for someone in (ann, ben):
        assert someone.ratings()["blitz"] == {
            "rating": 1500,
            "deviation": 500,
            "provisional": True,
            "games": 0,
        }


def test_a_casual_game_between_accounts_changes_nothing(players: Any) -> None:
    ann, ben = players(), players()
    game = paired(ann, ben, rated=False, control="10+5")
    play(game, FOOLS_MATE)
    player, _ = game["seats"]["black"]
    ended = player.lobby.wait_for(lambda s: s["status"] == "finished")
    # The ratings are shown (as on lichess) but nothing rates the game.
    new = {"rating": 1500, "provisional": True, "diff": None}
    assert ended["rated"] is False and ended["players"]["black"]["rating"] == new
    watcher = GameClient(ann.url)
    try:
        final = watcher.join(game["game"])["state"]
        assert final["version"] == ended["version"]  # no "rated" change followed
    finally:
        watcher.close()
    assert ann.ratings()["rapid"]["games"] == ben.ratings()["rapid"]["games"] == 0


def test_the_lobby_shows_the_rating_and_honours_the_range(players: Any, server: LiveServer) -> None:
    ann, ben = players(), players()
    high = ann.lobby.call("seek", {"control": "5+3", "rated": True, "rating_range": [1600, 2000]})
    assert high["ok"], high
    seek = high["seek"]
    assert (seek["name"], seek["rating"], seek["provisional"]) == (ann.name, 1500, True)
    assert (seek["rated"], seek["assisted"], seek["rating_range"]) == (True, False, [1600, 2000])
    assert ben.lobby.wait_message("seek_added", lambda m: m["seek"]["id"] == seek["id"])
    refused = ben.lobby.call("seek_accept", {"seek": seek["id"]})
    assert (refused["ok"], refused["code"]) == (False, "out_of_range"), refused
    assert "1600 to 2000" in refused["error"] and "yours is 1500" in refused["error"]
    visitor = LobbyClient(server.url)
    try:
        anonymous = visitor.call("seek_accept", {"seek": seek["id"]})
        assert (anonymous["ok"], anonymous["code"]) == (False, "not_signed_in"), anonymous
        rated_wait = visitor.call("pair", {"control": "1+0", "rated": True})
        assert (rated_wait["ok"], rated_wait["code"]) == (False, "not_signed_in"), rated_wait
        listed = visitor.enter()["seeks"]
        assert [s["id"] for s in listed if s["id"] == seek["id"]] == [seek["id"]]  # still listed
    finally:
        visitor.close()
    fits = ann.lobby.call("seek", {"control": "5+3", "rated": True, "rating_range": [1400, 1600]})
    assert fits["ok"], fits
    taken = ben.lobby.call("seek_accept", {"seek": fits["seek"]["id"]})
    assert taken["ok"] and taken["opponent"] == ann.name, taken
    bad = ann.lobby.call("seek", {"control": "5+3", "rating_range": [1800, 1200]})
    assert (bad["ok"], bad["code"]) == (False, "bad_request") and "rating_range" in bad["error"]


def test_a_rated_seek_needs_a_clock(players: Any, server: LiveServer) -> None:
    ann = players()
    refused = ann.lobby.call("seek", {"rated": True})
    assert (refused["ok"], refused["code"]) == (False, "bad_request"), refused
    assert "'control'" in refused["error"] and "needs a clock" in refused["error"]
    untimed = ann.lobby.call("seek", {"rated": False})  # a casual game may go without one
    assert untimed["ok"] and untimed["seek"]["rated"] is False, untimed
    visitor = LobbyClient(server.url)
    try:
        mine = [s for s in visitor.enter()["seeks"] if s["name"] == ann.name]
        assert [s["id"] for s in mine] == [untimed["seek"]["id"]]  # the refused one left nothing
    finally:
        visitor.close()


def test_walking_away_from_a_rated_game_loses_it_on_time_and_is_rated(players: Any) -> None:
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True, control="1+0")
    play(game, FOOLS_MATE[:2])
    leaver, _ = game["seats"]["white"]  # to move, with a minute on the clock
    stayer, _ = game["seats"]["black"]
    leaver.lobby.close()  # the tab is closed: nobody will move for white again

    def rated(state: dict[str, Any]) -> bool:
        return state["players"]["black"]["rating"]["diff"] is not None

    for _ in range(3):  # the minute runs out, then some (a busy machine): generous bounds
        try:
            stayer.lobby.wait_for(rated)
            break
        except AssertionError:
            continue
    ended = stayer.lobby.wait_for(lambda s: s["status"] == "finished")
    assert ended["outcome"] == {"termination": "time_forfeit", "winner": "black", "result": "0-1"}
    after = stayer.lobby.wait_for(rated)
    assert ended["version"] < after["version"]  # the flag first, then the ratings it moved
    assert (
        after["players"]["black"]["rating"]["diff"]
        > 0
        > after["players"]["white"]["rating"]["diff"]
    )
    assert stayer.ratings()["bullet"]["games"] == 1


def test_a_game_whose_player_deleted_the_account_is_not_rated(players: Any) -> None:
    ann, ben = players(), players()
    game = paired(ann, ben, rated=True, control="3+2")
    play(game, FOOLS_MATE[:2])
    white, _ = game["seats"]["white"]
    black, _ = game["seats"]["black"]
    gone = white.http.post(
        f"{white.url}/api/account/delete", json={"password": PASSWORD}, timeout=WAIT_SECONDS
    )
    assert gone.status_code == 200, gone.text
    reply = black.lobby.call("resign", {"game": game["game"]})
    assert reply["ok"], reply
    ended = black.lobby.wait_for(lambda s: s["status"] == "finished")
    assert ended["outcome"]["winner"] == "white"  # the game ends as usual
    assert ended["players"]["black"]["rating"]["diff"] is None
    # A game is rated before the answer to the move that ended it: nothing was.
    assert black.ratings()["blitz"] == {
        "rating": 1500,
        "deviation": 500,
        "provisional": True,
        "games": 0,
    }
    gone_public = black.http.get(f"{white.url}/api/users/{white.name}", timeout=WAIT_SECONDS)
    assert gone_public.status_code == 404, gone_public.text  # white is gone, ratings and all


def test_an_unknown_player_is_not_found(server: LiveServer) -> None:
    for name in ("nobody_here", "x" * 300):
        response = requests.get(f"{server.url}/api/users/{name}", timeout=WAIT_SECONDS)
        body = response.json()
        assert (response.status_code, body["ok"], body["code"]) == (404, False, "not_found")
        assert "no player named" in body["error"]
