"""The review's time through a real server, and a live game's move round trip meanwhile.

Part of `bench/review.py` (its step 4), or alone: `python -m bench.review_timing [--plies 80]
[--moves 200]`. A real server (`python -m server`, the default engine pool of one worker per
core, with the review's engine as the environment sets it: CHESS_STOCKFISH, by default the npm
Stockfish, whose review takes every worker no game needs) is started on 127.0.0.1; an 80-ply
game (the first of the benchmark's games that long, cut to 80 plies) is posted as PGN to
`POST /api/reviews`, and a Socket.IO client watches it (`review_watch`, then `review_update`
pushes). Timed from the POST: the first judged ply pushed to the watcher (goal < 2 s) and the
review done (goal < 60 s). A friend game's move round trip, as bench/latency.py measures it
(the mover's `move` to the opponent's state), is timed first with nothing else running, then
while the review runs (until it ends or `moves` round trips are in); p50 and p90 of both and
their difference (goal: within 5 ms).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess.pgn
import requests
import socketio

from bench.latency import FriendTable, percentile
from server.engine.pool import default_size
from tests.support.live_server import LiveServer

WARM_UP_MOVES = 16
# Between two moves: a connection may send 10 events a second (server/edge/ratelimit.py),
# and each client of the friend game sends a move every other ply and a join every eight, so
# moves closer than this would be refused over a review's minute (bench/latency.py's 20 ms
# pauses fit its 50-move rounds only).
PAUSE_SECONDS = 0.1
# The friend game starts a new game every eight plies, far more often than one address of a
# public site may (as in bench/latency.py); the review's own settings stay the defaults.
LIFTED_LIMITS = {"CHESS_CREATE_BURST": "1000000", "CHESS_CREATE_INTERVAL": "5"}
WARM_UP_PLIES = 4  # the short review that starts the pool's workers
BUSY_MOVES_MAX = 100_000  # round trips while the review runs: as many as fit in it
WATCH_TIMEOUT = 300.0  # seconds; a review that takes longer is reported as not done


@dataclass
class Watch:
    """What the watcher saw, in seconds from the POST."""

    posted: float
    first_judged: float | None = None
    done: float | None = None
    status: str = "queued"
    judged: set[int] = field(default_factory=set)
    finished: threading.Event = field(default_factory=threading.Event)

    def seen(self, status: str, plies: list[dict[str, Any]]) -> None:
        now = time.perf_counter() - self.posted
        # A judged ply has its accuracy (its eval is null after a mate on the board).
        judged = [item["ply"] for item in plies if item.get("accuracy") is not None]
        if judged and self.first_judged is None:
            self.first_judged = now
        self.judged.update(judged)
        self.status = status
        if status in ("done", "failed") and self.done is None:
            self.done = now
            self.finished.set()


def timed_game(games: list[chess.pgn.Game], plies: int) -> chess.pgn.Game:
    """The first game with at least `plies` plies, cut to `plies` (else the longest game, whole)."""
    longest = max(games, key=lambda game: len(list(game.mainline_moves())))
    chosen = next((g for g in games if len(list(g.mainline_moves())) >= plies), longest)
    short = chess.pgn.Game()
    for tag in ("Event", "Site", "Date", "White", "Black", "Result"):
        short.headers[tag] = chosen.headers.get(tag, "?")
    short.headers["Result"] = "*"  # the cut game did not end there
    node: chess.pgn.GameNode = short
    for move in list(chosen.mainline_moves())[:plies]:
        node = node.add_main_variation(move)
    return short


def post_and_watch(url: str, pgn: str) -> tuple[Watch, socketio.Client]:
    """POST the PGN, then watch the review over Socket.IO; the watch fills in as pushes come."""
    client = socketio.Client(reconnection=False)
    watch = Watch(posted=0.0)
    client.on("review_update", lambda update: watch.seen(update["status"], update.get("plies", [])))
    client.connect(url, transports=["websocket"])
    watch.posted = time.perf_counter()
    reply = requests.post(f"{url}/api/reviews", json={"pgn": pgn}, timeout=30).json()
    if not reply.get("ok"):
        raise RuntimeError(f"POST /api/reviews refused the game: {reply}")
    ack = client.call("review_watch", {"id": reply["id"]}, timeout=30)
    if not ack.get("ok"):
        raise RuntimeError(f"review_watch refused: {ack}")
    review = ack["review"]
    watch.seen(review["status"], review["plies"])
    return watch, client


def round_trips(
    table: FriendTable, moves: int, until: threading.Event | None = None
) -> list[float]:
    """Up to `moves` timed round trips (fewer if `until` is set first)."""
    samples = []
    for _ in range(moves):
        if until is not None and until.is_set():
            break
        samples.append(table.timed_move())
        time.sleep(PAUSE_SECONDS)
    return samples


def run_timing(games: list[chess.pgn.Game], plies: int, moves: int) -> None:
    """Step 4 of bench/review.py: print the review's times and the round trips beside goals.

    A short review first (the timed game's first WARM_UP_PLIES plies) starts the pool's
    workers, as opening the game page or the analysis board does for a user; its time to the
    first judged ply is printed as the cold start. The round trips without a review are taken
    half before the review and half after it, so a drift of the machine's speed (it is shared)
    falls on both sides; those while it runs are taken from the POST until the review is done.
    """
    game = timed_game(games, plies)
    length = len(list(game.mainline_moves()))
    with tempfile.TemporaryDirectory(prefix="chess-review-") as folder:
        server = LiveServer(Path(folder) / "instance", env=LIFTED_LIMITS)
        server.start()
        table = FriendTable(server.url)
        try:
            cold, cold_client = post_and_watch(server.url, str(timed_game([game], WARM_UP_PLIES)))
            cold.finished.wait(WATCH_TIMEOUT)
            cold_client.disconnect()
            round_trips(table, WARM_UP_MOVES)
            quiet = round_trips(table, moves // 2)
            watch, client = post_and_watch(server.url, str(game))
            busy = round_trips(table, BUSY_MOVES_MAX, until=watch.finished)
            watch.finished.wait(WATCH_TIMEOUT)
            client.disconnect()
            quiet += round_trips(table, moves - moves // 2)
        finally:
            table.close()
            server.stop()
    report(game, length, cold, watch, quiet, busy)


def report(
    game: chess.pgn.Game,
    length: int,
    cold: Watch,
    watch: Watch,
    quiet: list[float],
    busy: list[float],
) -> None:
    names = f"{game.headers.get('White', '?')} - {game.headers.get('Black', '?')}"
    print(
        f"timing through a real server: engine pool of {default_size()} worker(s) on this"
        f" machine; {names}, {length} plies, posted as PGN"
    )
    first = f"{watch.first_judged:.2f} s" if watch.first_judged is not None else "never"
    done = f"{watch.done:.1f} s" if watch.done is not None else f"not within {WATCH_TIMEOUT:.0f} s"
    cold_first = f"{cold.first_judged:.2f} s" if cold.first_judged is not None else "never"
    print(f"first judged ply pushed: {first}   (goal < 2 s)")
    print(
        f"  (on a cold pool, the {WARM_UP_PLIES}-ply review that started the workers: {cold_first})"
    )
    print(f"review {watch.status}: {done}   (goal < 60 s; {len(watch.judged)} plies judged)")
    if not busy:
        print("round trip while the review runs: no sample (the review ended first)")
        return
    print(
        f"friend game's move round trip: {len(quiet)} moves without a review (half before, half"
        f" after), {len(busy)} while it runs"
    )
    print(f"{'':22}{'p50':>10}{'p90':>10}")
    for name, samples in (("without a review", quiet), ("while it runs", busy)):
        figures = [percentile(samples, fraction) * 1000 for fraction in (0.5, 0.9)]
        print(f"{name:22}" + "".join(f"{value:8.2f}ms" for value in figures))
    differences = [
        (percentile(busy, fraction) - percentile(quiet, fraction)) * 1000 for fraction in (0.5, 0.9)
    ]
    print(f"{'difference':22}" + "".join(f"{value:+8.2f}ms" for value in differences)
          + "   (goal: within 5 ms)")  # fmt: skip
    sys.stdout.flush()


def main() -> None:
    """`python -m bench.review_timing`: step 4 of bench/review.py alone, on the server's
    engine as the environment sets it (CHESS_STOCKFISH, CHESS_REVIEW_NODES)."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=80, help="the timed game's plies")
    parser.add_argument("--moves", type=int, default=200, help="round trips without a review")
    args = parser.parse_args()
    from bench import review_oracle

    print(f"load {os.getloadavg()[0]:.2f}; CHESS_STOCKFISH={os.environ.get('CHESS_STOCKFISH')}")
    run_timing(review_oracle.read_games(), args.plies, args.moves)


if __name__ == "__main__":
    main()
