"""Where each account was seen lately: the addresses and browsers it signed in or played from,
so that two accounts one person holds cannot play each other rated (docs/ratings.md, "Fair
play").

An account is seen from an address (its per-address key, server.edge.clients) and from a
browser (its known-device id, server.accounts.devices) when it signs up or in and when it
enters the lobby. Each is stored as a keyed hash (HMAC-SHA256 under the app's secret, cut to
16 bytes): the table says whether two accounts met, never where anyone was. Two accounts seen
from one address or one browser within `APART_SECONDS` of now are "seen together"; the lobby
and the rematch refuse them a rated game (`same_player`). The table is in the store, so every
process of a cluster sees the same sightings; an account keeps at most `MAX_PER_ACCOUNT` of
them, the newest, and those older than the window are dropped when it is seen again.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from collections.abc import Callable

from server.storage.database import Connection, Database
from server.storage.migrations import run

# A day: long enough that one person cannot alternate accounts within a session of play, short
# enough that two flatmates on one connection may play each other rated again tomorrow
# (lichess asks the same of accounts on one address: docs/ratings.md).
APART_SECONDS = 24 * 3600.0
MAX_PER_ACCOUNT = 20
# A sighting already stored is written again at most this often (not a write per request).
REFRESH_SECONDS = 300.0


def create_table(db: Connection, database: Database) -> None:
    """Migration 8: accounts' sightings (`kind`: "address" or "device"; `mark`: its keyed
    hash; `seen`: wall-clock seconds)."""
    run(
        db,
        """
CREATE TABLE account_sightings (
    account_id INTEGER NOT NULL REFERENCES users(id),
    kind TEXT NOT NULL,
    mark TEXT NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, kind, mark)
);
""",
    )


class Sightings:
    """The accounts' sightings in `database`, hashed under `secret`."""

    def __init__(
        self,
        database: Database,
        secret: bytes,
        apart: float = APART_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.database = database
        self.sql = database.sql
        self.secret = secret
        self.apart = apart
        self.clock = clock

    def mark(self, kind: str, value: str) -> str:
        return hmac.new(self.secret, f"{kind}\x00{value}".encode(), hashlib.sha256).hexdigest()[:32]

    def seen(self, account_id: int, address: str, device: str | None = None) -> None:
        """`account_id` was seen now from `address` (and the browser `device`, if known)."""
        if self.apart <= 0:
            return
        now = self.clock()
        marks = [("address", self.mark("address", address))]
        if device:
            marks.append(("device", self.mark("device", device)))
        with self.database.transaction() as db:
            for kind, mark in marks:
                db.execute(
                    self.sql(
                        "INSERT INTO account_sightings (account_id, kind, mark, seen)"
                        " VALUES (?, ?, ?, ?) ON CONFLICT (account_id, kind, mark)"
                        " DO UPDATE SET seen = excluded.seen"
                        " WHERE account_sightings.seen < excluded.seen - ?"
                    ),
                    (account_id, kind, mark, now, REFRESH_SECONDS),
                )
            self._prune(db, account_id, now)

    def _prune(self, db: Connection, account_id: int, now: float) -> None:
        db.execute(
            self.sql(
                "DELETE FROM account_sightings WHERE account_id = ? AND (seen < ? OR mark NOT IN"
                " (SELECT mark FROM account_sightings WHERE account_id = ?"
                " ORDER BY seen DESC LIMIT ?))"
            ),
            (account_id, now - self.apart, account_id, MAX_PER_ACCOUNT),
        )

    def marks_of(self, account_id: int) -> frozenset[str]:
        """The account's sightings within the window, each as "kind:mark"."""
        if self.apart <= 0:
            return frozenset()
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT kind, mark FROM account_sightings WHERE account_id = ? AND seen >= ?"
                ),
                (account_id, self.clock() - self.apart),
            ).fetchall()
        return frozenset(f"{kind}:{mark}" for kind, mark in rows)

    def seen_together(self, first: int, second: int) -> bool:
        """Whether the two accounts were seen from one address or one browser lately."""
        return first == second or bool(self.marks_of(first) & self.marks_of(second))
