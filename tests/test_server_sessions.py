"""The game service on a real SQLite store, driven directly (no transport in between).

Background work is handed to a `spawn` that the test runs by hand, so "the computer's reply
arrives after the position changed" happens exactly when the test says, with no sleeping.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chesscore import Board, Move
from server.games.clock import ClockSettings
from server.games.play import Game, NewGame
from server.games.service import GameService
from server.shared.errors import RequestError
from tests.support.stored import sqlite_tables

WHITE, BLACK = 0, 1


class Harness:
    def __init__(self, tmp_path: Path, cache_size: int = 5000, shared: bool = False) -> None:
        self.events: list[dict[str, Any]] = []
        self.tasks: list[tuple[Callable[..., object], tuple[Any, ...]]] = []
        tables = sqlite_tables(tmp_path / "games.sqlite3", shared=shared)
        self.service = GameService(
            tables.games,
            tables.ratings,
            notifier=self,
            spawn=lambda task, *args: self.tasks.append((task, args)),
            sleep=lambda seconds: None,
            computer_delay=0,
            cache_size=cache_size,
        )

    # The service's notifier (server.games.notifier.Notifier): the events it was told of.
    def changed(self, game: Game, event: dict[str, Any]) -> None:
        self.events.append(event)

    def rematch_made(self, game: Game, rematch: Game, seats: dict[int, str]) -> None:
        pass

    def create(self, opponent: str = "friend", color: int = WHITE) -> str:
        request = NewGame(
            opponent, color, Board().fen(), None, 1 if opponent == "computer" else None
        )
        return self.service.create(request).game.id

    def run_tasks(self) -> None:
        tasks, self.tasks = self.tasks, []
        for task, args in tasks:
            task(*args)

    def game(self, game_id: str) -> Game:
        with self.service.session(game_id) as game:
            return game


@pytest.fixture
def harness(tmp_path: Path) -> Harness:
    return Harness(tmp_path)


def test_a_reply_for_an_earlier_position_is_thrown_away(harness: Harness) -> None:
    game_id = harness.create("computer")
    harness.service.move(game_id, WHITE, 0, Move.from_uci("e2e4"))
    assert len(harness.tasks) == 1  # the computer started thinking about 1. e4
    harness.service.act(game_id, WHITE, "offer", "takeback")  # the computer accepts at once
    assert harness.game(game_id).ply == 0
    harness.run_tasks()  # its reply to 1. e4 arrives now
    assert harness.game(game_id).ply == 0
    assert [event["type"] for event in harness.events] == ["move", "accept"]


def test_the_computers_reply_is_played_when_still_current(harness: Harness) -> None:
    game_id = harness.create("computer")
    harness.service.move(game_id, WHITE, 0, Move.from_uci("e2e4"))
    harness.run_tasks()
    game = harness.game(game_id)
    assert game.ply == 2 and game.board.turn == WHITE
    assert harness.events[-1]["by"] == "black"


def test_concurrent_copies_apply_once(harness: Harness) -> None:
    game_id = harness.create()
    barrier = threading.Barrier(20)
    results: list[str] = []

    def send() -> None:
        barrier.wait()
        try:
            harness.service.move(game_id, WHITE, 0, Move.from_uci("e2e4"))
            results.append("ok")
        except RequestError as error:
            results.append(error.code)

    threads = [threading.Thread(target=send) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok"] + ["stale_ply"] * 19
    assert harness.game(game_id).ply == 1


def test_games_dropped_from_the_cache_come_back_from_the_store(tmp_path: Path) -> None:
    harness = Harness(tmp_path, cache_size=2)
    first, second, third = harness.create(), harness.create(), harness.create()
    assert first not in harness.service.cache.games
    harness.service.move(first, WHITE, 0, Move.from_uci("d2d4"))
    assert harness.game(first).moves[0].san == "d4"
    assert list(harness.service.cache.games) == [third, first]
    assert harness.game(second).ply == 0


def test_an_unknown_game_is_not_found(harness: Harness) -> None:
    with pytest.raises(RequestError) as refused:
        harness.service.move("A" * 12, WHITE, 0, Move.from_uci("e2e4"))
    assert refused.value.code == "not_found"


def test_made_up_game_ids_leave_no_locks_behind(harness: Harness) -> None:
    for index in range(50):
        with pytest.raises(RequestError):
            harness.service.move(f"{index:012d}", WHITE, 0, Move.from_uci("e2e4"))
    assert harness.service.cache.locks == {}


def test_two_services_sharing_one_store_stay_consistent(tmp_path: Path) -> None:
    """As two server processes would: each sees the other's moves, none is applied twice."""
    first, second = Harness(tmp_path, shared=True), Harness(tmp_path, shared=True)
    game_id = first.create()
    assert first.game(game_id).ply == 0
    second.service.move(game_id, WHITE, 0, Move.from_uci("e2e4"))
    with pytest.raises(RequestError) as refused:
        first.service.move(game_id, WHITE, 0, Move.from_uci("d2d4"))
    assert refused.value.code == "stale_ply"
    first.service.move(game_id, BLACK, 1, Move.from_uci("e7e5"))
    assert [m.uci for m in second.game(game_id).moves] == ["e2e4", "e7e5"]


def test_one_pending_flag_check_per_game_however_many_moves(harness: Harness) -> None:
    request = NewGame("friend", WHITE, Board().fen(), ClockSettings(300_000, 2_000), None)
    game_id = harness.service.create(request).game.id
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 3 + ["e2e4", "e7e5", "d2d4", "d7d5"]
    for ply, uci in enumerate(shuffle):
        harness.service.move(game_id, ply % 2, ply, Move.from_uci(uci))
    assert harness.game(game_id).header.clock is not None
    assert len(harness.service.scheduler.heap) == 1
    assert list(harness.service.flag_checks) == [game_id]
