"""The engine pool through a real server: one address's many searches do not starve another's
game, a cancel reaches only its own search, levels 1 and 2 skip the queue, and an address is
refused `too_many_games` past its cap and `rate_limited` (with Retry-After) past its creation
rate, by its own address or, behind a trusted proxy, by the one X-Forwarded-For names.

Clients of different addresses are HTTP sessions bound to different loopback source addresses
(127.0.0.2 and up are as local as 127.0.0.1 on Linux). Orders are asserted, never times: how
many of one client's searches had been served when the other's reply came.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.addresses import SourceAddress
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.server

GUARD_SECONDS = 180  # against hanging only, never a speed requirement
FIRST = "127.0.0.1"


class Player:
    """An HTTP client of the API from one source address."""

    def __init__(self, url: str, address: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.address = address
        self.headers = dict(headers or {})
        self.seats: dict[str, str] = {}

    def request(self, method: str, path: str, **options: Any) -> requests.Response:
        # A fresh connection per request, as requests.post makes: on a kept-alive one the
        # server's small replies can wait for a delayed ACK, 40 ms each.
        with requests.Session() as session:
            session.mount("http://", SourceAddress(self.address))
            headers = {**self.headers, **options.pop("headers", {})}
            return session.request(method, self.url + path, headers=headers, timeout=15, **options)

    def try_create(self, **payload: Any) -> requests.Response:
        return self.request("POST", "/api/games", json=payload)

    def create(self, **payload: Any) -> str:
        response = self.try_create(**payload)
        assert response.status_code == 201, response.text
        body = response.json()
        self.seats[body["game"]] = body["seat"]
        return str(body["game"])

    def computer_first(self, level: int) -> str:
        """A game where the computer has the first move: its search starts at once."""
        return self.create(opponent="computer", color="black", level=level)

    def state(self, game: str) -> dict[str, Any]:
        response = self.request("GET", f"/api/games/{game}")
        assert response.status_code == 200, response.text
        return dict(response.json()["state"])

    def wait_ply(self, game: str, ply: int) -> dict[str, Any]:
        deadline = time.monotonic() + GUARD_SECONDS
        while time.monotonic() < deadline:
            state = self.state(game)
            if state["ply"] >= ply or state["status"] != "playing":
                return state
            time.sleep(0.02)
        raise AssertionError(f"game {game} did not reach ply {ply}")

    def act(self, game: str, **body: str) -> requests.Response:
        headers = {"Authorization": f"Bearer {self.seats[game]}"}
        return self.request("POST", f"/api/games/{game}/actions", json=body, headers=headers)

    def resign(self, game: str) -> None:
        response = self.act(game, action="resign")
        assert response.status_code == 200, response.text


@contextmanager
def serving(tmp_path: Path, **env: str) -> Iterator[LiveServer]:
    """A server with no delay before the computer's replies and `env` added."""
    server = LiveServer(tmp_path / "instance", env={"CHESS_COMPUTER_DELAY": "0", **env}).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def one_worker(tmp_path: Path) -> Iterator[LiveServer]:
    """One engine worker, so every search waits for it, and no limits in the way."""
    limits = {"CHESS_MAX_COMPUTER_GAMES": "100", "CHESS_CREATE_BURST": "100"}
    with serving(tmp_path, CHESS_ENGINE_WORKERS="1", **limits) as server:
        yield server


def served(player: Player, games: list[str]) -> int:
    """How many of `games` have had the computer's first move."""
    return sum(player.state(game)["ply"] >= 1 for game in games)


BUSY_GAMES = 5  # level-8 searches of about two seconds each, more than the workers


def test_another_address_waits_for_one_search_at_most(one_worker: LiveServer) -> None:
    busy, other = Player(one_worker.url, FIRST), Player(one_worker.url, "127.0.0.2")
    searching = [busy.computer_first(8) for _ in range(BUSY_GAMES)]
    game = other.computer_first(3)
    assert other.wait_ply(game, 1)["ply"] == 1
    # The first address's search in flight when the other asked, and perhaps the next one by
    # the time this reads: never the whole queue, as one worker taking them in order would.
    assert served(busy, searching) <= 2
    for busy_game in searching:
        busy.resign(busy_game)


@pytest.mark.parametrize("level", [1, 2])
def test_the_low_levels_answer_without_the_queue(one_worker: LiveServer, level: int) -> None:
    player = Player(one_worker.url, FIRST)
    searching = [player.computer_first(8) for _ in range(BUSY_GAMES)]
    game = player.computer_first(level)
    assert player.wait_ply(game, 1)["ply"] == 1
    assert served(player, searching) <= 2, "the low level waited behind the searches"
    for busy_game in searching:
        player.resign(busy_game)


def test_a_cancel_stops_only_its_own_search(tmp_path: Path) -> None:
    """Two games searching at once, one resigned: the other still gets its move."""
    with serving(tmp_path, CHESS_ENGINE_WORKERS="2") as server:
        first, second = Player(server.url, FIRST), Player(server.url, "127.0.0.2")
        stopped = first.computer_first(8)
        going = second.computer_first(8)
        first.resign(stopped)
        assert second.wait_ply(going, 1)["ply"] == 1
        assert first.state(stopped)["ply"] == 0


# Requests that would share a cancel flag if the flags were a ring of slots (there were 1,024).
RING = 1024


