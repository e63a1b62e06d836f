"""The accounts' preferences in the store: one row per account that saved any, its
preferences as the JSON object the settings page sends (server.preferences.choices), so a
preference added later needs no migration (a row without it has the default)."""

from __future__ import annotations

import json

from server.preferences.choices import Preferences, parse_preferences, preferences_json
from server.shared.errors import RequestError
from server.storage.database import Connection, Database
from server.storage.migrations import run


def create_table(db: Connection, database: Database) -> None:
    """Migration 9: the accounts' preferences."""
    run(
        db,
        """
CREATE TABLE preferences (
    account_id INTEGER PRIMARY KEY REFERENCES users(id),
    data TEXT NOT NULL
);
""",
    )


class PreferenceTables:
    """The preferences' rows in `database`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    def load(self, account_id: int) -> Preferences | None:
        """The account's saved preferences, or None if it never saved any."""
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT data FROM preferences WHERE account_id = ?"), (account_id,)
            ).fetchone()
        if row is None:
            return None
        try:
            return parse_preferences(json.loads(row[0]))
        except (ValueError, RequestError):  # a preference since withdrawn: start afresh
            return None

    def save(self, account_id: int, preferences: Preferences) -> None:
        data = json.dumps(preferences_json(preferences), separators=(",", ":"))
        with self.database.transaction() as db:
            db.execute(
                self.sql(
                    "INSERT INTO preferences (account_id, data) VALUES (?, ?)"
                    " ON CONFLICT (account_id) DO UPDATE SET data = excluded.data"
                ),
                (account_id, data),
            )

    def forget_account(self, db: Connection, account_id: int) -> None:
        """A deleted account's preferences go with it (AccountTables' `forget`)."""
        db.execute(self.sql("DELETE FROM preferences WHERE account_id = ?"), (account_id,))
