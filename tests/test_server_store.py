"""The SQLite store: the version guard, the (game, ply) key, the change log, reopening."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from server.games.play import MoveRecord
from server.games.stored import StaleVersionError, StoredChange, StoredGame
from server.tables import Tables
from tests.support.stored import HEADER, sqlite_tables


def make_store(tmp_path: Path) -> Tables:
    store = sqlite_tables(tmp_path / "games.sqlite3")
    store.games.create_game(
        StoredGame("g" * 12, {"opponent": "friend"}, HEADER, 0, []), {0: "hash-w"}
    )
    return store


def move_change(version: int, ply: int, uci: str) -> StoredChange:
    event = {"version": version, "type": "move", "uci": uci}
    return StoredChange(version, HEADER, event, True, [(ply, MoveRecord(uci, uci))])


def test_changes_apply_in_order_and_are_logged(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.games.commit("g" * 12, move_change(1, 0, "e2e4"))
    store.games.commit("g" * 12, move_change(2, 1, "e7e5"))
    loaded = store.games.load_game("g" * 12)
    assert loaded is not None and loaded.version == 2
    assert [record.uci for record in loaded.moves] == ["e2e4", "e7e5"]
    assert [change["uci"] for change in store.games.changes_since("g" * 12, 1)] == ["e7e5"]
    assert store.games.load_if_changed("g" * 12, 2) is None
    changed = store.games.load_if_changed("g" * 12, 1)
    assert changed is not None and changed.version == 2 and changed.moves == loaded.moves
    assert (
        store.games.seat_color("g" * 12, "hash-w") == 0
        and store.games.seat_color("g" * 12, "nope") is None
    )


@pytest.mark.parametrize(
    "duplicate",
    [move_change(1, 1, "d2d4"), move_change(2, 0, "d2d4")],
    ids=["same_version", "same_ply"],
)
def test_a_stale_change_is_refused_and_leaves_nothing(
    tmp_path: Path, duplicate: StoredChange
) -> None:
    store = make_store(tmp_path)
    store.games.commit("g" * 12, move_change(1, 0, "e2e4"))
    with pytest.raises(StaleVersionError):
        store.games.commit("g" * 12, duplicate)
    loaded = store.games.load_game("g" * 12)
    assert loaded is not None and loaded.version == 1
    assert [record.uci for record in loaded.moves] == ["e2e4"]
    assert len(store.games.changes_since("g" * 12, 0)) == 1


def test_a_takeback_drops_moves_and_reopening_keeps_everything(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.games.commit("g" * 12, move_change(1, 0, "e2e4"))
    store.games.commit("g" * 12, move_change(2, 1, "e7e5"))
    takeback = StoredChange(3, HEADER, {"version": 3, "type": "accept"}, True, [], keep_plies=1)
    store.games.commit("g" * 12, takeback)
    store.close()
    reopened = sqlite_tables(tmp_path / "games.sqlite3")
    loaded = reopened.games.load_game("g" * 12)
    assert loaded is not None and loaded.version == 3
    assert [record.uci for record in loaded.moves] == ["e2e4"]
    assert reopened.games.active_game_ids() == ["g" * 12]
    assert reopened.database.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_idle_games_are_the_active_ones_unchanged_since(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.games.create_game(StoredGame("h" * 12, {"opponent": "friend"}, HEADER, 0, []), {})
    store.games.create_game(StoredGame("i" * 12, {"opponent": "friend"}, HEADER, 0, []), {})
    ended = StoredChange(1, {**HEADER, "status": "aborted"}, {"type": "abort"}, False, [])
    store.games.commit("i" * 12, ended)
    # Two days ago for every game, then a move brings one back to now.
    store.database.db.execute("UPDATE games SET updated = updated - 172800")
    store.games.commit("g" * 12, move_change(1, 0, "e2e4"))
    idle = store.games.idle_games(time.time() - 86400)
    assert [(game.id, game.version, game.header) for game in idle] == [("h" * 12, 0, HEADER)]
    assert {game.id for game in store.games.idle_games(time.time() + 1)} == {"g" * 12, "h" * 12}
    plan = store.database.db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE active = 1 AND updated < 0"
    ).fetchall()
    assert "games_idle" in str(plan), plan


OLD_GAMES_TABLE = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, settings TEXT NOT NULL, header TEXT NOT NULL, version INTEGER NOT NULL,
    invite_hash TEXT, active INTEGER NOT NULL, created REAL NOT NULL
);
"""


def test_a_file_from_before_the_last_change_time_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(OLD_GAMES_TABLE)
        old.execute(
            "INSERT INTO games VALUES (?, ?, ?, 3, NULL, 1, 1.0)",
            ("g" * 12, json.dumps({"opponent": "friend"}), json.dumps(HEADER)),
        )
    before = time.time()
    store = sqlite_tables(path)
    # Its true last change is unknown: it counts from the upgrade, so it is not idle yet.
    assert store.games.idle_games(before - 1) == []
    assert [game.id for game in store.games.idle_games(time.time() + 1)] == ["g" * 12]
    store.games.commit("g" * 12, move_change(4, 0, "e2e4"))
    store.close()
    reopened = sqlite_tables(path)  # a second open finds the column and changes nothing
    loaded = reopened.games.load_game("g" * 12)
    assert loaded is not None and loaded.version == 4
