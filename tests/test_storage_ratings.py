"""The ratings' storage (server.ratings.tables) on real SQLite and PostgreSQL: a finished game
is rated once however many processes rate it at the same moment, each side's rating and
history row written together, and the next game starts from the stored rating; a game with a
seat of a visitor without an account, or of an account deleted while it was played, is not
rated."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from chesscore.ratings import Speed
from server.games.rating import glicko_rate
from server.games.stored import StoredGame
from server.ratings.tables import RatedSide
from server.tables import Tables
from tests.support.glicko_oracle import lichess_game
from tests.support.stored import sqlite_tables

OpenStore = Callable[[], Tables]
RACERS = 4


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    from deploy import cluster

    needed = ("initdb", "pg_ctl", "Python package psycopg", "runuser")
    if any(name.startswith(needed) for name in cluster.missing_programs()):
        message = "needs PostgreSQL (apt-get install postgresql; pip install 'psycopg[binary]')"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    folder = Path(tempfile.mkdtemp(prefix="chess-ratings-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as `postgres`, who must reach it
    try:
        yield cluster.start_postgres(folder, cluster.free_port())
    finally:
        cluster.stop_postgres(folder)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.cluster)])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenStore]:
    """Opens another store on one database each time (another process's, as it were)."""
    opened: list[Tables] = []

    def open_one() -> Tables:
        if request.param == "sqlite":
            store: Tables = sqlite_tables(tmp_path / "games.sqlite3", shared=True)
        else:
            from tests.support.stored import postgres_tables

            store = postgres_tables(request.getfixturevalue("postgres_url"))
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


def new_game(store: Tables, game_id: str, accounts: dict[int, int]) -> None:
    settings = {"opponent": "friend", "creator": 0, "start_fen": "", "clock": None}
    store.games.create_game(StoredGame(game_id, settings, {}, 0, []), {0: "w" * 8, 1: "b" * 8})
    for color, account in accounts.items():
        store.accounts.link_seat(game_id, color, account)


def new_user(store: Tables, name: str) -> int:
    return store.accounts.create_user((name, name.lower() + os.urandom(3).hex(), "hash"), [])


def test_a_game_is_rated_once_by_processes_racing(open_store: OpenStore) -> None:
    first = open_store()
    white, black = new_user(first, "White"), new_user(first, "Black")
    new_game(first, "game-racing1", {0: white, 1: black})
    stores = [first, *(open_store() for _ in range(RACERS - 1))]
    results: list[list[RatedSide]] = []
    start = threading.Barrier(RACERS)

    def rate(store: Tables) -> None:
        start.wait()
        results.append(
            store.ratings.rate_game("game-racing1", Speed.BLITZ, glicko_rate(1.0, 1000.0), 1000.0)
        )

    threads = [threading.Thread(target=rate, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == RACERS and all(result == results[0] for result in results)
    expected = lichess_game((1500, 500, 0.09, None), (1500, 500, 0.09, None), 1.0, 1000)
    won, lost = results[0]
    assert (won.color, won.account_id, lost.account_id) == (0, white, black)
    assert won.rating == pytest.approx(expected[0]) and won.diff == int(expected[0]) - 1500
    assert first.ratings.ratings_of(white)[Speed.BLITZ].games == 1  # not RACERS
    assert [point.game_id for point in first.ratings.rating_history(black, 10)] == ["game-racing1"]


def test_the_next_game_starts_from_the_stored_rating(open_store: OpenStore) -> None:
    store = open_store()
    ann, ben = new_user(store, "Ann"), new_user(store, "Ben")
    new_game(store, "game-first1", {0: ann, 1: ben})
    new_game(store, "game-second", {0: ben, 1: ann})
    store.ratings.rate_game("game-first1", Speed.RAPID, glicko_rate(0.5, 1000.0), 1000.0)
    before = {who: store.ratings.ratings_of(who)[Speed.RAPID] for who in (ann, ben)}
    sides = {who: (p.glicko.rating, p.glicko.deviation, p.glicko.volatility, p.last_game)
             for who, p in before.items()}  # fmt: skip
    later = 1000.0 + 30 * 86400  # a month on: both deviations grow before the game
    rated = store.ratings.rate_game(
        "game-second", Speed.RAPID, glicko_rate(0.0, later), later
    )  # Ben (white) lost
    expected_ann = lichess_game(sides[ann], sides[ben], 1.0, later)
    expected_ben = lichess_game(sides[ben], sides[ann], 0.0, later)
    assert [side.account_id for side in rated] == [ben, ann]
    assert rated[1].rating == pytest.approx(expected_ann[0])
    assert rated[1].deviation == pytest.approx(expected_ann[1])
    assert rated[0].rating == pytest.approx(expected_ben[0])
    for who in (ann, ben):
        assert store.ratings.ratings_of(who)[Speed.RAPID].games == 2
        assert store.ratings.ratings_of(who)[Speed.RAPID].last_game == later
    history = store.ratings.rating_history(ann, 10)
    assert [point.game_id for point in history] == ["game-first1", "game-second"]
    assert history[-1].rating == pytest.approx(expected_ann[0])


def test_a_game_with_a_visitors_seat_is_not_rated(open_store: OpenStore) -> None:
    store = open_store()
    white = new_user(store, "Solo")
    new_game(store, "game-visitor", {0: white})
    assert (
        store.ratings.rate_game("game-visitor", Speed.BULLET, glicko_rate(1.0, 1000.0), 1000.0)
        == []
    )
    assert store.ratings.ratings_of(white) == {}
    assert store.ratings.rated_sides("game-visitor") == []


def test_a_deleted_accounts_ratings_and_history_go(open_store: OpenStore) -> None:
    store = open_store()
    gone, stays = new_user(store, "Gone"), new_user(store, "Stays")
    new_game(store, "game-deleted", {0: gone, 1: stays})
    store.ratings.rate_game("game-deleted", Speed.CLASSICAL, glicko_rate(1.0, 1000.0), 1000.0)
    store.accounts.delete_user(gone)
    assert store.ratings.ratings_of(gone) == {} and store.ratings.rating_history(gone, 10) == []
    assert store.ratings.ratings_of(stays)[Speed.CLASSICAL].games == 1  # the opponent keeps theirs
    assert [side.account_id for side in store.ratings.rated_sides("game-deleted")] == [stays]


def test_a_game_whose_player_was_deleted_meanwhile_is_not_rated(open_store: OpenStore) -> None:
    store = open_store()
    gone, stays = new_user(store, "Leaver"), new_user(store, "Keeper")
    new_game(store, "game-in-play", {0: gone, 1: stays})
    store.accounts.delete_user(gone)  # while the game is still played
    assert (
        store.ratings.rate_game("game-in-play", Speed.BLITZ, glicko_rate(0.0, 1000.0), 1000.0) == []
    )
    assert store.ratings.rated_sides("game-in-play") == []
    assert store.ratings.ratings_of(gone) == {} and store.ratings.rating_history(gone, 10) == []
    assert store.ratings.ratings_of(stays) == {} and store.ratings.rating_history(stays, 10) == []
