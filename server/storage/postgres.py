"""PostgreSQL storage behind `server.storage.interface.GameStore`, for several server processes
or machines.

Chosen by `DATABASE_URL` (see `server.storage.interface.open_store`). The schema mirrors the
SQLite one, and the database itself guards every ply: moves are keyed by (game, ply), and each
change is one transaction whose `UPDATE games ... WHERE version = <the version it was made for>`
takes the game's row lock, so when two processes race to change the same position the second
waits, finds the version moved on, and gets `StaleVersionError`; a duplicate ply or seat is
refused by its primary key the same way. Connections come from a small pool shared by the
server's threads (psycopg connections must not be used by two threads at once); one that broke,
say after the database restarted, is dropped and the next request opens a fresh one.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from server.games.play import Event
from server.storage import history, reviews, seeks
from server.storage.interface import (
    ANALYSIS_TABLE,
    GAME_RECORD_TABLES,
    GamesQuery,
    HistoryEntry,
    HistoryRow,
    IdleGame,
    OngoingGame,
    StaleVersionError,
    StoredChange,
    StoredGame,
    StoredReview,
    StoredSeek,
)
from server.storage.rows import GAME_COLUMNS, RowLoads, stored_from_rows

SCHEMA = (
    """
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
"""
    + GAME_RECORD_TABLES
    + ANALYSIS_TABLE
    + reviews.REVIEW_TABLE
    + history.HISTORY_TABLE
    + """CREATE INDEX IF NOT EXISTS games_active ON games(active) WHERE active;
"""
)

# A database made by an earlier version gets the last-change time, counted from the upgrade
# (the true last change is not known; counting from now never ends a game in play too soon),
# then the index of active games by it, so abandoned ones are found without reading the rest;
# and its moves get the column of the clock after each move (empty for theirs).
MIGRATION = """
ALTER TABLE games ADD COLUMN IF NOT EXISTS updated DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE moves ADD COLUMN IF NOT EXISTS clock_ms INTEGER;
UPDATE games SET updated = extract(epoch FROM now()) WHERE updated = 0;
CREATE INDEX IF NOT EXISTS games_idle ON games(updated) WHERE active;
"""

# Processes starting together would race on CREATE TABLE IF NOT EXISTS (it is not atomic in
# PostgreSQL); an advisory lock with this arbitrary key lets one create the schema at a time.
SCHEMA_LOCK = 0x43485353
# Every lobby call holds this advisory lock for its transaction: the calls of all processes run
# one at a time, so two visitors pairing at once can neither both wait nor take one partner.
LOBBY_LOCK = 0x4C4F4242
# Adding a review holds this one (server.storage.reviews): its limits count every process's.
REVIEW_LOCK = 0x52455649

POOL_SIZE = 8

# A change in one statement: the version check and every row it writes. The later parts insert
# only what the UPDATE returned, so a stale version writes nothing (and the final row count is
# 0); a ply or seat that exists already fails the whole statement on its primary key.
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
    INSERT INTO seats (game_id, color, token_hash)
    SELECT id, %(color)s::integer, %(token_hash)s::text
    FROM updated WHERE %(token_hash)s::text IS NOT NULL
)
INSERT INTO changes (game_id, version, body)
SELECT id, %(version)s::integer, %(event)s::text FROM updated
"""


