"""Abandoned games end, and a restart does not load them (issue 15, item 6).

A game nobody changed for CHESS_ABANDON_AFTER seconds ends: with no running clock it is
"aborted" with no result and the change `{"type": "abandon"}`; with a running clock it ends on
time, the flag any player loading it would have seen. Games are made stale either by rewriting
their last-change time in the real SQLite file while the server is stopped (the default
24 hours stays in force), or by a server whose limit is two seconds (the periodic sweep).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from chesscore import Board
from server.games.clock import ClockState
from server.games.play import Game, Header, NewGame, abandon
from server.games.service import GameService
from server.shared.errors import RequestError
from tests.support.game_client import FriendGame, GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.stored import sqlite_tables

pytestmark = pytest.mark.server

DAY = 24 * 3600
TIMEOUT = 60  # against hanging only: a busy machine answers slowly


def age(database: Path, game_ids: list[str], seconds: float) -> None:
    """Move the games' last change `seconds` into the past, as if nobody touched them since
    (a running clock's start too, so it ran out meanwhile)."""
    with sqlite3.connect(database) as db:
        db.executemany(
            "UPDATE games SET updated = updated - ?1, header = CASE"
            " WHEN json_extract(header, '$.clock.running') IS NULL THEN header"
            " ELSE json_set(header, '$.clock.since', json_extract(header, '$.clock.since') - ?1)"
            " END WHERE id = ?2",
            [(seconds, game_id) for game_id in game_ids],
        )


def last_change(url: str, game: str) -> dict[str, Any]:
    state = api_state(url, game)
    body = requests.get(
        f"{url}/api/games/{game}", params={"since": state["version"] - 1}, timeout=TIMEOUT
    ).json()
    return dict(body["missed"][-1])


# -- the pure function ------------------------------------------------------------------------


def test_abandon_ends_with_no_result() -> None:
    change = abandon(Header(offers=(("draw", 0), ("rematch", 1))))
    assert change.event == {"type": "abandon"}
    assert change.header.status == "aborted" and change.header.outcome is None
    assert change.header.offers == (("rematch", 1),)
    assert change.board is None and change.added == ()


def test_a_running_clock_or_an_ended_game_is_not_abandoned() -> None:
    with pytest.raises(RequestError, match="ends on time"):
        abandon(Header(clock=ClockState(1000, 1000, running=0, since=time.time())))
    with pytest.raises(RequestError, match="over"):
        abandon(Header(status="aborted"))
    # A clock that has not started (before both sides moved) does not end the game on time.
    assert abandon(Header(clock=ClockState(1000, 1000))).header.status == "aborted"


# -- start-up, in process: which games are loaded ----------------------------------------------


class Unheard:
    """A notifier (server.games.notifier.Notifier) nobody listens to."""

    def changed(self, game: Game, event: dict[str, Any]) -> None:
        pass

    def rematch_made(self, game: Game, rematch: Game, seats: dict[int, str]) -> None:
        pass


def make_service(database: Path, tasks: list[Callable[[], object]]) -> GameService:
    tables = sqlite_tables(database)
    return GameService(
        tables.games,
        tables.ratings,
        notifier=Unheard(),
        spawn=lambda task, *args: tasks.append(lambda: task(*args)),
        sleep=lambda seconds: None,
        computer_delay=0,
    )


def test_start_up_ends_stale_games_without_loading_them(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    tasks: list[Callable[[], object]] = []
    first = make_service(database, tasks)
    fen = Board().fen()
    stale = [first.create(NewGame("friend", 0, fen, None, None)).game.id for _ in range(3)]
    computer = first.create(NewGame("computer", 1, fen, None, 1)).game.id  # its move
    live = first.create(NewGame("friend", 0, fen, None, None)).game.id
    first.close()
    first.tables.database.close()
    age(database, [*stale, computer], 2 * DAY)

    tasks.clear()
    second = make_service(database, tasks)
    second.resume()
    assert set(second.cache.games) == {live}, "only the live game is loaded"
    assert second.tables.active_game_ids() == [live]
    for game_id in [*stale, computer]:
        stored = second.tables.load_game(game_id)
        assert stored is not None and stored.header["status"] == "aborted"
        assert stored.version == 1 and stored.moves == []
        assert second.tables.changes_since(game_id, 0) == [{"version": 1, "type": "abandon"}]
    second.close()


def test_games_ended_without_loading_leave_no_locks_behind(tmp_path: Path) -> None:
    """Thousands of abandoned games at start-up must not leave thousands of unused locks."""
    database = tmp_path / "games.sqlite3"
    tasks: list[Callable[[], object]] = []
    first = make_service(database, tasks)
    fen = Board().fen()
    stale = [first.create(NewGame("friend", 0, fen, None, None)).game.id for _ in range(3)]
    first.close()
    first.tables.database.close()
    age(database, stale, 2 * DAY)

    second = make_service(database, tasks)
    assert second.sweeper.sweep() == set(stale)
    assert second.cache.games == {} and second.cache.locks == {}
    second.close()


# -- a real server, restarted on the same instance folder --------------------------------------


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[LiveServer]:
    # The computer waits 60 s before a reply: the test kills the server before that, however
    # busy the machine (with 2 s, the reply sometimes came first).
    live = LiveServer(instance_path=tmp_path / "instance", env={"CHESS_COMPUTER_DELAY": "60"})
    live.start()
    yield live
    live.stop()


def test_a_restart_ends_abandoned_games_and_resumes_live_ones(restartable: LiveServer) -> None:
    url = restartable.url
    unstarted = create_game(url, opponent="friend")["game"]
    played = FriendGame(url)
    played.play("e2e4", "e7e5")
    timed = FriendGame(url, clock={"minutes": 0.05, "increment": 0})
    assert timed.play("e2e4", "e7e5")["clock"]["running"] == "white"
    computer = create_game(url, opponent="computer", color="white")
    player = GameClient(url)
    player.join(computer["game"], seat=computer["seat"])
    assert player.move(computer["game"], 0, "e2e4")["ok"]  # the computer answers in 60 s
    live = FriendGame(url)
    live.play("d2d4")
    for client in (played, timed, live, player):
        client.close()
    restartable.kill()  # before the computer's reply
    stale = [unstarted, played.id, timed.id, computer["game"]]
    age(restartable.instance_path / "games.sqlite3", stale, 2 * DAY)
    restartable.start()

    for game, ply in ((unstarted, 0), (played.id, 2), (computer["game"], 1)):
        state = api_state(url, game)
        assert (state["status"], state["outcome"], state["ply"]) == ("aborted", None, ply), game
        assert last_change(url, game)["type"] == "abandon"
    flagged = api_state(url, timed.id)
    assert flagged["status"] == "finished"
    assert flagged["outcome"] == {"termination": "time_forfeit", "winner": "black", "result": "0-1"}
    assert last_change(url, timed.id)["type"] == "flag"

    white, black = GameClient(url), GameClient(url)
    try:
        assert white.join(live.id, seat=live.white_seat)["state"]["status"] == "playing"
        black.join(live.id, seat=live.black_seat)
        assert black.move(live.id, 1, "d7d5")["ok"]
    finally:
        white.close()
        black.close()
    refused = requests.post(
        f"{url}/api/games/{played.id}/moves",
        json={"ply": 2, "uci": "g1f3"},
        headers={"Authorization": f"Bearer {played.white_seat}"},
        timeout=TIMEOUT,
    )
    assert refused.status_code == 409 and refused.json()["code"] == "game_over", refused.text


# -- the sweep while the server runs -----------------------------------------------------------


@pytest.fixture
def impatient(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(instance_path=tmp_path / "instance", env={"CHESS_ABANDON_AFTER": "2"})
    live.start()
    yield live
    live.stop()


def test_the_sweep_ends_an_idle_game_and_its_watcher_sees_it(impatient: LiveServer) -> None:
    table = FriendGame(impatient.url)
    table.play("e2e4")
    table.close()
    watcher = GameClient(impatient.url)
    try:
        watcher.join(table.id)
        ended = watcher.wait_for(lambda state: state["status"] != "playing")
        assert (ended["status"], ended["outcome"], ended["ply"]) == ("aborted", None, 1)
    finally:
        watcher.close()
    assert last_change(impatient.url, table.id)["type"] == "abandon"


def test_the_sweep_spares_a_game_whose_player_is_connected(impatient: LiveServer) -> None:
    attended = FriendGame(impatient.url)
    attended.play("e2e4")
    attended.black.close()  # white stays connected, seated, and thinks for a long time
    left = FriendGame(impatient.url)
    left.play("e2e4")
    left.close()
    watcher = GameClient(impatient.url)
    try:
        watcher.join(left.id)
        # Both games were idle when the sweep ended the one nobody holds a seat in.
        watcher.wait_for(lambda state: state["status"] != "playing")
        assert api_state(impatient.url, attended.id)["status"] == "playing"
    finally:
        watcher.close()
        attended.close()
