"""The lobby's tables: open challenges and pairing waits (`seeks`), the processes holding them
(`lobby_hosts`), and the games in play as the watch list reads them.

A row of `seeks` is an open challenge or a quick-pairing wait (`StoredSeek`), shared by every
process. Each lobby call that changes seeks is one transaction holding LOBBY_LOCK (SQLite:
`BEGIN IMMEDIATE` serialises it anyway; PostgreSQL: an advisory lock), so no two interleave:
two visitors pairing at once can neither both wait nor take the same partner.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.games.stored import OngoingGame
from server.storage.database import Connection, Database
from server.storage.migrations import run

# Every lobby call that changes seeks holds this advisory lock for its transaction (PostgreSQL).
LOBBY_LOCK = 0x4C4F4242

# Both dialects: DOUBLE PRECISION is a REAL in SQLite (PostgreSQL's REAL would round a time).
SEEK_TABLES = """
CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    owner TEXT NOT NULL,
    address TEXT NOT NULL,
    control TEXT NOT NULL,
    body TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    host TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lobby_hosts (
    host TEXT PRIMARY KEY,
    seen DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS seeks_owner ON seeks(owner);
CREATE INDEX IF NOT EXISTS seeks_address ON seeks(address);
CREATE INDEX IF NOT EXISTS seeks_waiting ON seeks(kind, control, created);
"""


def create_tables(db: Connection, database: Database) -> None:
    """Migration 1 (with the other first tables): seeks and lobby_hosts."""
    run(db, SEEK_TABLES)


COLUMNS = "id, kind, owner, address, control, body, created, host"


class SeekLimitError(Exception):
    """The address already holds as many open seeks and pairing waits as it may."""


class OwnSeekError(Exception):
    """A visitor tried to accept its own seek."""


@dataclass(frozen=True)
class StoredSeek:
    """An open challenge (`kind` "seek", listed and accepted by id) or a quick-pairing wait
    ("pair", matched by `control`), held by the connection `owner` from `address` on the server
    process `host`; `body` is the lobby's own JSON-ready data (name, colour, assisted)."""

    id: str
    kind: str
    owner: str
    address: str
    control: str
    body: dict[str, Any]
    created: float
    host: str


# Picks the partner of a new wait among the waits for its control (oldest first), or None.
Chooser = Callable[[StoredSeek, list[StoredSeek]], StoredSeek | None]
# Picks the waits to pair among all waits (without a newcomer: windows widened with time).
PairsDue = Callable[[list[StoredSeek]], list[tuple[StoredSeek, StoredSeek]]]
# Waits read to choose among: far more than ever wait for one control at once.
MAX_WAITING = 500


def oldest(wait: StoredSeek, waiting: list[StoredSeek]) -> StoredSeek | None:
    return waiting[0] if waiting else None


def _seek(row: Any) -> StoredSeek:
    seek_id, kind, owner, address, control, body, created, host = row
    return StoredSeek(
        seek_id, kind, owner, address, control, json.loads(body), float(created), host
    )


class LobbyTables:
    """The lobby's rows in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql
        self.active = database.flag("active")

    @property
    def shared(self) -> bool:
        """Whether other processes hold seeks too (`Database.shared`)."""
        return self.database.shared

    def add_seek(self, seek: StoredSeek, per_address: int) -> list[str]:
        """Store `seek` in place of its owner's earlier seeks and waits (their ids are
        returned), unless its address holds `per_address` already (`SeekLimitError`)."""
        with self.database.transaction(LOBBY_LOCK) as db:
            replaced = self._drop_owner(db, seek.owner)
            self._insert(db, seek, per_address)
            return replaced

    def pair_or_wait(
        self, wait: StoredSeek, per_address: int, choose: Chooser = oldest
    ) -> tuple[StoredSeek | None, list[str]]:
        """Drop the owner's earlier seeks and waits (their ids are returned second), then take
        the wait of another owner with the same control that `choose` picks among them (oldest
        first; by default the oldest) and return it; with none, store `wait` (refused as
        `add_seek` refuses) and return None."""
        with self.database.transaction(LOBBY_LOCK) as db:
            replaced = self._drop_owner(db, wait.owner)
            rows = db.execute(
                self.sql(
                    f"SELECT {COLUMNS} FROM seeks WHERE kind = 'pair' AND control = ?"
                    " AND owner <> ? ORDER BY created, id LIMIT ?"
                ),
                (wait.control, wait.owner, MAX_WAITING),
            ).fetchall()
            partner = choose(wait, [_seek(row) for row in rows])
            if partner is None:
                self._insert(db, wait, per_address)
                return None, replaced
            db.execute(self.sql("DELETE FROM seeks WHERE id = ?"), (partner.id,))
            return partner, replaced

    def take_due_pairs(self, due: PairsDue) -> list[tuple[StoredSeek, StoredSeek]]:
        """Remove and return the pairs of waits `due` picks among all of them."""
        with self.database.transaction(LOBBY_LOCK) as db:
            rows = db.execute(
                self.sql(
                    f"SELECT {COLUMNS} FROM seeks WHERE kind = 'pair' ORDER BY created, id LIMIT ?"
                ),
                (MAX_WAITING,),
            ).fetchall()
            pairs = due([_seek(row) for row in rows])
            for pair in pairs:
                for seek in pair:
                    db.execute(self.sql("DELETE FROM seeks WHERE id = ?"), (seek.id,))
            return pairs

    def take_seek(self, seek_id: str, taker: str) -> StoredSeek | None:
        """Remove and return the seek, or None if it is gone; `OwnSeekError` if `taker` owns
        it."""
        with self.database.transaction(LOBBY_LOCK) as db:
            row = db.execute(
                self.sql(f"SELECT {COLUMNS} FROM seeks WHERE id = ? AND kind = 'seek'"),
                (seek_id,),
            ).fetchone()
            if row is None:
                return None
            seek = _seek(row)
            if seek.owner == taker:
                raise OwnSeekError(seek_id)
            db.execute(self.sql("DELETE FROM seeks WHERE id = ?"), (seek_id,))
            return seek

    def remove_seeks(self, owner: str, seek_id: str | None = None) -> list[StoredSeek]:
        """Remove and return the owner's seeks and waits (only `seek_id`, if given)."""
        condition, values = (
            ("owner = ?", (owner,))
            if seek_id is None
            else ("owner = ? AND id = ?", (owner, seek_id))
        )
        with self.database.transaction(LOBBY_LOCK) as db:
            rows = db.execute(
                self.sql(f"DELETE FROM seeks WHERE {condition} RETURNING {COLUMNS}"), values
            ).fetchall()
        return sorted((_seek(row) for row in rows), key=lambda seek: seek.created)

    def list_seeks(self, limit: int) -> list[StoredSeek]:
        """The open challenges (not the waits), oldest first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    f"SELECT {COLUMNS} FROM seeks WHERE kind = 'seek' ORDER BY created, id LIMIT ?"
                ),
                (limit,),
            ).fetchall()
        return [_seek(row) for row in rows]

    def ongoing_games(self, limit: int) -> list[OngoingGame]:
        """Active games, the most recently changed first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT id, settings, header, updated,"
                    " (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)"
                    f" FROM games WHERE {self.active} ORDER BY updated DESC LIMIT ?"
                ),
                (limit,),
            ).fetchall()
        return [
            OngoingGame(
                game_id, json.loads(settings), json.loads(header), int(plies), float(updated)
            )
            for game_id, settings, header, updated, plies in rows
        ]

    def clear_seeks(self) -> None:
        """Forget every seek and wait (a lone process at start: nobody is connected)."""
        with self.database.transaction(LOBBY_LOCK) as db:
            db.execute("DELETE FROM seeks")

    def beat(self, host: str, now: float, alive_after: float) -> list[str]:
        """Record that the process `host` is alive at `now`; forget the processes not heard
        from since `alive_after` and remove their seeks and waits (their ids are returned):
        their connections are gone with them."""
        with self.database.transaction(LOBBY_LOCK) as db:
            db.execute(
                self.sql(
                    "INSERT INTO lobby_hosts (host, seen) VALUES (?, ?)"
                    " ON CONFLICT (host) DO UPDATE SET seen = excluded.seen"
                ),
                (host, now),
            )
            db.execute(self.sql("DELETE FROM lobby_hosts WHERE seen < ?"), (alive_after,))
            rows = db.execute(
                "DELETE FROM seeks WHERE host NOT IN (SELECT host FROM lobby_hosts) RETURNING id"
            ).fetchall()
        return [seek_id for (seek_id,) in rows]

    def _drop_owner(self, db: Connection, owner: str) -> list[str]:
        rows = db.execute(self.sql("DELETE FROM seeks WHERE owner = ? RETURNING id"), (owner,))
        return [seek_id for (seek_id,) in rows.fetchall()]

    def _insert(self, db: Connection, seek: StoredSeek, per_address: int) -> None:
        (held,) = db.execute(
            self.sql("SELECT COUNT(*) FROM seeks WHERE address = ?"), (seek.address,)
        ).fetchone()
        if held >= per_address:
            raise SeekLimitError(f"address {seek.address} holds {held} seeks")
        db.execute(
            self.sql(f"INSERT INTO seeks ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
            (
                seek.id,
                seek.kind,
                seek.owner,
                seek.address,
                seek.control,
                json.dumps(seek.body),
                seek.created,
                seek.host,
            ),
        )
