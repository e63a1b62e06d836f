"""The games' tables: a row of `games` per game, its `moves`, `seats` and log of `changes`.

A game is kept as a row of `games` (settings and header as JSON text, the version, the
invitation's hash, whether it is still played, when it was made and last changed), its moves
as rows of `moves` keyed by (game, ply), so a ply can never be stored twice, its seats as token
hashes keyed by (game, colour), and each change's event under (game, version) for the clients
catching up. Their guarantees carry the server's trust: `commit` applies a change only on top
of the version it was made for (else `StaleVersionError`), and a commit is durable when it
returns.

A move's commit and a game's read are the hot paths, and there the dialects part ways: SQLite
writes a change in one `BEGIN IMMEDIATE` transaction of a few statements and reads a game in
two under the connection's lock, while PostgreSQL writes a change in one statement (`CHANGE`)
and reads a game, its moves as arrays, in another, one round trip each and one snapshot. In
PostgreSQL the UPDATE of the version takes the game's row lock, so when two processes race to
change the same position the second waits, finds the version moved on, and gets
`StaleVersionError`. The migration steps that make these tables are here too.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from typing import Any

from server.edge.wire import dumps
from server.games.play import Event, MoveRecord
from server.games.stored import IdleGame, StaleVersionError, StoredChange, StoredGame
from server.storage.database import Connection, Database
from server.storage.migrations import run

# The dialects store the flag `active` and the times as each does best (the rest of the
# schema reads alike); created by migration 1, `updated` added by migration 2.
GAMES_TABLE = {
    "sqlite": """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    header TEXT NOT NULL,
    version INTEGER NOT NULL,
    invite_hash TEXT,
    active INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
""",
    "postgres": """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,
    header TEXT NOT NULL,
    version INTEGER NOT NULL,
    invite_hash TEXT,
    active BOOLEAN NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
""",
}

GAME_RECORD_TABLES = """
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    san TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    color INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE TABLE IF NOT EXISTS changes (
    game_id TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
"""


def create_tables(db: Connection, database: Database) -> None:
    """Migration 1 (with the other first tables): games, moves, seats, changes."""
    run(db, GAMES_TABLE[database.dialect] + GAME_RECORD_TABLES)


def index_active(db: Connection, database: Database) -> None:
    """Migration 1: the games still played, found at start without reading the others."""
    active = database.flag("active")
    db.execute(f"CREATE INDEX IF NOT EXISTS games_active ON games(active) WHERE {active}")


def add_last_change(db: Connection, database: Database) -> None:
    """Migration 2: when each game last changed, to find the abandoned ones through an index.
    Games stored before it get the time of the upgrade: their true last change is not known,
    and counting from now never ends a game in play too soon."""
    if "updated" not in database.columns(db, "games"):
        db.execute("ALTER TABLE games ADD COLUMN updated DOUBLE PRECISION NOT NULL DEFAULT 0")
        db.execute(database.sql("UPDATE games SET updated = ?"), (time.time(),))
    active = database.flag("active")
    db.execute(f"CREATE INDEX IF NOT EXISTS games_idle ON games(active, updated) WHERE {active}")


def add_move_clocks(db: Connection, database: Database) -> None:
    """Migration 6: the mover's clock after each move (`MoveRecord.clock_ms`, the export's
    `[%clk]`; empty for the moves stored before)."""
    if "clock_ms" not in database.columns(db, "moves"):
        db.execute("ALTER TABLE moves ADD COLUMN clock_ms INTEGER")


# The columns of `games` every read takes, in this order (`_stored` takes them so).
GAME_COLUMNS = "settings, header, version, invite_hash"

# PostgreSQL's change in one statement: the version check and every row it writes. The later
# parts insert only what the UPDATE returned, so a stale version writes nothing (and the final
# row count is 0); a ply or seat that exists already fails the whole statement on its key.
CHANGE = """
WITH updated AS (
    UPDATE games SET header = %(header)s, version = %(version)s, active = %(active)s,
        updated = %(updated)s
    WHERE id = %(game)s AND version = %(version)s - 1
    RETURNING id
), moved AS (
    INSERT INTO moves (game_id, ply, uci, san, clock_ms)
    SELECT id, added.ply, added.uci, added.san, added.clock_ms
    FROM updated, unnest(
        %(plies)s::integer[], %(ucis)s::text[], %(sans)s::text[], %(clocks)s::integer[]
    ) AS added(ply, uci, san, clock_ms)
), seated AS (
    INSERT INTO seats (game_id, color, token_hash, account_id)
    SELECT id, %(color)s::integer, %(token_hash)s::text, %(account)s::integer
    FROM updated WHERE %(token_hash)s::text IS NOT NULL
)
INSERT INTO changes (game_id, version, body)
SELECT id, %(version)s::integer, %(event)s::text FROM updated
"""

# PostgreSQL's read of a game in one statement: its row, its moves and its seats' accounts.
LOAD = f"""
SELECT {GAME_COLUMNS},
    ARRAY(SELECT uci FROM moves WHERE game_id = games.id ORDER BY ply),
    ARRAY(SELECT san FROM moves WHERE game_id = games.id ORDER BY ply),
    ARRAY(SELECT clock_ms FROM moves WHERE game_id = games.id ORDER BY ply),
    ARRAY(SELECT ARRAY[color, account_id] FROM seats
        WHERE game_id = games.id AND account_id IS NOT NULL)
