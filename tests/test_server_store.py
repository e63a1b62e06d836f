"""The SQLite store: the version guard, the (game, ply) key, the change log, reopening."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.games import MoveRecord
from server.store import StaleVersionError, StoredChange, StoredGame
from server.store_sqlite import SqliteStore

HEADER = {
    "status": "playing",
    "outcome": None,
    "clock": None,
    "offers": [],
    "seated": [0],
    "rematch": None,
}


def make_store(tmp_path: Path) -> SqliteStore:
    store = SqliteStore(tmp_path / "games.sqlite3")
    store.create_game(StoredGame("g" * 12, {"opponent": "friend"}, HEADER, 0, []), {0: "hash-w"})
    return store


def move_change(version: int, ply: int, uci: str) -> StoredChange:
    event = {"version": version, "type": "move", "uci": uci}
    return StoredChange(version, HEADER, event, True, [(ply, MoveRecord(uci, uci))])


def test_changes_apply_in_order_and_are_logged(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.commit("g" * 12, move_change(1, 0, "e2e4"))
    store.commit("g" * 12, move_change(2, 1, "e7e5"))
    loaded = store.load_game("g" * 12)
    assert loaded is not None and loaded.version == 2
    assert [record.uci for record in loaded.moves] == ["e2e4", "e7e5"]
    assert [change["uci"] for change in store.changes_since("g" * 12, 1)] == ["e7e5"]
    assert store.load_if_changed("g" * 12, 2) is None
    changed = store.load_if_changed("g" * 12, 1)
    assert changed is not None and changed.version == 2 and changed.moves == loaded.moves
    assert store.seat_color("g" * 12, "hash-w") == 0 and store.seat_color("g" * 12, "nope") is None


@pytest.mark.parametrize(
    "duplicate",
    [move_change(1, 1, "d2d4"), move_change(2, 0, "d2d4")],
    ids=["same_version", "same_ply"],
)
def test_a_stale_change_is_refused_and_leaves_nothing(
    tmp_path: Path, duplicate: StoredChange
) -> None:
    store = make_store(tmp_path)
    store.commit("g" * 12, move_change(1, 0, "e2e4"))
    with pytest.raises(StaleVersionError):
        store.commit("g" * 12, duplicate)
    loaded = store.load_game("g" * 12)
    assert loaded is not None and loaded.version == 1
    assert [record.uci for record in loaded.moves] == ["e2e4"]
    assert len(store.changes_since("g" * 12, 0)) == 1


def test_a_takeback_drops_moves_and_reopening_keeps_everything(tmp_path: Path) -> None:
    store = make_store(tmp_path)
    store.commit("g" * 12, move_change(1, 0, "e2e4"))
    store.commit("g" * 12, move_change(2, 1, "e7e5"))
    takeback = StoredChange(3, HEADER, {"version": 3, "type": "accept"}, True, [], keep_plies=1)
    store.commit("g" * 12, takeback)
    store.close()
    reopened = SqliteStore(tmp_path / "games.sqlite3")
    loaded = reopened.load_game("g" * 12)
    assert loaded is not None and loaded.version == 3
    assert [record.uci for record in loaded.moves] == ["e2e4"]
    assert reopened.active_game_ids() == ["g" * 12]
    assert reopened.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
