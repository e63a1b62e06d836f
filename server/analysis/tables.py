"""The shared analysis boards' table (server.analysis): each tree as PGN text under its short
id, with when it was shared."""

from __future__ import annotations

import time

from server.storage.database import Connection, Database
from server.storage.migrations import run

ANALYSIS_TABLE = """
CREATE TABLE IF NOT EXISTS analyses (
    id TEXT PRIMARY KEY,
    pgn TEXT NOT NULL,
    created BIGINT NOT NULL
);
"""


def create_table(db: Connection, database: Database) -> None:
    """Migration 1 (with the other first tables): analyses."""
    run(db, ANALYSIS_TABLE)


class AnalysisTables:
    """The shared trees in `database`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    def save_analysis(self, analysis_id: str, pgn: str) -> None:
        """Store a shared analysis tree (its PGN) under a new id."""
        with self.database.connection() as db:
            db.execute(
                self.sql("INSERT INTO analyses (id, pgn, created) VALUES (?, ?, ?)"),
                (analysis_id, pgn, int(time.time())),
            )

    def load_analysis(self, analysis_id: str) -> str | None:
        """The PGN of a shared analysis tree, None for an unknown id."""
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT pgn FROM analyses WHERE id = ?"), (analysis_id,)
            ).fetchone()
        return None if row is None else str(row[0])
