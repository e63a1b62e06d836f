"""Versioned schema migrations: the runner, for the steps every domain contributes.

A database records its schema's version in `schema_version` (one row per migration applied,
with when). Migrations are numbered from 1 and applied in order, each in one transaction of
its own that also records its number, so a database is always at a version some release had,
and a migration cut short by a crash is rolled back whole and run again at the next start. A
database made before versions existed (no `schema_version`: "version 0") has some of the early
tables already; the first migrations are written to find them (`CREATE ... IF NOT EXISTS`, a
column added only when missing), so version 0 and an empty database take the same path.

The steps are the domains' (each domain's `tables` module writes its own tables' SQL); the
list of them, in order, is assembled above every domain (server.tables), since a migration may
touch several. Processes starting together apply each migration once: its transaction holds
`SCHEMA_LOCK`.

Why not SQLAlchemy and Alembic: the hot paths (a move's commit) are a statement or two,
measured against a 5 % budget, and the two dialects differ in a few column types only; a
table of plain SQL steps keeps both visible without a layer between (docs/architecture.md,
"Storage and its migrations").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from server.storage.database import Connection, Database

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied DOUBLE PRECISION NOT NULL
)"""

# Processes starting together would race on CREATE TABLE IF NOT EXISTS (it is not atomic in
# PostgreSQL): with this arbitrary key one migrates the schema at a time.
SCHEMA_LOCK = 0x43485353

# One step of a migration: SQL run on the migration's connection, in the database's dialect.
Step = Callable[[Connection, Database], None]


@dataclass(frozen=True)
class Migration:
    """Migration `version`: what it does, and its steps, run in order in one transaction.
    Append only: a released migration is never edited."""

    version: int
    what: str
    steps: tuple[Step, ...]


def statements(script: str) -> Iterator[str]:
    """The statements of `script`, one at a time (sqlite3 runs one per call; `executescript`
    would commit the migration's transaction half way)."""
    for statement in script.split(";"):
        if statement.strip():
            yield statement.strip()


def run(db: Connection, script: str) -> None:
    """Every statement of `script` (SQL both dialects read alike)."""
    for statement in statements(script):
        db.execute(statement)


def migrate(database: Database, migrations: Sequence[Migration]) -> list[int]:
    """Apply the migrations the database lacks, each in its own transaction; the versions
    applied (none when it was up to date)."""
    applied = []
    for migration in migrations:
        with database.transaction(SCHEMA_LOCK) as db:
            db.execute(VERSION_TABLE)
            if schema_version(db) >= migration.version:
                continue
            for step in migration.steps:
                step(db, database)
            db.execute(
                database.sql("INSERT INTO schema_version (version, applied) VALUES (?, ?)"),
                (migration.version, time.time()),
            )
            applied.append(migration.version)
    return applied


def schema_version(db: Connection) -> int:
    """The database's version (0: made before versions were recorded, or empty)."""
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return 0 if row is None or row[0] is None else int(row[0])
