"""SQLite storage: the embedded default behind `server.storage.interface.GameStore`.

One file under the instance folder in WAL mode, so readers never wait for the writer. The
server opens it with `synchronous=NORMAL` (server/shared/config.py): a committed change survives a
`kill -9` of the server, and `FULL` adds an fsync per commit so it survives a power cut too.
One connection is shared under a lock: SQLite serialises writers anyway, and the lock keeps
Python's connection object safe across the server's threads.
Every change is one `BEGIN IMMEDIATE` transaction whose header update is guarded by the version
it was made for, and moves live in a table keyed by (game, ply), so a duplicate ply is refused
by the database itself. The schema is made and a file made by an earlier version brought up
to date on open, by the versioned migrations (server.storage.migrations).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from chesscore.ratings import PlayerRating, Speed
from server.accounts.identity import Account
from server.accounts.usernames import name_key
from server.games.play import Event
from server.storage import accounts, history, migrations, ratings, reviews, seeks
from server.storage.interface import (
    GamesQuery,
    HistoryEntry,
    HistoryPoint,
    HistoryRow,
    IdleGame,
    NameTakenError,
    OngoingGame,
    RatedSide,
    StaleVersionError,
    StoredChange,
    StoredGame,
    StoredReview,
    StoredSeek,
    StoredUser,
)
from server.storage.rows import GAME_COLUMNS, RowLoads, account_of, stored_from_rows

GAMES_TABLE = """
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
"""

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


class SqliteStore(RowLoads):
    """A `GameStore` in one SQLite file."""

    placeholder = "?"

    def __init__(self, path: Path, synchronous: str = "NORMAL", *, shared: bool = False) -> None:
        # The server gives each process its own file, so its cached games are the stored ones;
        # `shared=True` is for stores opened twice in one process (tests of what a shared store
        # would see).
        self.shared = shared
        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(
                f"SQLite synchronous mode {synchronous!r} is not one of {SYNCHRONOUS_MODES}"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.execute("PRAGMA foreign_keys=ON")
        migrations.migrate(self.dialect())

    def dialect(self) -> migrations.Dialect:
        """SQLite's SQL as the migrations need it (server.storage.migrations)."""
        return migrations.Dialect(
            name="sqlite",
            placeholder="?",
            games_table=GAMES_TABLE,
            active="active = 1",
            serial_key="INTEGER PRIMARY KEY AUTOINCREMENT",
            columns=lambda db, table: {row[1] for row in db.execute(f"PRAGMA table_info({table})")},
            transaction=self._locked_transaction,
        )

    @contextmanager
    def _locked_transaction(self) -> Iterator[sqlite3.Connection]:
        with self.lock, self._transaction():
            yield self.db

    def create_game(
        self, game: StoredGame, seats: dict[int, str], accounts: dict[int, int] | None = None
    ) -> None:
        now = time.time()
        accounts = accounts or {}
        with self.lock, self._transaction():
            self.db.execute(
                "INSERT INTO games"
                " (id, settings, header, version, invite_hash, active, created, updated)"
                " VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
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
            self.db.executemany(
                "INSERT INTO seats (game_id, color, token_hash, account_id) VALUES (?, ?, ?, ?)",
                [
                    (game.id, color, token_hash, accounts.get(color))
                    for color, token_hash in seats.items()
                ],
            )

    def _load(self, game_id: str, condition: str, *values: object) -> StoredGame | None:
        """The game and its moves, if its row meets `condition` (more SQL on `games`)."""
        with self.lock:
            row = self.db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?" + condition,
                (game_id, *values),
            ).fetchone()
            if row is None:
                return None
            moves = self.db.execute(
                "SELECT uci, san, clock_ms FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            seat_accounts = accounts.seat_accounts(self.db, "?", game_id)
        return stored_from_rows(game_id, row, moves, seat_accounts)

    def commit(self, game_id: str, change: StoredChange) -> None:
        try:
            self._write_change(game_id, change)
        except sqlite3.IntegrityError as error:
            # A ply or seat that exists already: the change was made for an older game.
            raise StaleVersionError(f"game {game_id}: {error}") from error

    def _write_change(self, game_id: str, change: StoredChange) -> None:
        with self.lock, self._transaction():
            updated = self.db.execute(
                "UPDATE games SET header = ?, version = ?, active = ?, updated = ?"
                " WHERE id = ? AND version = ?",
                (
                    json.dumps(change.header),
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
                self.db.execute(
                    "DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, change.keep_plies)
                )
            self.db.executemany(
                "INSERT INTO moves (game_id, ply, uci, san, clock_ms) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, ply, record.uci, record.san, record.clock_ms)
                    for ply, record in change.added
                ],
            )
            if change.seat is not None:
                self.db.execute(
                    "INSERT INTO seats (game_id, color, token_hash, account_id)"
                    " VALUES (?, ?, ?, ?)",
                    (game_id, *change.seat, change.seat_account),
                )
            self.db.execute(
                "INSERT INTO changes (game_id, version, body) VALUES (?, ?, ?)",
                (game_id, change.version, json.dumps(change.event)),
            )

    def changes_since(self, game_id: str, version: int) -> list[Event]:
        with self.lock:
            rows = self.db.execute(
                "SELECT body FROM changes WHERE game_id = ? AND version > ? ORDER BY version",
                (game_id, version),
            ).fetchall()
        return [json.loads(body) for (body,) in rows]

    def seat_color(self, game_id: str, token_hash: str) -> int | None:
        with self.lock:
            row = self.db.execute(
                "SELECT color FROM seats WHERE game_id = ? AND token_hash = ?",
                (game_id, token_hash),
            ).fetchone()
        return None if row is None else int(row[0])

    def active_game_ids(self) -> list[str]:
        with self.lock:
            rows = self.db.execute("SELECT id FROM games WHERE active = 1").fetchall()
        return [game_id for (game_id,) in rows]

    def finished_game_ids(self, limit: int) -> list[str]:
        query = "SELECT id FROM games WHERE active = 0 ORDER BY updated DESC LIMIT ?"
        with self.lock:
            rows = self.db.execute(query, (limit,)).fetchall()
        return [game_id for (game_id,) in rows]

    def idle_games(self, before: float) -> list[IdleGame]:
        with self.lock:
            rows = self.db.execute(
                "SELECT id, header, version FROM games WHERE active = 1 AND updated < ?",
                (before,),
            ).fetchall()
        return [IdleGame(game_id, json.loads(header), version) for game_id, header, version in rows]

    def last_change(self, game_id: str) -> float | None:
        with self.lock:
            row = self.db.execute("SELECT updated FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else float(row[0])

    def save_analysis(self, analysis_id: str, pgn: str) -> None:
        with self.lock:
            self.db.execute(
                "INSERT INTO analyses (id, pgn, created) VALUES (?, ?, ?)",
                (analysis_id, pgn, int(time.time())),
            )

    def load_analysis(self, analysis_id: str) -> str | None:
        with self.lock:
            row = self.db.execute(
                "SELECT pgn FROM analyses WHERE id = ?", (analysis_id,)
            ).fetchone()
        return None if row is None else str(row[0])

    # -- game reviews (server.storage.reviews), each call one transaction under the lock

    def find_review(self, source: str) -> StoredReview | None:
        with self.lock:
            return reviews.find_review(self.db, "?", source)

    def load_review(self, review_id: str) -> StoredReview | None:
        with self.lock:
            return reviews.load_review(self.db, "?", review_id)

    def add_review(
        self, review: StoredReview, per_address: int | None, max_pending: int
    ) -> tuple[StoredReview, bool]:
        with self.lock, self._transaction():
            return reviews.add_review(self.db, "?", review, per_address, max_pending)

    def save_review(self, review_id: str, host: str, fields: dict[str, Any]) -> bool:
        with self.lock, self._transaction():
            return reviews.save_review(self.db, "?", review_id, host, fields)

    def claim_review(self, review_id: str, host: str, now: float, stale_before: float) -> bool:
        with self.lock, self._transaction():
            return reviews.claim_review(self.db, "?", review_id, host, now, stale_before)

    def pending_reviews(self, queued_before: float, stale_before: float) -> list[str]:
        with self.lock:
            return reviews.pending_reviews(self.db, "?", queued_before, stale_before)

    # -- players' game history (server.storage.history)

    def add_history(self, entries: list[HistoryEntry]) -> None:
        with self.lock, self._transaction():
            history.add_history(self.db, "?", entries)

    def player_games(self, query: GamesQuery) -> list[HistoryRow]:
        with self.lock:
            return history.player_games(self.db, "?", query)

    def player_counts(self, account: int) -> dict[str, int]:
        with self.lock:
            return history.player_counts(self.db, "?", account)

    def playing_games(self, account: int, limit: int) -> list[tuple[int, OngoingGame]]:
        with self.lock:
            return history.playing_games(self.db, "?", "g.active = 1", account, limit)

    # -- the lobby: each call one transaction under the store's lock (server.storage.seeks)

    def add_seek(self, seek: StoredSeek, per_address: int) -> list[str]:
        with self.lock, self._transaction():
            return seeks.add_seek(self.db, "?", seek, per_address)

    def pair_or_wait(
        self, wait: StoredSeek, per_address: int, choose: seeks.Chooser = seeks.oldest
    ) -> tuple[StoredSeek | None, list[str]]:
        with self.lock, self._transaction():
            return seeks.pair_or_wait(self.db, "?", wait, per_address, choose)

    def take_due_pairs(self, due: seeks.PairsDue) -> list[tuple[StoredSeek, StoredSeek]]:
        with self.lock, self._transaction():
            return seeks.take_due_pairs(self.db, "?", due)

    def take_seek(self, seek_id: str, taker: str) -> StoredSeek | None:
        with self.lock, self._transaction():
            return seeks.take_seek(self.db, "?", seek_id, taker)

    def remove_seeks(self, owner: str, seek_id: str | None = None) -> list[StoredSeek]:
        with self.lock, self._transaction():
            return seeks.remove_seeks(self.db, "?", owner, seek_id)

    def list_seeks(self, limit: int) -> list[StoredSeek]:
        with self.lock:
            return seeks.list_seeks(self.db, "?", limit)

    def ongoing_games(self, limit: int) -> list[OngoingGame]:
        with self.lock:
            return seeks.ongoing_games(self.db, "?", "active = 1", limit)

    def beat(self, host: str, now: float, alive_after: float) -> list[str]:
        with self.lock, self._transaction():
            return seeks.beat(self.db, "?", host, now, alive_after)

    def clear_seeks(self) -> None:
        with self.lock, self._transaction():
            self.db.execute("DELETE FROM seeks")

    # -- ratings (server.storage.ratings)

    def ratings_of(self, account_id: int) -> dict[Speed, PlayerRating]:
        with self.lock:
            return ratings.load_ratings(self.db, "?", account_id)

    def rating_history(self, account_id: int, limit: int) -> list[HistoryPoint]:
        with self.lock:
            return ratings.history(self.db, "?", account_id, limit)

    def rated_sides(self, game_id: str) -> list[RatedSide]:
        with self.lock:
            return ratings.rated_sides(self.db, "?", game_id)

    def rate_game(
        self, game_id: str, speed: Speed, white_score: float, now: float
    ) -> list[RatedSide]:
        with self.lock, self._transaction():
            accounts = ratings.seat_accounts(self.db, "?", game_id)
            if len(accounts) < 2:
                return []
            return ratings.rate(self.db, "?", game_id, accounts, speed, white_score, now)

    # -- accounts (server.storage.accounts), each call one transaction under the lock

    def create_user(self, user: tuple[str, str, str], codes: list[tuple[str, str]]) -> int:
        try:
            with self.lock, self._transaction():
                return accounts.create_user(self.db, "?", user, time.time(), codes)
        except sqlite3.IntegrityError as error:  # another process took the name meanwhile
            raise NameTakenError(user[0]) from error

    def user_by_key(self, name_key: str) -> StoredUser | None:
        with self.lock:
            return accounts.user_by_key(self.db, "?", name_key)

    def user_by_id(self, user_id: int) -> StoredUser | None:
        with self.lock:
            return accounts.user_by_id(self.db, "?", user_id)

    def account_by_name(self, name: str) -> Account | None:
        return account_of(self.user_by_key(name_key(name)))

    def add_session(self, id_hash: str, user_id: int) -> None:
        with self.lock, self._transaction():
            accounts.add_session(self.db, "?", id_hash, user_id, time.time())

    def session_user(self, id_hash: str, seen_after: float) -> StoredUser | None:
        with self.lock, self._transaction():
            return accounts.session_user(self.db, "?", id_hash, time.time(), seen_after)

    def end_session(self, id_hash: str) -> None:
        with self.lock, self._transaction():
            accounts.end_session(self.db, "?", id_hash)

    def set_password(self, user_id: int, password_hash: str) -> None:
        with self.lock, self._transaction():
            accounts.set_password(self.db, "?", user_id, password_hash)

    def recovery_code_hash(self, user_id: int, code_id: str) -> str | None:
        with self.lock:
            return accounts.recovery_code_hash(self.db, "?", user_id, code_id)

    def use_recovery_code(self, user_id: int, code_id: str, password_hash: str) -> bool:
        with self.lock, self._transaction():
            return accounts.use_recovery_code(self.db, "?", user_id, code_id, password_hash)

    def delete_user(self, user_id: int) -> None:
        with self.lock, self._transaction():
            accounts.delete_user(self.db, "?", user_id)
            ratings.forget_account(self.db, "?", user_id)

    def claim_seats(self, user_id: int, seats: list[tuple[str, str]]) -> list[str] | None:
        with self.lock, self._transaction():
            return accounts.claim_seats(self.db, "?", user_id, seats)

    def link_seat(self, game_id: str, color: int, user_id: int) -> None:
        with self.lock, self._transaction():
            accounts.link_seat(self.db, "?", game_id, color, user_id)

    def add_passkey(self, user_id: int, passkey: tuple[str, str, int]) -> bool:
        with self.lock, self._transaction():
            return accounts.add_passkey(self.db, "?", user_id, passkey, time.time())

    def passkey(self, credential_id: str) -> tuple[int, str, int] | None:
        with self.lock:
            return accounts.passkey(self.db, "?", credential_id)

    def delete_passkey(self, user_id: int, credential_id: str) -> bool:
        with self.lock, self._transaction():
            return accounts.delete_passkey(self.db, "?", user_id, credential_id)

    def passkey_ids(self, user_id: int) -> list[str]:
        with self.lock:
            return accounts.passkey_ids(self.db, "?", user_id)

    def count_passkey(self, credential_id: str, sign_count: int) -> None:
        with self.lock, self._transaction():
            accounts.count_passkey(self.db, "?", credential_id, sign_count)

    def account_seats(self, user_id: int) -> list[tuple[str, int]]:
        with self.lock:
            return accounts.account_seats(self.db, "?", user_id)

    def rename_seat(self, game_id: str, color: int, name: str) -> None:
        with self.lock, self._transaction():
            accounts.rename_seat(self.db, "?", game_id, color, name)

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK when the block raises (a constraint, a stale
    version): the write lock is taken up front so two processes never interleave a change."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
