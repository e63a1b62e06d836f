"""What the store tests share: the header of a game in play, as a store holds it, and every
domain's tables opened on a database of either dialect (server.tables)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.storage.sqlite import SqliteDatabase
from server.tables import Tables, build_tables

HEADER: dict[str, Any] = {
    "status": "playing",
    "outcome": None,
    "clock": None,
    "offers": [],
    "seated": [0],
    "rematch": None,
}


def sqlite_tables(path: Path, synchronous: str = "NORMAL", *, shared: bool = False) -> Tables:
    """Every domain's tables in the SQLite file at `path` (made or migrated on open)."""
    return build_tables(SqliteDatabase(path, synchronous, shared=shared))


def postgres_tables(url: str) -> Tables:
    """Every domain's tables in the PostgreSQL database at `url` (migrated on open)."""
    from server.storage.postgres import PostgresDatabase

    return build_tables(PostgresDatabase(url))
