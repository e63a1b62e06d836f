"""An account's language: the one its pages, messages and sentences are shown in, whatever
browser it signs in from (server.i18n chooses it before the browser's cookie and header).

Kept as a column of `users` (migration 9), empty until the owner picks one in the settings or
the picker of any page while signed in. Read once per request, only for a signed-in request.
"""

from __future__ import annotations

from flask import g

from server.accounts.identity import current_account
from server.storage.database import Connection, Database
from server.storage.migrations import run


def add_column(db: Connection, database: Database) -> None:
    """Migration 9: `users.language`, a language code of server.i18n.LANGUAGES or NULL."""
    run(db, "ALTER TABLE users ADD COLUMN language TEXT;")


class AccountLanguages:
    """The accounts' languages in `database`, for the current request's account."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def read(self) -> str | None:
        """The signed-in account's language, None when it has none or nobody is signed in."""
        account = current_account()
        if account is None:
            return None
        if "account_language" not in g:
            with self.database.connection() as db:
                row = db.execute(
                    self.database.sql("SELECT language FROM users WHERE id = ?"), (account.id,)
                ).fetchone()
            g.account_language = None if row is None else row[0]
        language: str | None = g.account_language
        return language

    def keep(self, language: str) -> None:
        """Keep `language` as the signed-in account's (nothing for a visitor)."""
        account = current_account()
        if account is None:
            return
        with self.database.transaction() as db:
            db.execute(
                self.database.sql("UPDATE users SET language = ? WHERE id = ?"),
                (language, account.id),
            )
        g.account_language = language
