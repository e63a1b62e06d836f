"""The game reviews' table: a row of `reviews` per review (server.review).

A row holds its 8-character id, its `source` (a game's id, or a hash of a PGN's start
position, moves and setting: unique, so a game is reviewed once), its status and progress, the
review's JSON as the API serves it (`results`), the positions' evaluations it was judged from
(`evals`, to resume a review cut short), the reviewed PGN once done, the address that asked and
the process running it (`host`). Adding a review is one transaction holding REVIEW_LOCK (in
PostgreSQL; SQLite's `BEGIN IMMEDIATE` serialises it anyway), so the limits and the duplicate
source are checked atomically across processes; claiming one is one guarded UPDATE, so exactly
one process of a cluster runs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.storage.database import Connection, Database
from server.storage.migrations import run

# Adding a review holds this advisory lock (PostgreSQL): its limits count every process's.
REVIEW_LOCK = 0x52455649

REVIEW_TABLE = """
CREATE TABLE IF NOT EXISTS reviews (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    results TEXT NOT NULL,
    evals TEXT NOT NULL,
    pgn TEXT,
    address TEXT NOT NULL,
    host TEXT,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
CREATE INDEX IF NOT EXISTS reviews_status ON reviews(status, created);
CREATE INDEX IF NOT EXISTS reviews_address ON reviews(address, status);
"""


def create_table(db: Connection, database: Database) -> None:
    """Migration 1 (with the other first tables): reviews."""
    run(db, REVIEW_TABLE)


COLUMNS = "id, source, status, done, total, results, evals, pgn, address, host, created, updated"
PENDING = "status IN ('queued', 'running')"


@dataclass(frozen=True)
class StoredReview:
    """A game review's row: `results` the review's JSON text, `evals` the positions'
    evaluations as JSON text, `pgn` the reviewed PGN once done."""

    id: str
    source: str
    status: str
    done: int
    total: int
    results: str
    evals: str
    pgn: str | None
    address: str
    host: str | None
    created: float
    updated: float


class ReviewLimitError(Exception):
    """Too many reviews pending: from one address (`what` "address") or in all ("queue")."""

    def __init__(self, what: str, count: int) -> None:
        super().__init__(f"{count} reviews pending ({what})")
        self.what = what
        self.count = count


def _review(row: Any) -> StoredReview:
    rid, source, status, done, total, results, evals, pgn, address, host, created, updated = row
    return StoredReview(
        rid,
        source,
        status,
        int(done),
        int(total),
        results,
        evals,
        pgn,
        address,
        host,
        float(created),
        float(updated),
    )


class ReviewTables:
    """The reviews' rows in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    @property
    def shared(self) -> bool:
        """Whether other processes run reviews too (`Database.shared`)."""
        return self.database.shared

    def find_review(self, source: str) -> StoredReview | None:
        """The review of `source` (a game id, or a PGN's hash), if there is one."""
        with self.database.connection() as db:
            return self._find(db, source)

    def load_review(self, review_id: str) -> StoredReview | None:
        with self.database.connection() as db:
            return self._load(db, review_id)

    def add_review(
        self, review: StoredReview, per_address: int | None, max_pending: int
    ) -> tuple[StoredReview, bool]:
        """Store `review` unless its source is reviewed already: (the stored one, whether it
        is new). A failed review of the same source is queued again in its place.
        ReviewLimitError when its address has `per_address` pending (None: no limit) or
        `max_pending` are."""
        with self.database.transaction(REVIEW_LOCK) as db:
            found = self._find(db, review.source)
            if found is not None and found.status != "failed":
                return found, False
            self._check_limits(db, review.address, per_address, max_pending)
            if found is not None:  # failed before: again, from where it stopped
                db.execute(
                    self.sql(
                        "UPDATE reviews SET status = 'queued', host = NULL, updated = ?"
                        " WHERE id = ?"
                    ),
                    (review.updated, found.id),
                )
                return self._load(db, found.id) or found, True
            db.execute(
                self.sql(
                    f"INSERT INTO reviews ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                ),
                (
                    review.id,
                    review.source,
                    review.status,
                    review.done,
                    review.total,
                    review.results,
                    review.evals,
                    review.pgn,
                    review.address,
                    review.host,
                    review.created,
                    review.updated,
                ),
            )
            return review, True

    def save_review(self, review_id: str, host: str, fields: dict[str, Any]) -> bool:
        """Write `fields` (status, done, total, results, evals, pgn, updated) of a review
        this `host` runs; False when another process took it meanwhile (nothing is
        written)."""
        names = sorted(fields)
        assignments = ", ".join(f"{name} = ?" for name in names)
        with self.database.connection() as db:
            written = db.execute(
                self.sql(f"UPDATE reviews SET {assignments} WHERE id = ? AND host = ?"),
                (*(fields[name] for name in names), review_id, host),
            )
            return bool(written.rowcount == 1)

    def claim_review(self, review_id: str, host: str, now: float, stale_before: float) -> bool:
        """Take a queued review for `host`, or a running one its process left (not written
        since `stale_before`); whether it was taken."""
        with self.database.connection() as db:
            taken = db.execute(
                self.sql(
                    "UPDATE reviews SET status = 'running', host = ?, updated = ? WHERE id = ?"
                    " AND (status = 'queued' OR (status = 'running' AND updated < ?))"
                ),
                (host, now, review_id, stale_before),
            )
            return bool(taken.rowcount == 1)

    def pending_reviews(self, queued_before: float, stale_before: float) -> list[str]:
        """Reviews to take: queued since before `queued_before`, or running but not written
        since `stale_before` (their process is gone), oldest first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT id FROM reviews WHERE (status = 'queued' AND created < ?)"
                    " OR (status = 'running' AND updated < ?) ORDER BY created, id"
                ),
                (queued_before, stale_before),
            ).fetchall()
        return [review_id for (review_id,) in rows]

    def _find(self, db: Connection, source: str) -> StoredReview | None:
        row = db.execute(
            self.sql(f"SELECT {COLUMNS} FROM reviews WHERE source = ?"), (source,)
        ).fetchone()
        return None if row is None else _review(row)

    def _load(self, db: Connection, review_id: str) -> StoredReview | None:
        row = db.execute(
            self.sql(f"SELECT {COLUMNS} FROM reviews WHERE id = ?"), (review_id,)
        ).fetchone()
        return None if row is None else _review(row)

    def _check_limits(
        self, db: Connection, address: str, per_address: int | None, max_pending: int
    ) -> None:
        if per_address is not None:
            (held,) = db.execute(
                self.sql(f"SELECT COUNT(*) FROM reviews WHERE address = ? AND {PENDING}"),
                (address,),
            ).fetchone()
            if held >= per_address:
                raise ReviewLimitError("address", held)
        (pending,) = db.execute(f"SELECT COUNT(*) FROM reviews WHERE {PENDING}").fetchone()
        if pending >= max_pending:
            raise ReviewLimitError("queue", pending)
