"""One person with two accounts cannot pump a rating (docs/ratings.md, "Fair play"), against a
real server: accounts seen from one address or one browser within the day are refused a rated
seek (`same_player`), are never paired by rated quick pairing (each waits on, and pairs with
someone else), and a rated game's rematch between them is refused too; the rematch of a rated
game takes the lobby's per-address allowance; a rated game resigned before both sides moved is
not rated."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support.game_client import WAIT_SECONDS
from tests.support.live_server import LiveServer
from tests.support.lobby_client import LobbyClient
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server(
    "fair-play",
    {
        "CHESS_TRUSTED_PROXIES": "1",
        "CHESS_SIGNUP_BURST": "1000",
        "CHESS_CREATE_BURST": "1000",
        # A small allowance that nothing refills during the test, however slow the machine.
        "CHESS_LOBBY_BURST": "4",
        "CHESS_LOBBY_INTERVAL": "3600",
        # One rated game a day between two accounts, so that one game reaches the cap.
        "CHESS_RATED_SAME_OPPONENT_PER_DAY": "1",
    },
)
LOBBY_BURST = 4

PASSWORD = "correct horse battery"
_addresses = itertools.count(1)


def new_address() -> str:
    return f"10.9.{next(_addresses) % 250}.{secrets.randbelow(250)}"


class Player:
    """An account signed up from `address` in a browser of its own (or `browser`, a session
    whose cookies another account's sign-in left), playing over a lobby socket from
    `plays_from` (by default a third address of its own)."""

    def __init__(self, url: str, address: str, browser: requests.Session | None = None) -> None:
        self.url = url
        self.name = f"f{secrets.token_hex(5)}"
        self.http = browser or requests.Session()
        response = self.http.post(
            f"{url}/api/account/signup",
            json={"name": self.name, "password": PASSWORD},
            headers={"X-Forwarded-For": address},
            timeout=WAIT_SECONDS,
        )
        assert response.status_code == 201, response.text
        self.session = self.http.cookies["session"]
        self.lobby: LobbyClient | None = None
        self.plays_from = ""
        self.color = ""

    def sign_in_elsewhere(self) -> None:
        """Sign in again in another browser from another address."""
        self.http = requests.Session()
        response = self.http.post(
            f"{self.url}/api/account/login",
            json={"name": self.name, "password": PASSWORD},
            headers={"X-Forwarded-For": new_address()},
            timeout=WAIT_SECONDS,
        )
        assert response.status_code == 200, response.text
        self.session = self.http.cookies["session"]

    def enter(self, plays_from: str | None = None) -> LobbyClient:
        self.plays_from = plays_from or new_address()
        headers = {"Cookie": f"session={self.session}", "X-Forwarded-For": self.plays_from}
        self.lobby = LobbyClient(self.url, headers=headers)
        self.lobby.enter()
        return self.lobby

    def games_rated(self) -> int:
        response = self.http.get(
            f"{self.url}/api/account", cookies={"session": self.session}, timeout=WAIT_SECONDS
        )
        return sum(int(speed["games"]) for speed in response.json()["account"]["ratings"].values())


@pytest.fixture
def players(server: LiveServer) -> Iterator[Any]:
    opened: list[Player] = []

    def open_player(address: str | None = None, browser: requests.Session | None = None) -> Player:
        player = Player(server.url, address or new_address(), browser)
        opened.append(player)
        return player

    yield open_player
    for player in opened:
        if player.lobby is not None:
            player.lobby.close()


def seek_and_take(owner: LobbyClient, taker: LobbyClient) -> dict[str, Any]:
    seek = owner.call("seek", {"control": "3+2", "rated": True})
    assert seek["ok"], seek
    return dict(taker.call("seek_accept", {"seek": seek["seek"]["id"]}))


def test_accounts_signed_up_from_one_address_cannot_take_each_others_rated_seek(
    players: Any,
) -> None:
    shared = new_address()
    ann, ben = players(shared), players(shared)
    taken = seek_and_take(ann.enter(), ben.enter())  # each plays from an address of its own
    assert taken["ok"] is False and taken["code"] == "same_player", taken
    assert "rated game" in taken["error"]
    carl = players()
    assert seek_and_take(ann.lobby, carl.enter())["ok"] is True  # anyone else may


def test_accounts_signed_in_from_one_browser_cannot_play_each_other_rated(players: Any) -> None:
    browser = requests.Session()
    ann = players(new_address(), browser)
    ben = players(new_address(), browser)  # the same browser, another address
    ann.sign_in_elsewhere()  # Ben's sign-in ended Ann's session in that browser
    taken = seek_and_take(ann.enter(), ben.enter())
    assert taken["code"] == "same_player", taken
    casual = ann.lobby.call("seek", {"control": "3+2"})
    assert ben.lobby.call("seek_accept", {"seek": casual["seek"]["id"]})["ok"] is True


def test_accounts_playing_from_one_address_are_never_paired_rated(players: Any) -> None:
    shared = new_address()
    ann, ben, carl = players(), players(), players()
    first, second = ann.enter(shared), ben.enter(shared)
    assert first.call("pair", {"control": "1+0", "rated": True})["paired"] is False
    wait = second.call("pair", {"control": "1+0", "rated": True})
    assert wait["ok"] is True and wait["paired"] is False, wait  # both wait on
    third = carl.enter()
    assert third.call("pair", {"control": "1+0", "rated": True})["paired"] is True


def rated_game(ann: Player, ben: Player) -> tuple[str, LobbyClient, LobbyClient]:
    """A rated game Ann seeks and Ben takes, both joined: its id, Ann's and Ben's sockets
    (`ben.color`: Ben's colour)."""
    first, second = ann.lobby, ben.lobby
    assert first is not None and second is not None
    taken = seek_and_take(first, second)
    assert taken["ok"], taken
    game = taken["game"]
    other = first.wait_message("paired", lambda seat: seat["game"] == game)
    ben.color = taken["color"]
    second.join(game, seat=taken["seat"])
    first.join(game, seat=other["seat"])
    return game, first, second


def act(player: LobbyClient, game: str, action: str, kind: str | None = None) -> dict[str, Any]:
    return dict(player.call(action, {"game": game, **({"kind": kind} if kind else {})}))


def join_rematch(player: LobbyClient, game: str) -> str:
    """Join the rematch of `game` with the seat the `rematch` event gave `player`."""
    with player.condition:
        assert player.condition.wait_for(
            lambda: any(sent["game"] == game for sent in player.rematches), WAIT_SECONDS
        )
        sent = next(sent for sent in player.rematches if sent["game"] == game)
    player.join(sent["rematch"], seat=sent["seat"])
    return str(sent["rematch"])


def test_a_rated_games_rematch_is_refused_once_the_accounts_were_seen_together(
    players: Any,
) -> None:
    ann, ben = players(), players()
    ann.enter(), ben.enter()
    game, first, second = rated_game(ann, ben)
    assert act(second, game, "abort")["ok"]
    # Ben now signs in where Ann plays from: one person, two accounts.
    signin = requests.post(
        f"{ann.url}/api/account/login",
        json={"name": ben.name, "password": PASSWORD},
        headers={"X-Forwarded-For": ann.plays_from},
        timeout=WAIT_SECONDS,
    )
    assert signin.status_code == 200, signin.text
    assert act(first, game, "offer", "rematch")["ok"]
    refused = act(second, game, "accept", "rematch")
    assert refused["ok"] is False and refused["code"] == "same_player", refused


def test_a_rated_games_rematch_takes_the_lobbys_allowance(players: Any) -> None:
    ann, ben = players(), players()
    ann.enter(), ben.enter()
    game, first, second = rated_game(ann, ben)  # one lobby request of Ben's address
    answers = []
    for _ in range(LOBBY_BURST + 1):  # abort, rematch, again, all accepted from Ben's address
        assert act(second, game, "abort")["ok"]
        assert act(first, game, "offer", "rematch")["ok"]
        answer = act(second, game, "accept", "rematch")
        answers.append(answer)
        if not answer["ok"]:
            break
        old, game = game, join_rematch(second, game)
        assert join_rematch(first, old) == game
    assert len(answers) == LOBBY_BURST, answers
    assert answers[-1]["code"] == "rate_limited" and "lobby" in answers[-1]["error"], answers


def test_a_rated_game_resigned_before_both_sides_moved_is_not_rated(players: Any) -> None:
    ann, ben = players(), players()
    ann.enter(), ben.enter()
    game, first, second = rated_game(ann, ben)
    white, black = (second, first) if ben.color == "white" else (first, second)
    assert white.move(game, 0, "e2e4")["ok"]
    assert act(black, game, "resign")["ok"]
    state = white.wait_for(lambda s: s["status"] == "finished")
    assert state["outcome"]["winner"] == "white"
    assert ann.games_rated() == ben.games_rated() == 0


def test_two_accounts_past_their_days_rated_games_together_play_casual(players: Any) -> None:
    ann, ben = players(), players()
    ann.enter(), ben.enter()
    game, first, second = rated_game(ann, ben)
    white, black = (second, first) if ben.color == "white" else (first, second)
    assert white.move(game, 0, "e2e4")["ok"] and black.move(game, 1, "e7e5")["ok"]
    assert act(white, game, "resign")["ok"]
    black.wait_for(lambda s: s["players"]["black"]["rating"]["diff"] is not None)
    assert ann.games_rated() == ben.games_rated() == 1
    assert act(white, game, "offer", "rematch")["ok"]
    refused = act(black, game, "accept", "rematch")
    assert refused["ok"] is False and refused["code"] == "same_opponent", refused
    again = seek_and_take(first, second)
    assert again["ok"] is False and again["code"] == "same_opponent", again
    assert first.call("pair", {"control": "1+0", "rated": True})["paired"] is False
    assert second.call("pair", {"control": "1+0", "rated": True})["paired"] is False
