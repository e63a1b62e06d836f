"""SQLite: the embedded default, one file under the instance folder (`server.storage.open`).

The file is in WAL mode, so readers never wait for the writer. The server opens it with
`synchronous=NORMAL` (server/shared/config.py): a committed change survives a `kill -9` of the
server, and `FULL` adds an fsync per commit so it survives a power cut too. One connection is
shared under a lock: SQLite serialises writers anyway, and the lock keeps Python's connection
object safe across the server's threads. Every transaction begins with `BEGIN IMMEDIATE`, which
takes the write lock up front, so two processes never interleave a change and a transaction
never fails half way for a lock it could not upgrade; that serialises every kind of work at
once, so the named locks of `Database.transaction` need nothing more here.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server.storage.database import Connection, Database

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


class SqliteDatabase(Database):
    """A database in one SQLite file."""

    dialect = "sqlite"
    placeholder = "?"
    serial_key = "INTEGER PRIMARY KEY AUTOINCREMENT"
    unique_violation = (sqlite3.IntegrityError,)

    def __init__(self, path: Path, synchronous: str = "NORMAL", *, shared: bool = False) -> None:
        # The server gives each process its own file, so its cached games are the stored ones;
        # `shared=True` is for a file opened twice in one process (tests of what a shared
        # database would see).
        self.shared = shared
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(
                f"SQLite synchronous mode {synchronous!r} is not one of {SYNCHRONOUS_MODES}"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        self.mutex = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.execute("PRAGMA foreign_keys=ON")

    def flag(self, column: str) -> str:
        return f"{column} = 1"

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        with self.mutex:
            yield self.db

    @contextmanager
    def transaction(self, lock: int = 0) -> Iterator[Connection]:
        with self.mutex:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def lock(self, db: Connection, key: int) -> None:
        """Nothing to take: `BEGIN IMMEDIATE` holds the one write lock already."""

    def columns(self, db: Connection, table: str) -> set[str]:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}

    def close(self) -> None:
        with self.mutex:
            self.db.close()
