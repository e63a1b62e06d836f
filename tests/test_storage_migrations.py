"""Versioned schema migrations (the runner server.storage.migrations, the steps server.tables
lists) on SQLite and PostgreSQL: an empty database and one made by main before versions
existed (tests/data/schema_v0.*.sql, made by tests/data/make_schema_v0.py) both reach the
latest version, keep their data, and gain the accounts' tables; opening again changes
nothing; a failed migration leaves its version out.

The PostgreSQL half is marked `cluster` (run with `pytest -m cluster`): it starts a PostgreSQL
of its own through deploy/cluster.py, is skipped without one, and fails without one on CI.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from server import tables as migrations
from server.accounts.usernames import name_key
from server.tables import Tables
from tests.support.postgres import module_postgres
from tests.support.stored import sqlite_tables

DATA = Path(__file__).resolve().parent / "data"
GAME = "FPV_RUi-b2TK"  # the game in the frozen files: two seats, three moves, a review


def check_kept_and_migrated(store: Tables, db: Any) -> None:
    """The frozen rows are all there and the new tables work."""
    game_id = GAME
    game = store.games.load_game(game_id)
    assert game is not None
    assert [move.san for move in game.moves] == ["e4", "e5", "Nf3"]
    assert game.settings["names"][0] == "Alice" and game.header["friend_name"] == "Bob"
    assert game.version == 5 and game.accounts == {}
    assert len(store.games.changes_since(game_id, 0)) == 5
    review = store.reviews.find_review(game_id)
    assert review is not None and review.id == "rev12345" and review.status == "done"
    seeks = store.lobby.list_seeks(10)
    assert [(seek.id, seek.body["name"]) for seek in seeks] == [("seek1234", "Carol")]
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    assert row[0] == migrations.LATEST
    user_id = store.accounts.create_user(("Dana", "dana", "hash"), [("abcd", "code-hash")])
    assert store.accounts.user_by_key("dana").name == "Dana"  # type: ignore[union-attr]
    assert store.accounts.claim_seats(user_id, [(game_id, "no such token")]) == []
    store.accounts.link_seat(game_id, 1, user_id)
    assert store.games.load_game(game_id).accounts == {1: user_id}  # type: ignore[union-attr]


def sqlite_from(script: str, folder: Path) -> Path:
    path = folder / "games.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(script)
    db.close()
    return path


def test_a_sqlite_file_of_main_before_versions_is_migrated(tmp_path: Path) -> None:
    path = sqlite_from((DATA / "schema_v0.sqlite.sql").read_text(), tmp_path)
    store = sqlite_tables(path)
    try:
        check_kept_and_migrated(store, store.database.db)
    finally:
        store.close()
    again = sqlite_tables(path)  # opening again applies nothing and keeps everything
    try:
        versions = again.database.db.execute("SELECT version FROM schema_version").fetchall()
        assert [version for (version,) in versions] == [m.version for m in migrations.MIGRATIONS]
        assert again.accounts.user_by_key("dana") is not None
    finally:
        again.close()


def test_an_empty_sqlite_file_gets_every_migration(tmp_path: Path) -> None:
    store = sqlite_tables(tmp_path / "games.sqlite3")
    try:
        versions = store.database.db.execute("SELECT version FROM schema_version").fetchall()
        assert [version for (version,) in versions] == [m.version for m in migrations.MIGRATIONS]
        tables = {row[0] for row in store.database.db.execute("SELECT name FROM sqlite_master")}
        assert {"games", "seats", "users", "sessions", "recovery_codes"} <= tables
    finally:
        store.close()


def test_a_sqlite_file_older_than_the_last_change_time_is_migrated(tmp_path: Path) -> None:
    """The ad-hoc migration of before (games.updated) is migration 2 now."""
    old = (DATA / "schema_v0.sqlite.sql").read_text()
    old = old.replace(",\n    updated REAL NOT NULL\n", "\n").replace(
        "CREATE INDEX games_idle ON games(active, updated) WHERE active = 1;\n", ""
    )
    lines = [
        line.rsplit(",", 1)[0] + ");" if line.startswith('INSERT INTO "games"') else line
        for line in old.splitlines()
    ]
    path = sqlite_from("\n".join(lines), tmp_path)
    store = sqlite_tables(path)
    try:
        assert store.games.idle_games(0.0) == []  # counted from the upgrade, not from 1970
        check_kept_and_migrated(store, store.database.db)
    finally:
        store.close()


def test_a_failed_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    """A database whose step 3 cannot apply (a `users` table of some other making) stays at
    version 2 with nothing of step 3 written, and says why."""
    path = tmp_path / "games.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE users (stranger TEXT)")
    db.close()
    with pytest.raises(sqlite3.OperationalError, match="users"):
        sqlite_tables(path)
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 2
        columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
        assert "account_id" not in columns
    finally:
        db.close()


database = module_postgres()


@pytest.mark.cluster
@pytest.mark.server
def test_a_postgres_database_of_main_before_versions_is_migrated(database: str) -> None:
    import psycopg

    from tests.support.stored import postgres_tables

    with psycopg.connect(database, autocommit=True) as db:
        db.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        db.execute((DATA / "schema_v0.postgres.sql").read_text())
    store = postgres_tables(database)
    try:
        with psycopg.connect(database, autocommit=True) as db:
            check_kept_and_migrated(store, db)
    finally:
        store.close()
    again = postgres_tables(database)
    try:
        with psycopg.connect(database, autocommit=True) as db:
            versions = db.execute("SELECT version FROM schema_version ORDER BY version")
            assert [version for (version,) in versions.fetchall()] == [
                m.version for m in migrations.MIGRATIONS
            ]
        assert again.accounts.user_by_key("dana") is not None
    finally:
        again.close()


@pytest.mark.cluster
@pytest.mark.server
def test_an_empty_postgres_database_gets_every_migration(database: str) -> None:
    import psycopg

    from tests.support.stored import postgres_tables

    with psycopg.connect(database, autocommit=True) as db:
        db.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    store = postgres_tables(database)
    try:
        user_id = store.accounts.create_user(("Erin", name_key("Erin"), "hash"), [])
        store.accounts.add_session("id-hash", user_id)
        assert store.accounts.session_user("id-hash", 0.0).name == "Erin"  # type: ignore[union-attr]
        store.accounts.set_password(user_id, "new hash")
        assert store.accounts.session_user("id-hash", 0.0) is None  # a new password ends sessions
        assert store.accounts.account_by_name("ERIN").id == user_id  # type: ignore[union-attr]
        store.accounts.delete_user(user_id)
        assert store.accounts.account_by_name("erin") is None
    finally:
        store.close()


def test_accounts_made_under_the_old_key_are_keyed_again(tmp_path: Path) -> None:
    """Migration 7 on accounts stored by migration 6's key (the bare skeleton, `-` and digits
    kept): each takes the key that folds them, unless another account holds that key already,
    and of two whose new keys meet the older takes it; the others keep their old keys."""
    from server.accounts.tables import rekey_names
    from server.accounts.usernames import legacy_name_key

    tables = sqlite_tables(tmp_path / "games.sqlite3")
    try:
        names = ["Old-Timer", "Ab-3c", "Ab_3c", "Zeta", "Z3ta"]
        ids = {
            name: tables.accounts.create_user((name, legacy_name_key(name), "x"), [])
            for name in names
        }
        assert tables.accounts.account_by_name("OldTimer") is None  # not found by the new key
        with tables.database.transaction() as db:
            rekey_names(db, tables.database)

        def holder(key: str) -> int | None:
            user = tables.accounts.user_by_key(key)
            return None if user is None else user.id

        assert holder(name_key("OldTimer")) == ids["Old-Timer"]
        assert name_key("Ab-3c") == name_key("Ab_3c")
        assert holder(name_key("Ab-3c")) == ids["Ab-3c"]  # the older of the two
        assert holder(legacy_name_key("Ab_3c")) == ids["Ab_3c"]  # the later keeps its old key
        assert name_key("Z3ta") == legacy_name_key("Zeta")
        assert holder(name_key("Z3ta")) == ids["Zeta"]  # held already: it stays
        assert holder(legacy_name_key("Z3ta")) == ids["Z3ta"]
    finally:
        tables.close()