class PostgresStore(RowLoads):
    """A `GameStore` in a PostgreSQL database."""

    shared = True  # several server processes share it
    placeholder = "%s"

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.idle: queue.LifoQueue[psycopg.Connection[Any]] = queue.LifoQueue()
        # Each permit is one connection that may exist; waiting for a permit bounds the pool.
        self.permits = threading.BoundedSemaphore(pool_size)
        self.closed = False
        with self._connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            db.execute(SCHEMA)
            db.execute(MIGRATION)
            db.execute(seeks.SEEK_TABLES)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection for one unit of work; a broken one is closed, not returned."""
        self.permits.acquire()
        db: psycopg.Connection[Any] | None = None
        try:
            try:
                db = self.idle.get_nowait()
            except queue.Empty:
                db = psycopg.connect(self.url, autocommit=True)
            yield db
        except psycopg.OperationalError:
            if db is not None:
                db.close()
                db = None
            raise
        finally:
            if db is not None and not db.closed and not self.closed:
                self.idle.put(db)
            elif db is not None:
                db.close()
            self.permits.release()

    def create_game(self, game: StoredGame, seats: dict[int, str]) -> None:
        now = time.time()
        with self._connection() as db, db.transaction():
            db.execute(
                "INSERT INTO games"
                " (id, settings, header, version, invite_hash, active, created, updated)"
                " VALUES (%s, %s, %s, %s, %s, TRUE, %s, %s)",
                (
                    game.id,
                    json.dumps(game.settings),
                    json.dumps(game.header),
                    game.version,
                    game.invite_hash,
                    now,
                    now,
                ),
            )
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO seats (game_id, color, token_hash) VALUES (%s, %s, %s)",
                    [(game.id, color, token_hash) for color, token_hash in seats.items()],
                )

    def _load(self, game_id: str, condition: str, *values: object) -> StoredGame | None:
        """The game and its moves, if its row meets `condition` (more SQL on `games`). One
        statement, one round trip: the game row and its moves from the same snapshot."""
        with self._connection() as db:
            row = db.execute(
                f"SELECT {GAME_COLUMNS},"
                " ARRAY(SELECT uci FROM moves WHERE game_id = games.id ORDER BY ply),"
                " ARRAY(SELECT san FROM moves WHERE game_id = games.id ORDER BY ply),"
                " ARRAY(SELECT clock_ms FROM moves WHERE game_id = games.id ORDER BY ply)"
                " FROM games WHERE id = %s" + condition,
                (game_id, *values),
            ).fetchone()
        if row is None:
            return None
        ucis, sans, clocks = row[4], row[5], row[6]
        return stored_from_rows(game_id, row[:4], zip(ucis, sans, clocks, strict=True))

    def commit(self, game_id: str, change: StoredChange) -> None:
        try:
            self._write_change(game_id, change)
        except psycopg.errors.UniqueViolation as error:
            # A ply or seat that exists already: the change was made for an older game.
            raise StaleVersionError(f"game {game_id}: {error}") from error

    def _write_change(self, game_id: str, change: StoredChange) -> None:
        with self._connection() as db:
            if change.keep_plies is None:
                self._apply(db, game_id, change)  # one statement is one transaction
                return
            # A takeback drops its plies first; a stale version rolls that back too.
            with db.transaction():
                db.execute(
                    "DELETE FROM moves WHERE game_id = %s AND ply >= %s",
                    (game_id, change.keep_plies),
                )
                self._apply(db, game_id, change)

    def _apply(self, db: psycopg.Connection[Any], game_id: str, change: StoredChange) -> None:
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
                "event": json.dumps(change.event),
            },
        )
        if written.rowcount != 1:
            raise StaleVersionError(f"game {game_id} is not at version {change.version - 1}")

    def changes_since(self, game_id: str, version: int) -> list[Event]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT body FROM changes WHERE game_id = %s AND version > %s ORDER BY version",
                (game_id, version),
            ).fetchall()
        return [json.loads(body) for (body,) in rows]

    def seat_color(self, game_id: str, token_hash: str) -> int | None:
        with self._connection() as db:
            row = db.execute(
                "SELECT color FROM seats WHERE game_id = %s AND token_hash = %s",
                (game_id, token_hash),
            ).fetchone()
        return None if row is None else int(row[0])

    def active_game_ids(self) -> list[str]:
        with self._connection() as db:
            rows = db.execute("SELECT id FROM games WHERE active").fetchall()
        return [game_id for (game_id,) in rows]

    def finished_game_ids(self, limit: int) -> list[str]:
        query = "SELECT id FROM games WHERE NOT active ORDER BY updated DESC LIMIT %s"
        with self._connection() as db:
            rows = db.execute(query, (limit,)).fetchall()
        return [game_id for (game_id,) in rows]

    def idle_games(self, before: float) -> list[IdleGame]:
        with self._connection() as db:
            rows = db.execute(
                "SELECT id, header, version FROM games WHERE active AND updated < %s", (before,)
            ).fetchall()
        return [IdleGame(game_id, json.loads(header), version) for game_id, header, version in rows]

    def save_analysis(self, analysis_id: str, pgn: str) -> None:
        with self._connection() as db:
            db.execute(
                "INSERT INTO analyses (id, pgn, created) VALUES (%s, %s, %s)",
                (analysis_id, pgn, int(time.time())),
            )

    def load_analysis(self, analysis_id: str) -> str | None:
        with self._connection() as db:
            row = db.execute("SELECT pgn FROM analyses WHERE id = %s", (analysis_id,)).fetchone()
        return None if row is None else str(row[0])

    # -- game reviews (server.storage.reviews); adding one holds REVIEW_LOCK, so the limits
    # and the duplicate check of all processes run one at a time

    def find_review(self, source: str) -> StoredReview | None:
        with self._connection() as db:
            return reviews.find_review(db, "%s", source)

    def load_review(self, review_id: str) -> StoredReview | None:
        with self._connection() as db:
            return reviews.load_review(db, "%s", review_id)

    def add_review(
        self, review: StoredReview, per_address: int | None, max_pending: int
    ) -> tuple[StoredReview, bool]:
        with self._connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (REVIEW_LOCK,))
            return reviews.add_review(db, "%s", review, per_address, max_pending)

    def save_review(self, review_id: str, host: str, fields: dict[str, Any]) -> bool:
        with self._connection() as db:
            return reviews.save_review(db, "%s", review_id, host, fields)

    def claim_review(self, review_id: str, host: str, now: float, stale_before: float) -> bool:
        with self._connection() as db:
            return reviews.claim_review(db, "%s", review_id, host, now, stale_before)

    def pending_reviews(self, queued_before: float, stale_before: float) -> list[str]:
        with self._connection() as db:
            return reviews.pending_reviews(db, "%s", queued_before, stale_before)

    # -- players' game history (server.storage.history)

    def add_history(self, entries: list[HistoryEntry]) -> None:
        with self._connection() as db, db.transaction():
            history.add_history(db, "%s", entries)

    def player_games(self, query: GamesQuery) -> list[HistoryRow]:
        with self._connection() as db:
            return history.player_games(db, "%s", query)

    def player_counts(self, account: int) -> dict[str, int]:
        with self._connection() as db:
            return history.player_counts(db, "%s", account)

    # -- the lobby (server.storage.seeks), serialised across processes by LOBBY_LOCK

    @contextmanager
    def _lobby(self) -> Iterator[psycopg.Connection[Any]]:
        with self._connection() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (LOBBY_LOCK,))
            yield db

    def add_seek(self, seek: StoredSeek, per_address: int) -> list[str]:
        with self._lobby() as db:
            return seeks.add_seek(db, "%s", seek, per_address)

    def pair_or_wait(
        self, wait: StoredSeek, per_address: int
    ) -> tuple[StoredSeek | None, list[str]]:
        with self._lobby() as db:
            return seeks.pair_or_wait(db, "%s", wait, per_address)

    def take_seek(self, seek_id: str, taker: str) -> StoredSeek | None:
        with self._lobby() as db:
            return seeks.take_seek(db, "%s", seek_id, taker)

    def remove_seeks(self, owner: str, seek_id: str | None = None) -> list[StoredSeek]:
        with self._lobby() as db:
            return seeks.remove_seeks(db, "%s", owner, seek_id)

    def list_seeks(self, limit: int) -> list[StoredSeek]:
        with self._connection() as db:
            return seeks.list_seeks(db, "%s", limit)

    def ongoing_games(self, limit: int) -> list[OngoingGame]:
        with self._connection() as db:
            return seeks.ongoing_games(db, "%s", "active", limit)

    def beat(self, host: str, now: float, alive_after: float) -> list[str]:
        with self._lobby() as db:
            return seeks.beat(db, "%s", host, now, alive_after)

    def clear_seeks(self) -> None:
        with self._lobby() as db:
            db.execute("DELETE FROM seeks")

    def close(self) -> None:
        self.closed = True
        while True:
            try:
                self.idle.get_nowait().close()
            except queue.Empty:
                return