def test_a_cancel_reaches_its_own_request_whatever_the_count(tmp_path: Path) -> None:
    """More computer requests pending than a ring of cancel flags has slots: cancelling the
    first (by resigning) must not stop the one a ring would have given the same slot."""
    limits = {"CHESS_MAX_COMPUTER_GAMES": "2000", "CHESS_CREATE_BURST": "2000"}
    # Each request waits 60 s before it is searched: all of them are pending at once, even
    # when creating them takes a busy machine 30 s and more (a 30 s delay was once too short).
    with serving(tmp_path, CHESS_COMPUTER_DELAY="60", **limits) as server:
        player = Player(server.url, FIRST)
        cancelled = player.computer_first(1)
        with ThreadPoolExecutor(8) as creators:
            list(creators.map(lambda _: player.computer_first(1), range(RING - 1)))
        last = player.computer_first(3)
        player.resign(cancelled)
        # Resigned while its request was pending (else this test would prove nothing)...
        assert player.state(cancelled)["ply"] == 0
        # ...and the request that a ring would have given the same flag still gets its move.
        assert player.wait_ply(last, 1)["ply"] == 1


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[LiveServer]:
    """Small limits: two computer games per address, four creations then one a minute."""
    limits = {"CHESS_CREATE_BURST": "4", "CHESS_CREATE_INTERVAL": "60"}
    with serving(tmp_path, CHESS_MAX_COMPUTER_GAMES="2", **limits) as server:
        yield server


def test_too_many_computer_games_are_refused(limited: LiveServer) -> None:
    player, other = Player(limited.url, "127.0.0.3"), Player(limited.url, "127.0.0.4")
    games = [player.computer_first(1), player.computer_first(1)]
    refused = player.try_create(opponent="computer", level=1)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_games"
    assert "2 games against the computer" in refused.json()["error"]
    other.computer_first(1)  # another address has its own count
    player.resign(games[0])  # a game over no longer counts
    player.computer_first(1)


def test_a_rematch_against_the_computer_counts_for_its_address(tmp_path: Path) -> None:
    limits = {"CHESS_MAX_COMPUTER_GAMES": "2", "CHESS_CREATE_BURST": "100"}
    with serving(tmp_path, **limits) as server:
        player = Player(server.url, "127.0.0.8")
        first, second = player.computer_first(1), player.computer_first(1)
        player.resign(first)
        player.computer_first(1)  # two in play again
        refused = player.act(first, action="offer", kind="rematch")
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_games"
        player.resign(second)
        accepted = player.act(first, action="offer", kind="rematch")
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["rematch"]


def test_a_friend_rematch_is_a_new_game_of_the_address_making_it(tmp_path: Path) -> None:
    """The player whose answer makes the rematch happen creates a game: its address's
    creation rate applies (friend rematches made games with no limit at all)."""
    limits = {"CHESS_CREATE_BURST": "1", "CHESS_CREATE_INTERVAL": "60"}
    with serving(tmp_path, **limits) as server:
        host, friend = Player(server.url, "127.0.0.9"), Player(server.url, "127.0.0.10")
        created = host.request("POST", "/api/games", json={"opponent": "friend"}).json()
        game = created["game"]
        host.seats[game] = created["seat"]
        invite = created["links"]["invite"].split("invite=", 1)[1]
        joined = friend.request("POST", f"/api/games/{game}/join", json={"invite": invite})
        friend.seats[game] = joined.json()["seat"]
        host.resign(game)
        assert friend.act(game, action="offer", kind="rematch").status_code == 200
        refused = host.act(game, action="accept", kind="rematch")  # the host's token is spent
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60


def test_creating_games_too_fast_is_refused_with_retry_after(limited: LiveServer) -> None:
    player, other = Player(limited.url, "127.0.0.5"), Player(limited.url, "127.0.0.6")
    for _ in range(4):
        player.create(opponent="friend")
    refused = player.try_create(opponent="friend")
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # Bad input still gets its own answer, and another address is not limited.
    assert player.try_create(opponent="nobody").json()["code"] == "bad_request"
    other.create(opponent="friend")


def test_x_forwarded_for_is_ignored_unless_a_proxy_is_trusted(limited: LiveServer) -> None:
    """A client cannot dodge its limit by naming another address itself."""
    player = Player(limited.url, "127.0.0.7")
    for index in range(4):
        player.headers["X-Forwarded-For"] = f"10.0.0.{index}"
        player.create(opponent="friend")
    player.headers["X-Forwarded-For"] = "10.0.0.99"
    assert player.try_create(opponent="friend").json()["code"] == "rate_limited"


def test_behind_a_trusted_proxy_the_forwarded_address_counts(tmp_path: Path) -> None:
    limits = {"CHESS_CREATE_BURST": "1", "CHESS_CREATE_INTERVAL": "60"}
    with serving(tmp_path, CHESS_TRUSTED_PROXIES="1", **limits) as server:
        # The proxy appends the address it saw; what the client wrote before it is ignored.
        first = Player(server.url, FIRST, {"X-Forwarded-For": "10.0.0.1"})
        spoofing = Player(server.url, FIRST, {"X-Forwarded-For": "10.0.0.9, 10.0.0.1"})
        second = Player(server.url, FIRST, {"X-Forwarded-For": "10.0.0.2"})
        first.create(opponent="friend")
        assert spoofing.try_create(opponent="friend").json()["code"] == "rate_limited"
        second.create(opponent="friend")
