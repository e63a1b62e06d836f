"""The PostgreSQL store's last-change time: finding idle games, and migrating an older database.

Marked `cluster` like tests/test_cluster.py (run with `pytest -m cluster`): the module starts a
PostgreSQL of its own through deploy/cluster.py, is skipped without one, and fails without one
on CI.
"""

from __future__ import annotations

import json
import time

import pytest

from server.games.play import MoveRecord
from server.storage.interface import StoredChange, StoredGame
from tests.support.postgres import module_postgres
from tests.support.stored import HEADER

pytestmark = [pytest.mark.cluster, pytest.mark.server]

# The games table as the version before the last-change time made it.
OLD_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, settings TEXT NOT NULL, header TEXT NOT NULL, version INTEGER NOT NULL,
    invite_hash TEXT, active BOOLEAN NOT NULL, created DOUBLE PRECISION NOT NULL
);
CREATE INDEX games_active ON games(active) WHERE active;
"""


database = module_postgres()


def test_an_older_database_is_migrated_then_idle_games_are_found(database: str) -> None:
    import psycopg

    from server.storage.postgres import PostgresStore

    with psycopg.connect(database, autocommit=True) as db:
        db.execute(OLD_SCHEMA)
        db.execute(
            "INSERT INTO games VALUES ('old', %s, %s, 0, NULL, TRUE, 1.0)",
            (json.dumps({"opponent": "friend"}), json.dumps(HEADER)),
        )
    before = time.time()
    store = PostgresStore(database)
    # The old game's true last change is unknown: it counts from the upgrade.
    assert store.idle_games(before - 1) == []
    assert [game.id for game in store.idle_games(time.time() + 1)] == ["old"]

    store.create_game(StoredGame("new", {"opponent": "friend"}, HEADER, 0, []), {})
    with psycopg.connect(database, autocommit=True) as db:
        db.execute("UPDATE games SET updated = updated - 172800")
    move = StoredChange(1, HEADER, {"version": 1}, True, [(0, MoveRecord("e2e4", "e4"))])
    store.commit("old", move)  # a move: no longer idle
    idle = store.idle_games(time.time() - 86400)
    assert [(game.id, game.version, game.header) for game in idle] == [("new", 0, HEADER)]
    ended = StoredChange(1, {**HEADER, "status": "aborted"}, {"version": 1}, False, [])
    store.commit("new", ended)  # ended: no longer active
    assert [game.id for game in store.idle_games(time.time() + 1)] == ["old"]
    store.close()
    PostgresStore(database).close()  # opening again changes nothing
