"""Known devices: a random id each browser gets at its first successful sign-in, and the
accounts it has signed in to since, which it may then try without the account's failure wait
(server.accounts.limits).

Without it anyone could keep an owner out of their account (and out of recovery, password
change and deletion) by one wrong guess each time the per-account wait ends. The id is per
browser (kept across sign-ins to other accounts: the fair-play sightings name a browser by it,
server.accounts.sightings) and random, so a copied cookie lifts the wait of the accounts that
browser signed in to only, and only until their password changes or is recovered, which ends
every device of the account. The store keeps its SHA-256 with each account (`known_devices`),
never the id. A browser holding it is still limited per address, like every request that checks
a secret, so a thief of the cookie guesses no faster than any single address.
"""

from __future__ import annotations

import secrets
import time

from server.shared.tokens import hash_token
from server.storage.database import Connection, Database
from server.storage.migrations import run

COOKIE = "known_device"
# A year: the owner signs in now and then, and each sign-in sets it again.
MAX_AGE = 365 * 24 * 3600
# Accounts one browser is known to at most, and browsers one account knows (the oldest go).
MAX_ROWS = 20


def create_table(db: Connection, database: Database) -> None:
    """Migration 8: the accounts each browser (its id's SHA-256) signed in to."""
    run(
        db,
        """
CREATE TABLE known_devices (
    device_hash TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (device_hash, user_id)
);
CREATE INDEX known_devices_user ON known_devices(user_id);
""",
    )


def is_device_id(cookie: str | None) -> bool:
    """Whether `cookie` has the form of an id this module makes."""
    return (
        isinstance(cookie, str)
        and len(cookie) == 32
        and all(c.isalnum() or c in "-_" for c in cookie)
    )


def device_id(cookie: str | None) -> str:
    """The browser's id: the one its cookie holds, or a new one."""
    return str(cookie) if is_device_id(cookie) else secrets.token_urlsafe(24)


class Devices:
    """The known devices in `database`."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    def remember(self, device: str, account_id: int) -> None:
        """The browser `device` signed in to `account_id`."""
        device_hash = hash_token(device)
        with self.database.transaction() as db:
            db.execute(
                self.sql(
                    "INSERT INTO known_devices (device_hash, user_id, created) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING"
                ),
                (device_hash, account_id, time.time()),
            )
            for column, value in (("device_hash", device_hash), ("user_id", account_id)):
                db.execute(
                    self.sql(
                        f"DELETE FROM known_devices WHERE {column} = ? AND created < (SELECT"
                        f" MIN(created) FROM (SELECT created FROM known_devices WHERE {column} = ?"
                        " ORDER BY created DESC LIMIT ?) AS newest)"
                    ),
                    (value, value, MAX_ROWS),
                )

    def is_known(self, cookie: str | None, account_id: int) -> bool:
        """Whether the browser holding `cookie` signed in to `account_id` since its password
        was last set."""
        if not is_device_id(cookie):
            return False
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT 1 FROM known_devices WHERE device_hash = ? AND user_id = ?"),
                (hash_token(str(cookie)), account_id),
            ).fetchone()
        return row is not None
