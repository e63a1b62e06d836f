"""SQLite's checkpoints on their own thread (server.storage.checkpoints): a commit never copies
the log into the file; the checkpointer does, within a few of its periods."""

from __future__ import annotations

import threading
from pathlib import Path

from server.storage.sqlite import SqliteDatabase

ROWS = 2000  # about 120 pages of the log: far below the 1,000 of an automatic checkpoint


def _fill(database: SqliteDatabase) -> None:
    with database.transaction() as db:
        db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    for batch in range(0, ROWS, 100):  # 20 commits, each of about 6 pages
        with database.transaction() as db:
            for index in range(batch, batch + 100):
                db.execute("INSERT INTO notes (body) VALUES (?)", (f"note {index} " + "x" * 200,))


def _file_holds_the_rows(path: Path) -> bool:
    return path.stat().st_size > ROWS * 200


def test_the_checkpointer_copies_the_log_into_the_file(tmp_path: Path) -> None:
    path = tmp_path / "checkpointed.sqlite3"
    database = SqliteDatabase(path, checkpoint_seconds=0.2)
    try:
        _fill(database)
        waited = threading.Event()
        for _ in range(100):  # up to 10 s: the checkpointer runs every 0.2 s
            if _file_holds_the_rows(path):
                break
            waited.wait(0.1)
        assert _file_holds_the_rows(path)
        with database.connection() as db:
            assert db.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == ROWS
    finally:
        database.close()


def test_without_the_checkpointer_the_rows_stay_in_the_log(tmp_path: Path) -> None:
    """What the first test rules out: the rows reached the file by a checkpoint, not by a
    commit (SQLite's own would wait for 1,000 pages)."""
    path = tmp_path / "plain.sqlite3"
    database = SqliteDatabase(path)
    try:
        _fill(database)
        assert not _file_holds_the_rows(path)
    finally:
        database.close()