FROM games WHERE id = %s"""


class GameTables:
    """The games' rows in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql
        self.active = database.flag("active")

    @property
    def shared(self) -> bool:
        """Whether other processes write these games too (`Database.shared`)."""
        return self.database.shared

    def create_game(
        self, game: StoredGame, seats: dict[int, str], accounts: dict[int, int] | None = None
    ) -> None:
        """Store a new game at version 0 with its seats (colour -> token hash) and the
        accounts that took them (colour -> account id)."""
        now = time.time()
        held = accounts or {}
        with self.database.transaction() as db:
            db.execute(
                self.sql(
                    "INSERT INTO games"
                    " (id, settings, header, version, invite_hash, active, created, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    game.id,
                    json.dumps(game.settings),
                    json.dumps(game.header),
                    game.version,
                    game.invite_hash,
                    True,
                    now,
                    now,
                ),
            )
            insert = self.sql(
                "INSERT INTO seats (game_id, color, token_hash, account_id) VALUES (?, ?, ?, ?)"
            )
            for color, token_hash in seats.items():
                db.execute(insert, (game.id, color, token_hash, held.get(color)))

    def load_game(self, game_id: str) -> StoredGame | None:
        return self._load(game_id, "")

    def load_if_changed(self, game_id: str, version: int) -> StoredGame | None:
        """The stored game if its version is not `version`, else None: a cached copy at
        `version` is checked and, when out of date, replaced in one read. Games are never
        deleted, so a game that was cached is always stored."""
        return self._load(game_id, self.sql(" AND version <> ?"), version)

    def _load(self, game_id: str, condition: str, *values: object) -> StoredGame | None:
        """The game and its moves, if its row meets `condition` (more SQL on `games`)."""
        if self.database.dialect == "postgres":
            with self.database.connection() as db:
                row = db.execute(LOAD + condition, (game_id, *values)).fetchone()
            if row is None:
                return None
            ucis, sans, clocks, seated = row[4], row[5], row[6], row[7]
            held = {int(color): int(account) for color, account in seated}
            return _stored(game_id, row[:4], zip(ucis, sans, clocks, strict=True), held)
        with self.database.connection() as db:
            row = db.execute(
                self.sql(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?") + condition,
                (game_id, *values),
            ).fetchone()
            if row is None:
                return None
            moves = db.execute(
                self.sql("SELECT uci, san, clock_ms FROM moves WHERE game_id = ? ORDER BY ply"),
                (game_id,),
            ).fetchall()
            seats = db.execute(
                self.sql(
                    "SELECT color, account_id FROM seats"
                    " WHERE game_id = ? AND account_id IS NOT NULL"
                ),
                (game_id,),
            ).fetchall()
        held = {int(color): int(account) for color, account in seats}
        return _stored(game_id, row, moves, held)

    def commit(self, game_id: str, change: StoredChange) -> None:
        """Apply `change` atomically if the game is at `change.version - 1`."""
        try:
            if self.database.dialect == "postgres":
                self._write_in_one_statement(game_id, change)
            else:
                self._write_change(game_id, change)
        except self.database.unique_violation as error:
            # A ply or seat that exists already: the change was made for an older game.
            raise StaleVersionError(f"game {game_id}: {error}") from error

    def _write_change(self, game_id: str, change: StoredChange) -> None:
        # The header and the event as JSON text: the standard encoder's very text, written by
        # orjson (server.edge.wire), as a move's commit does after every move.
        with self.database.transaction() as db:
            updated = db.execute(
                "UPDATE games SET header = ?, version = ?, active = ?, updated = ?"
                " WHERE id = ? AND version = ?",
                (
                    dumps(change.header),
                    change.version,
                    int(change.active),
                    time.time(),
                    game_id,
                    change.version - 1,
                ),
            )
            if updated.rowcount != 1:
                raise StaleVersionError(f"game {game_id} is not at version {change.version - 1}")
            if change.keep_plies is not None:
                db.execute(
                    "DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, change.keep_plies)
                )
            for ply, record in change.added:
                db.execute(
                    "INSERT INTO moves (game_id, ply, uci, san, clock_ms) VALUES (?, ?, ?, ?, ?)",
                    (game_id, ply, record.uci, record.san, record.clock_ms),
                )
            if change.seat is not None:
                db.execute(
                    "INSERT INTO seats (game_id, color, token_hash, account_id)"
                    " VALUES (?, ?, ?, ?)",
                    (game_id, *change.seat, change.seat_account),
                )
            db.execute(
                "INSERT INTO changes (game_id, version, body) VALUES (?, ?, ?)",
                (game_id, change.version, dumps(change.event)),
            )

    def _write_in_one_statement(self, game_id: str, change: StoredChange) -> None:
        if change.keep_plies is None:
            with self.database.connection() as db:
                _apply(db, game_id, change)  # one statement is one transaction
            return
        # A takeback drops its plies first; a stale version rolls that back too.
        with self.database.transaction() as db:
            db.execute(
                "DELETE FROM moves WHERE game_id = %s AND ply >= %s", (game_id, change.keep_plies)
            )
            _apply(db, game_id, change)

    def changes_since(self, game_id: str, version: int) -> list[Event]:
        """The recorded changes with a version above `version`, oldest first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT body FROM changes WHERE game_id = ? AND version > ? ORDER BY version"
                ),
                (game_id, version),
            ).fetchall()
        return [json.loads(body) for (body,) in rows]

    def seat_color(self, game_id: str, token_hash: str) -> int | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT color FROM seats WHERE game_id = ? AND token_hash = ?"),
                (game_id, token_hash),
            ).fetchone()
        return None if row is None else int(row[0])

    def active_game_ids(self) -> list[str]:
        """Games still being played (to resume clocks and the computer after a restart)."""
        with self.database.connection() as db:
            rows = db.execute(f"SELECT id FROM games WHERE {self.active}").fetchall()
        return [game_id for (game_id,) in rows]

    def finished_game_ids(self, limit: int) -> list[str]:
        """The games no longer played (finished or aborted), the most recently ended first, at
        most `limit`: the threat trainer's positions (server.training)."""
        query = f"SELECT id FROM games WHERE NOT {self.active} ORDER BY updated DESC LIMIT ?"
        with self.database.connection() as db:
            rows = db.execute(self.sql(query), (limit,)).fetchall()
        return [game_id for (game_id,) in rows]

    def idle_games(self, before: float) -> list[IdleGame]:
        """Active games whose last change (or creation) came before `before`, in wall-clock
        seconds: found through an index of last-change times and read without their moves,
        so start-up can end thousands of abandoned games cheaply."""
        query = f"SELECT id, header, version FROM games WHERE {self.active} AND updated < ?"
        with self.database.connection() as db:
            rows = db.execute(self.sql(query), (before,)).fetchall()
        return [IdleGame(game_id, json.loads(header), version) for game_id, header, version in rows]

    def last_change(self, game_id: str) -> float | None:
        """When the game last changed (wall-clock seconds; its end, once it is over), None
        when there is no such game."""
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT updated FROM games WHERE id = ?"), (game_id,)
            ).fetchone()
        return None if row is None else float(row[0])

    def rename_seat(self, game_id: str, color: int, name: str) -> None:
        """Show the seat's player as `name` from now on (a deleted account's games): its
        display name in the game's settings, and the invited friend's name in its header when
        the seat is the friend's. The caller holds the game's lock
        (server.games.service.GameService.rename_seats); in PostgreSQL the row is locked too,
        against another process's change of the game."""
        with self.database.transaction() as db:
            lock = " FOR UPDATE" if self.database.dialect == "postgres" else ""
            row = db.execute(
                self.sql("SELECT settings, header FROM games WHERE id = ?") + lock, (game_id,)
            ).fetchone()
            if row is None:
                return
            settings, header = json.loads(row[0]), json.loads(row[1])
            names = list(settings.get("names") or [None, None])
            names[color] = name
            settings["names"] = names
            if header.get("friend_name") is not None and color != settings.get("creator"):
                header["friend_name"] = name
            db.execute(
                self.sql("UPDATE games SET settings = ?, header = ? WHERE id = ?"),
                (json.dumps(settings), json.dumps(header), game_id),
            )


