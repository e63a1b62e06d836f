"""The game reviews' table and its queries, written once for both SQL back ends.

A row of `reviews` is one review (server.review): its 8-character id, its `source` (a game's
id, or a hash of a PGN's start position, moves and setting: unique, so a game is reviewed
once), its status and progress, the review's JSON as the API serves it (`results`), the
positions' evaluations it was judged from (`evals`, to resume a review cut short), the
reviewed PGN once done, the address that asked and the process running it (`host`). The
functions take an open connection inside the back end's transaction (SQLite: `BEGIN
IMMEDIATE` under the store's lock; PostgreSQL: a transaction holding an advisory lock), so
adding a review checks the limits and the duplicate source atomically, and claiming one lets
exactly one process of a cluster run it.
"""

from __future__ import annotations

from typing import Any

from server.storage.interface import ReviewLimitError, StoredReview
from server.storage.seeks import Database, sql

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

COLUMNS = "id, source, status, done, total, results, evals, pgn, address, host, created, updated"
PENDING = "status IN ('queued', 'running')"


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


def find_review(db: Database, mark: str, source: str) -> StoredReview | None:
    row = db.execute(
        sql(f"SELECT {COLUMNS} FROM reviews WHERE source = ?", mark), (source,)
    ).fetchone()
    return None if row is None else _review(row)


def load_review(db: Database, mark: str, review_id: str) -> StoredReview | None:
    row = db.execute(
        sql(f"SELECT {COLUMNS} FROM reviews WHERE id = ?", mark), (review_id,)
    ).fetchone()
    return None if row is None else _review(row)


def add_review(
    db: Database, mark: str, review: StoredReview, per_address: int | None, max_pending: int
) -> tuple[StoredReview, bool]:
    """Store `review` unless its source is reviewed already: (the stored one, whether it is
    new). A failed review of the same source is queued again in its place. ReviewLimitError
    when its address has `per_address` pending (None: no limit) or `max_pending` are."""
    found = find_review(db, mark, review.source)
    if found is not None and found.status != "failed":
        return found, False
    if per_address is not None:
        (held,) = db.execute(
            sql(f"SELECT COUNT(*) FROM reviews WHERE address = ? AND {PENDING}", mark),
            (review.address,),
        ).fetchone()
        if held >= per_address:
            raise ReviewLimitError("address", held)
    (pending,) = db.execute(f"SELECT COUNT(*) FROM reviews WHERE {PENDING}").fetchone()
    if pending >= max_pending:
        raise ReviewLimitError("queue", pending)
    if found is not None:  # failed before: again, from where it stopped
        db.execute(
            sql(
                "UPDATE reviews SET status = 'queued', host = NULL, updated = ? WHERE id = ?", mark
            ),
            (review.updated, found.id),
        )
        return load_review(db, mark, found.id) or found, True
    db.execute(
        sql(f"INSERT INTO reviews ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", mark),
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


def save_review(
    db: Database,
    mark: str,
    review_id: str,
    host: str,
    fields: dict[str, Any],
) -> bool:
    """Write `fields` (status, done, total, results, evals, pgn, updated) of a review this
    `host` runs; False when another process took it meanwhile (nothing is written)."""
    names = sorted(fields)
    assignments = ", ".join(f"{name} = ?" for name in names)
    written = db.execute(
        sql(f"UPDATE reviews SET {assignments} WHERE id = ? AND host = ?", mark),
        (*(fields[name] for name in names), review_id, host),
    )
    return bool(written.rowcount == 1)


def claim_review(
    db: Database, mark: str, review_id: str, host: str, now: float, stale_before: float
) -> bool:
    """Take a queued review for `host`, or a running one its process left (not written since
    `stale_before`); whether it was taken."""
    taken = db.execute(
        sql(
            "UPDATE reviews SET status = 'running', host = ?, updated = ? WHERE id = ? AND"
            " (status = 'queued' OR (status = 'running' AND updated < ?))",
            mark,
        ),
        (host, now, review_id, stale_before),
    )
    return bool(taken.rowcount == 1)


def pending_reviews(
    db: Database, mark: str, queued_before: float, stale_before: float
) -> list[str]:
    """Reviews to take: queued since before `queued_before`, or running but not written since
    `stale_before` (their process is gone), oldest first."""
    rows = db.execute(
        sql(
            "SELECT id FROM reviews WHERE (status = 'queued' AND created < ?)"
            " OR (status = 'running' AND updated < ?) ORDER BY created, id",
            mark,
        ),
        (queued_before, stale_before),
    )
    return [review_id for (review_id,) in rows.fetchall()]
