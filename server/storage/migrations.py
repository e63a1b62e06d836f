"""Versioned schema migrations, written once for both SQL back ends.

A database records its schema's version in `schema_version` (one row per migration applied,
with when). `MIGRATIONS` are numbered from 1 and applied in order, each in one transaction
of its own that also records its number, so a database is always at a version some release
had, and a migration cut short by a crash is rolled back whole and run again at the next
start. A database made before versions existed (no `schema_version`: "version 0") has
some of the early tables already; the first migrations are written to find them
(`CREATE ... IF NOT EXISTS`, a column added only when missing), so version 0 and an empty
database take the same path.

The back end says how its dialect differs (`Dialect`): its placeholder, its `games` table, an
auto-numbered key, how to list a table's columns, and how to hold the migration lock (SQLite:
`BEGIN IMMEDIATE`; PostgreSQL: a transaction holding an advisory lock), so processes starting
together apply each migration once.

Why not SQLAlchemy and Alembic: the stores' hot paths (a move's commit) are a statement or
two, measured against a 5 % budget, and the two dialects differ in a few column types only;
a table of plain SQL steps keeps both visible here without a layer between
(docs/architecture.md, "Storage and its migrations").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

from server.storage.history import HISTORY_TABLE
from server.storage.interface import ANALYSIS_TABLE, GAME_RECORD_TABLES
from server.storage.ratings import RATING_TABLES
from server.storage.reviews import REVIEW_TABLE
from server.storage.seeks import SEEK_TABLES, Database, sql

VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied DOUBLE PRECISION NOT NULL
)"""


@dataclass(frozen=True)
class Dialect:
    """What a migration needs to know of a back end's SQL."""

    name: str  # "sqlite" or "postgres"
    placeholder: str
    games_table: str  # the dialect's CREATE TABLE games (active as it stores a flag)
    active: str  # the condition "the game is active" in this dialect
    serial_key: str  # an auto-numbered integer primary key
    columns: Callable[[Database, str], set[str]]  # a table's column names
    transaction: Callable[[], AbstractContextManager[Database]]  # one locked transaction


def statements(script: str) -> Iterator[str]:
    """The statements of `script`, one at a time (sqlite3 runs one per call; `executescript`
    would commit the migration's transaction half way)."""
    for statement in script.split(";"):
        if statement.strip():
            yield statement.strip()


def run(db: Database, dialect: Dialect, script: str) -> None:
    for statement in statements(script):
        db.execute(statement)


def base_schema(db: Database, dialect: Dialect) -> None:
    """1: the tables of the first releases (version 0 has them already)."""
    run(db, dialect, dialect.games_table + GAME_RECORD_TABLES + ANALYSIS_TABLE + REVIEW_TABLE)
    run(
        db,
        dialect,
        f"CREATE INDEX IF NOT EXISTS games_active ON games(active) WHERE {dialect.active}",
    )
    run(db, dialect, SEEK_TABLES)


def last_change_time(db: Database, dialect: Dialect) -> None:
    """2: when each game last changed, to find the abandoned ones through an index. Games
    stored before it get the time of the upgrade: their true last change is not known, and
    counting from now never ends a game in play too soon."""
    if "updated" not in dialect.columns(db, "games"):
        db.execute("ALTER TABLE games ADD COLUMN updated DOUBLE PRECISION NOT NULL DEFAULT 0")
        db.execute(sql("UPDATE games SET updated = ?", dialect.placeholder), (time.time(),))
    db.execute(
        f"CREATE INDEX IF NOT EXISTS games_idle ON games(active, updated) WHERE {dialect.active}"
    )


def accounts(db: Database, dialect: Dialect) -> None:
    """3: accounts (server.accounts): users, their sessions and recovery codes, and the
    account a seat was taken by (NULL: a visitor without one)."""
    run(
        db,
        dialect,
        f"""
CREATE TABLE users (
    id {dialect.serial_key},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    claimed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created DOUBLE PRECISION NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE recovery_codes (
    user_id INTEGER NOT NULL REFERENCES users(id),
    code_id TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (user_id, code_id)
);
ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES users(id);
CREATE INDEX seats_account ON seats(account_id) WHERE account_id IS NOT NULL;
""",
    )


def passkeys(db: Database, dialect: Dialect) -> None:
    """4: passkeys (server.accounts.passkeys), a second way to sign in: each credential's id
    and public key (base64url), its signature counter, and its user."""
    run(
        db,
        dialect,
        """
CREATE TABLE passkeys (
    credential_id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX passkeys_user ON passkeys(user_id);
""",
    )


def rating_tables(db: Database, dialect: Dialect) -> None:
    """5: ratings per account and speed, and a row per account and rated game
    (server.storage.ratings)."""
    run(db, dialect, RATING_TABLES)


def game_history(db: Database, dialect: Dialect) -> None:
    """6: the mover's clock after each move (`MoveRecord.clock_ms`, the export's `[%clk]`;
    empty for the moves stored before), the players' game history (server.storage.history)
    and an index of the rating history by time for the profile's graph."""
    if "clock_ms" not in dialect.columns(db, "moves"):
        db.execute("ALTER TABLE moves ADD COLUMN clock_ms INTEGER")
    run(db, dialect, HISTORY_TABLE)
    # The profile's rating graph reads an account's latest rated games of every speed
    # (server.storage.ratings.history): without it, all of them are sorted for each page.
    db.execute("CREATE INDEX rating_history_played ON rating_history(account_id, played)")


# (version, what it does, the step): append only; a released step is never edited.
MIGRATIONS: tuple[tuple[int, str, Callable[[Database, Dialect], None]], ...] = (
    (1, "the first releases' tables", base_schema),
    (2, "games.updated and its index", last_change_time),
    (3, "accounts: users, sessions, recovery codes, seats.account_id", accounts),
    (4, "passkeys", passkeys),
    (5, "ratings and rating_history", rating_tables),
    (6, "moves.clock_ms, the players' game history, rating_history by time", game_history),
)
LATEST = MIGRATIONS[-1][0]


def migrate(dialect: Dialect) -> list[int]:
    """Apply the migrations the database lacks, each in its own transaction; the versions
    applied (none when it was up to date)."""
    applied = []
    for version, _, step in MIGRATIONS:
        with dialect.transaction() as db:
            db.execute(VERSION_TABLE)
            if schema_version(db) >= version:
                continue
            step(db, dialect)
            db.execute(
                sql(
                    "INSERT INTO schema_version (version, applied) VALUES (?, ?)",
                    dialect.placeholder,
                ),
                (version, time.time()),
            )
            applied.append(version)
    return applied


def schema_version(db: Database) -> int:
    """The database's version (0: made before versions were recorded, or empty)."""
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return 0 if row is None or row[0] is None else int(row[0])
