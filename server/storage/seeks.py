"""The lobby's table and its queries, written once for both SQL back ends.

A row of `seeks` is an open challenge or a quick-pairing wait (`StoredSeek`). The functions take
an open database connection inside the back end's transaction (SQLite: `BEGIN IMMEDIATE` under
the store's lock; PostgreSQL: a transaction holding an advisory lock), so each lobby call is
atomic and no two interleave: two visitors pairing at once can neither both wait nor take the
same partner. SQL is written with `?` and turned into the driver's placeholder by `sql`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from server.storage.interface import OngoingGame, OwnSeekError, SeekLimitError, StoredSeek

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

COLUMNS = "id, kind, owner, address, control, body, created, host"


class Database(Protocol):
    """What both drivers' connections offer (sqlite3 and psycopg)."""

    def execute(self, query: Any, params: Any = ...) -> Any: ...


def sql(text: str, placeholder: str) -> str:
    return text if placeholder == "?" else text.replace("?", placeholder)


def _seek(row: Any) -> StoredSeek:
    seek_id, kind, owner, address, control, body, created, host = row
    return StoredSeek(
        seek_id, kind, owner, address, control, json.loads(body), float(created), host
    )


def _drop_owner(db: Database, mark: str, owner: str) -> list[str]:
    rows = db.execute(sql("DELETE FROM seeks WHERE owner = ? RETURNING id", mark), (owner,))
    return [seek_id for (seek_id,) in rows.fetchall()]


def _insert(db: Database, mark: str, seek: StoredSeek, per_address: int) -> None:
    (held,) = db.execute(
        sql("SELECT COUNT(*) FROM seeks WHERE address = ?", mark), (seek.address,)
    ).fetchone()
    if held >= per_address:
        raise SeekLimitError(f"address {seek.address} holds {held} seeks")
    db.execute(
        sql(f"INSERT INTO seeks ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", mark),
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


def add_seek(db: Database, mark: str, seek: StoredSeek, per_address: int) -> list[str]:
    replaced = _drop_owner(db, mark, seek.owner)
    _insert(db, mark, seek, per_address)
    return replaced


# Picks the partner of a new wait among the waits for its control (oldest first), or None.
Chooser = Callable[[StoredSeek, list[StoredSeek]], StoredSeek | None]
# Picks the waits to pair among all waits (without a newcomer: windows widened with time).
PairsDue = Callable[[list[StoredSeek]], list[tuple[StoredSeek, StoredSeek]]]
# Waits read to choose among: far more than ever wait for one control at once.
MAX_WAITING = 500


def oldest(wait: StoredSeek, waiting: list[StoredSeek]) -> StoredSeek | None:
    return waiting[0] if waiting else None


def pair_or_wait(
    db: Database, mark: str, wait: StoredSeek, per_address: int, choose: Chooser = oldest
) -> tuple[StoredSeek | None, list[str]]:
    replaced = _drop_owner(db, mark, wait.owner)
    rows = db.execute(
        sql(
            f"SELECT {COLUMNS} FROM seeks WHERE kind = 'pair' AND control = ? AND owner <> ?"
            " ORDER BY created, id LIMIT ?",
            mark,
        ),
        (wait.control, wait.owner, MAX_WAITING),
    ).fetchall()
    partner = choose(wait, [_seek(row) for row in rows])
    if partner is None:
        _insert(db, mark, wait, per_address)
        return None, replaced
    db.execute(sql("DELETE FROM seeks WHERE id = ?", mark), (partner.id,))
    return partner, replaced


def take_due_pairs(db: Database, mark: str, due: PairsDue) -> list[tuple[StoredSeek, StoredSeek]]:
    """Remove and return the pairs `due` picks among every wait."""
    rows = db.execute(
        sql(f"SELECT {COLUMNS} FROM seeks WHERE kind = 'pair' ORDER BY created, id LIMIT ?", mark),
        (MAX_WAITING,),
    ).fetchall()
    pairs = due([_seek(row) for row in rows])
    for pair in pairs:
        for seek in pair:
            db.execute(sql("DELETE FROM seeks WHERE id = ?", mark), (seek.id,))
    return pairs


def take_seek(db: Database, mark: str, seek_id: str, taker: str) -> StoredSeek | None:
    row = db.execute(
        sql(f"SELECT {COLUMNS} FROM seeks WHERE id = ? AND kind = 'seek'", mark), (seek_id,)
    ).fetchone()
    if row is None:
        return None
    seek = _seek(row)
    if seek.owner == taker:
        raise OwnSeekError(seek_id)
    db.execute(sql("DELETE FROM seeks WHERE id = ?", mark), (seek_id,))
    return seek


def remove_seeks(db: Database, mark: str, owner: str, seek_id: str | None) -> list[StoredSeek]:
    condition, values = (
        ("owner = ?", (owner,))
        if seek_id is None
        else (
            "owner = ? AND id = ?",
            (owner, seek_id),
        )
    )
    rows = db.execute(sql(f"DELETE FROM seeks WHERE {condition} RETURNING {COLUMNS}", mark), values)
    return sorted((_seek(row) for row in rows.fetchall()), key=lambda seek: seek.created)


def list_seeks(db: Database, mark: str, limit: int) -> list[StoredSeek]:
    rows = db.execute(
        sql(f"SELECT {COLUMNS} FROM seeks WHERE kind = 'seek' ORDER BY created, id LIMIT ?", mark),
        (limit,),
    )
    return [_seek(row) for row in rows.fetchall()]


def beat(db: Database, mark: str, host: str, now: float, alive_after: float) -> list[str]:
    db.execute(
        sql(
            "INSERT INTO lobby_hosts (host, seen) VALUES (?, ?)"
            " ON CONFLICT (host) DO UPDATE SET seen = excluded.seen",
            mark,
        ),
        (host, now),
    )
    db.execute(sql("DELETE FROM lobby_hosts WHERE seen < ?", mark), (alive_after,))
    rows = db.execute(
        "DELETE FROM seeks WHERE host NOT IN (SELECT host FROM lobby_hosts) RETURNING id"
    )
    return [seek_id for (seek_id,) in rows.fetchall()]


def ongoing_games(db: Database, mark: str, active: str, limit: int) -> list[OngoingGame]:
    """`active`: the dialect's test of an active game (`active = 1`, `active`)."""
    rows = db.execute(
        sql(
            "SELECT id, settings, header, updated,"
            " (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)"
            f" FROM games WHERE {active} ORDER BY updated DESC LIMIT ?",
            mark,
        ),
        (limit,),
    )
    return [
        OngoingGame(game_id, json.loads(settings), json.loads(header), int(plies), float(updated))
        for game_id, settings, header, updated, plies in rows.fetchall()
    ]