def _apply(db: Connection, game_id: str, change: StoredChange) -> None:
    """Write `change` in one statement (CHANGE), so in one round trip; nothing is written
    unless the game is at the version the change was made for."""
    color, token_hash = change.seat if change.seat is not None else (None, None)
    written = db.execute(
        CHANGE,
        {
            "game": game_id,
            "version": change.version,
            "header": json.dumps(change.header),
            "active": change.active,
            "updated": time.time(),
            "plies": [ply for ply, _ in change.added],
            "ucis": [record.uci for _, record in change.added],
            "sans": [record.san for _, record in change.added],
            "clocks": [record.clock_ms for _, record in change.added],
            "color": color,
            "token_hash": token_hash,
            "account": change.seat_account,
            "event": json.dumps(change.event),
        },
    )
    if written.rowcount != 1:
        raise StaleVersionError(f"game {game_id} is not at version {change.version - 1}")


def _stored(
    game_id: str,
    row: Sequence[Any],
    moves: Iterable[tuple[str, str, int | None]],
    accounts: dict[int, int],
) -> StoredGame:
    """The game from its `games` columns (GAME_COLUMNS), its moves as (uci, san, clock_ms) in
    ply order and its seats' accounts (colour -> account id)."""
    settings, header, version, invite_hash = row
    records = [MoveRecord(uci, san, clock_ms) for uci, san, clock_ms in moves]
    return StoredGame(
        game_id, json.loads(settings), json.loads(header), version, records, invite_hash, accounts
    )
