"""Puzzles on the server: how long choosing and serving a puzzle takes through the real route.

Usage: `python bench/puzzles.py [--requests N] [--size 100000]`

Builds the app in process (threading mode, its own instance folder, SQLite), whose start loads
the shipped set (timed), and asks `GET /api/puzzles/next` through Flask's test client (the
route, the parsing, the service, the SQL, the JSON) `--requests` times with a random rating,
a third of them with a random theme and a third with 100 excluded ids, as the page sends. Then
the table is grown to `--size` puzzles by replaying the shipped set's lines under new ids
(rows inserted directly, each a copy of a shipped puzzle with its rating moved at random) and
the same requests are timed again. Prints the median and p95 in milliseconds; the goal is a
median under 5 ms. The per-address bound is lifted for the bench (one address asks all).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.app import create_app  # noqa: E402
from server.puzzles.service import PuzzleService  # noqa: E402
from server.services import SERVICES  # noqa: E402
from server.shared.buckets import AddressBuckets  # noqa: E402
from server.storage.sqlite import SqliteDatabase  # noqa: E402
from server.tables import build_tables  # noqa: E402

THEMES = ("fork", "mateIn1", "hangingPiece", "endgame", "pin", "short", "mateIn2")


def time_requests(client, count: int, rng: random.Random, ids: list[str]) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for n in range(count):
        params = {"rating": str(rng.randrange(800, 2400))}
        if n % 3 == 1:
            params["theme"] = rng.choice(THEMES)
        if n % 3 == 2:
            params["exclude"] = ",".join(rng.sample(ids, 100))
        started = time.perf_counter()
        response = client.get("/api/puzzles/next", query_string=params)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.get_json()
    return times


def grow(services, size: int, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    database = services.tables.database
    with database.connection() as db:
        rows = db.execute(
            "SELECT id, fen, moves, rating, themes, source, position_key FROM puzzles"
        ).fetchall()
    with database.transaction() as db:
        n = len(rows)
        while n < size:
            _, fen, moves, rating, themes, source, key = rows[n % len(rows)]
            new_id, moved = f"b{n:07d}", rating + rng.uniform(-300, 300)
            db.execute(
                "INSERT INTO puzzles (id, fen, moves, rating, deviation, volatility, plays,"
                " themes, source, owner_id, position_key) VALUES (?, ?, ?, ?, 500, 0.06, 0,"
                " ?, ?, NULL, ?)",
                (new_id, fen, moves, moved, themes, source, f"{key} {new_id}"),
            )
            for theme in themes.split():
                db.execute(
                    "INSERT INTO puzzle_themes (theme, puzzle_id, rating) VALUES (?, ?, ?)",
                    (theme, new_id, moved),
                )
            n += 1


def report(label: str, times: list[float]) -> None:
    times.sort()
    p95 = times[int(len(times) * 0.95)]
    median = statistics.median(times)
    print(f"{label}: median {median:.2f} ms, p95 {p95:.2f} ms ({len(times)} requests)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--size", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(35)
    print(f"python {platform.python_version()} on {platform.machine()}")
    with tempfile.TemporaryDirectory() as folder:
        tables = build_tables(SqliteDatabase(Path(folder) / "load.sqlite3"))
        started = time.perf_counter()
        added = PuzzleService(tables.puzzles).load_shipped()
        loaded = time.perf_counter() - started
        print(f"the shipped set into an empty table: {added} puzzles in {loaded:.2f} s")
        tables.close()
        started = time.perf_counter()
        app = create_app({"ASYNC_MODE": "threading", "INSTANCE_PATH": folder})
        print(f"app built, shipped set loaded: {time.perf_counter() - started:.2f} s")
        services = SERVICES.of(app)
        services.puzzles.buckets = AddressBuckets(10**9, 1e-9)
        again = time.perf_counter()
        services.puzzles.load_shipped()
        seconds = time.perf_counter() - again
        print(f"a second start's load (the set there already): {seconds * 1000:.1f} ms")
        client = app.test_client()
        with services.tables.database.connection() as db:
            ids = [row[0] for row in db.execute("SELECT id FROM puzzles").fetchall()]
        report(f"shipped set ({len(ids)} puzzles)", time_requests(client, args.requests, rng, ids))
        grow(services, args.size, rng)
        report(f"{args.size} puzzles", time_requests(client, args.requests, rng, ids))
        services.tables.close()


if __name__ == "__main__":
    main()
