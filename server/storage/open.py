"""Opening the configured database: PostgreSQL when `DATABASE_URL` is set (several processes
share it), else SQLite in `games.sqlite3` under the instance folder (`SQLITE_SYNCHRONOUS`, see
server.shared.config). Its schema is brought up to date by the caller, who knows the domains'
migrations (server.tables)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.storage.database import Database


def open_database(instance_path: str, config: dict[str, Any]) -> Database:
    """The configured database (`config`: the app's settings)."""
    if config.get("DATABASE_URL"):
        from server.storage.postgres import PostgresDatabase

        return PostgresDatabase(str(config["DATABASE_URL"]))
    from server.storage.sqlite import SqliteDatabase

    path = Path(instance_path) / "games.sqlite3"
    return SqliteDatabase(path, synchronous=str(config["SQLITE_SYNCHRONOUS"]))
