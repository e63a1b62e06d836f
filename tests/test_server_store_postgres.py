"""The PostgreSQL store's last-change time (finding idle games, migrating an older database),
its moves' clocks and the players' history queries.

Marked `cluster` like tests/test_cluster.py (run with `pytest -m cluster`): the module starts a
PostgreSQL of its own through deploy/cluster.py, is skipped without one, and fails without one
on CI.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest

from bench.history_data import fill_store
from server.games.play import MoveRecord
from server.games.stored import StoredChange, StoredGame
from server.players.tables import GamesQuery
from tests.support.postgres import module_postgres
from tests.support.stored import HEADER
from tests.test_server_history import player_of

pytestmark = [pytest.mark.cluster, pytest.mark.server]

# The games table as the version before the last-change time made it.
OLD_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, settings TEXT NOT NULL, header TEXT NOT NULL, version INTEGER NOT NULL,
    invite_hash TEXT, active BOOLEAN NOT NULL, created DOUBLE PRECISION NOT NULL
);
CREATE INDEX games_active ON games(active) WHERE active;
"""


# Every table gone: the next store migrates the database from nothing (or from what a test
# writes first).
EMPTY = "DROP SCHEMA public CASCADE; CREATE SCHEMA public"

database = module_postgres()


def test_an_older_database_is_migrated_then_idle_games_are_found(database: str) -> None:
    import psycopg

    from tests.support.stored import postgres_tables

    with psycopg.connect(database, autocommit=True) as db:
        db.execute(OLD_SCHEMA)
        db.execute(
            "INSERT INTO games VALUES ('old', %s, %s, 0, NULL, TRUE, 1.0)",
            (json.dumps({"opponent": "friend"}), json.dumps(HEADER)),
        )
    before = time.time()
    store = postgres_tables(database)
    # The old game's true last change is unknown: it counts from the upgrade.
    assert store.games.idle_games(before - 1) == []
    assert [game.id for game in store.games.idle_games(time.time() + 1)] == ["old"]

    store.games.create_game(StoredGame("new", {"opponent": "friend"}, HEADER, 0, []), {})
    with psycopg.connect(database, autocommit=True) as db:
        db.execute("UPDATE games SET updated = updated - 172800")
    move = StoredChange(1, HEADER, {"version": 1}, True, [(0, MoveRecord("e2e4", "e4"))])
    store.games.commit("old", move)  # a move: no longer idle
    idle = store.games.idle_games(time.time() - 86400)
    assert [(game.id, game.version, game.header) for game in idle] == [("new", 0, HEADER)]
    ended = StoredChange(1, {**HEADER, "status": "aborted"}, {"version": 1}, False, [])
    store.games.commit("new", ended)  # ended: no longer active
    assert [game.id for game in store.games.idle_games(time.time() + 1)] == ["old"]
    store.close()
    postgres_tables(database).close()  # opening again changes nothing


def test_the_history_pages_filters_and_counts_alike(database: str) -> None:
    """The history queries of server.players.tables in PostgreSQL's dialect."""
    import psycopg

    from tests.support.stored import postgres_tables

    with psycopg.connect(database, autocommit=True) as db:
        db.execute(EMPTY)
    store = postgres_tables(database)
    fill_store(store, 25, seed=5)
    whole = store.history.player_games(GamesQuery(player_of(store), 100))
    assert len(whole) == 25 and [row.entry.ended for row in whole] == sorted(
        (row.entry.ended for row in whole), reverse=True
    )
    paged, query = [], GamesQuery(player_of(store), 4)
    while page := store.history.player_games(query):
        paged.extend(page)
        query = replace(query, before=(page[-1].entry.ended, page[-1].entry.game_id))
    assert paged == whole
    draws = store.history.player_games(
        GamesQuery(player_of(store), 100, result="draw", rated=False)
    )
    assert draws == [row for row in whole if (row.entry.result, row.entry.rated) == ("draw", False)]
    rated = store.history.player_games(GamesQuery(player_of(store), 100, rated=True))
    assert rated == [row for row in whole if row.entry.rated] and rated
    blitz = store.history.player_games(GamesQuery(player_of(store), 100, speed="blitz"))
    assert blitz == [row for row in whole if row.entry.speed == "blitz"] and blitz
    results = [row.entry.result for row in whole]
    assert store.history.player_counts(player_of(store)) == {
        r: results.count(r) for r in ("win", "draw", "loss")
    }
    assert sum(row.review_id is not None for row in whole) == 3
    store.history.add_history([replace(whole[0].entry, result="draw")])  # recorded once
    assert store.history.player_games(GamesQuery(player_of(store), 1)) == whole[:1]
    loaded = store.games.load_game(whole[0].entry.game_id)
    assert loaded is not None and all(move.clock_ms is not None for move in loaded.moves)
    store.close()


def test_moves_stored_before_clocks_get_the_column(database: str) -> None:
    import psycopg

    from tests.support.stored import postgres_tables

    with psycopg.connect(database, autocommit=True) as db:
        db.execute(EMPTY)
        db.execute(OLD_SCHEMA)
        db.execute(
            "CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id),"
            " ply INTEGER NOT NULL, uci TEXT NOT NULL, san TEXT NOT NULL,"
            " PRIMARY KEY (game_id, ply))"
        )
        db.execute(
            "INSERT INTO games VALUES ('old', %s, %s, 1, NULL, TRUE, 1.0)",
            (json.dumps({"opponent": "friend"}), json.dumps(HEADER)),
        )
        db.execute("INSERT INTO moves VALUES ('old', 0, 'e2e4', 'e4')")
    store = postgres_tables(database)
    assert store.games.load_game("old") == StoredGame(
        "old", {"opponent": "friend"}, HEADER, 1, [MoveRecord("e2e4", "e4", None)]
    )
    timed = StoredChange(2, HEADER, {"version": 2}, True, [(1, MoveRecord("e7e5", "e5", 179_500))])
    store.games.commit("old", timed)
    loaded = store.games.load_game("old")
    assert loaded is not None and [move.clock_ms for move in loaded.moves] == [None, 179_500]
    store.close()
