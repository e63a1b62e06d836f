"""Ratings: how long one rated game's update takes, in the core and through the store.

Usage: `python bench/ratings.py [--games N]`

First chesscore's `rate_game` (both sides' Glicko-2 updates, the volatility iteration and the
deviation grown for the time since the last game) on `--games` random pairs of ratings and
results; then the SQLite store's `rate_game` (one transaction: the game's rows looked for, both
ratings read, both updated, two history rows written) on as many games between a pool of 20
accounts in a temporary file, with `synchronous=NORMAL` as the server opens it. Times are per
game in microseconds: median, 90th percentile and maximum. No figure is judged here: the
update runs once per finished rated game, under the game's lock.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore.ratings import PlayerRating, Speed, rate_game
from chesscore.ratings.glicko2 import Glicko
from server.games.rating import glicko_rate
from server.games.stored import StoredGame
from server.storage.sqlite import SqliteDatabase
from server.tables import build_tables

ACCOUNTS = 20


def report(label: str, seconds: list[float]) -> None:
    micros = sorted(s * 1e6 for s in seconds)
    p90 = micros[int(len(micros) * 0.9) - 1] if len(micros) >= 10 else micros[-1]
    print(
        f"{label:<44} {len(micros):>6} games  median {statistics.median(micros):8.1f} us"
        f"  p90 {p90:8.1f} us  max {micros[-1]:8.1f} us"
    )


def random_player(rng: random.Random) -> PlayerRating:
    glicko = Glicko(rng.uniform(800, 2600), rng.uniform(45, 500), rng.uniform(0.04, 0.1))
    return PlayerRating(glicko, rng.randrange(200), rng.uniform(0, 1.7e9))


def bench_core(games: int, rng: random.Random) -> None:
    times = []
    for _ in range(games):
        white, black = random_player(rng), random_player(rng)
        score = rng.choice((0.0, 0.5, 1.0))
        start = time.perf_counter()
        rate_game(white, black, score, 1.7e9)
        times.append(time.perf_counter() - start)
    report("chesscore rate_game (both sides)", times)


def bench_store(games: int, rng: random.Random) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = build_tables(SqliteDatabase(Path(folder) / "games.sqlite3"))
        accounts = [
            store.accounts.create_user((f"p{i}", f"p{i}", "hash"), []) for i in range(ACCOUNTS)
        ]
        settings = {"opponent": "friend", "creator": 0, "start_fen": "", "clock": None}
        times = []
        for number in range(games):
            game_id = f"bench{number:07d}"
            store.games.create_game(StoredGame(game_id, settings, {}, 0, []), {0: "w", 1: "b"})
            white, black = rng.sample(accounts, 2)
            store.accounts.link_seat(game_id, 0, white)
            store.accounts.link_seat(game_id, 1, black)
            score = rng.choice((0.0, 0.5, 1.0))
            start = time.perf_counter()
            store.ratings.rate_game(
                game_id, Speed.BLITZ, glicko_rate(score, 1.7e9 + number * 60), 1.7e9 + number * 60
            )
            times.append(time.perf_counter() - start)
        again = time.perf_counter()
        store.ratings.rate_game(
            "bench0000000", Speed.BLITZ, glicko_rate(1.0, 1.8e9), 1.8e9
        )  # already rated: read back
        report("SQLite store rate_game (one transaction)", times)
        report("SQLite store rate_game, a game rated before", [time.perf_counter() - again])
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    rng = random.Random(args.seed)
    bench_core(args.games, rng)
    bench_store(args.games, rng)


if __name__ == "__main__":
    main()
