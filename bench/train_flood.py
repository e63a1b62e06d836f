"""A friend game's move round trip during a trainer flood (issue 33, 8), against one real
server on 127.0.0.1.

Usage:
  python bench/train_flood.py                        # 40 addresses for 30 s
  python bench/train_flood.py --addresses 10 --seconds 10

The server is started as a user starts it (`python -m server`, gevent, its default limits). Two
players (Socket.IO, from 127.0.0.1) play a friend game, knights out and back, a new game every
12 plies: the time from sending a move to its acknowledgement, `--moves` of them alone, then
for `--seconds` while `--addresses` visitors from 127.0.3.x each ask for drills and answer
them as fast as they are answered (`GET /api/train/next`, `POST /api/train/answer`). Printed:
the round trip alone and during the flood (p50 and max; goal: within 50 ms of alone), and the
flood's answers by status (200 a drill or a verdict, 429 the address's bucket, 503 busy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from tests.support.addresses import SourceAddress
from tests.support.game_client import GameClient, invite_token
from tests.support.live_server import LiveServer

KNIGHTS = ("g1f3", "g8f6", "f3g1", "f6g8") * 3
KINDS = ("hanging", "pins", "fork", "checks", "safe")  # answered by an empty list


class FriendGame:
    """Two players on one socket each; `round_trip` plays the next move and times its ack."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.white, self.black = GameClient(url), GameClient(url)
        self.games = 0
        self._new_game()

    def _new_game(self) -> None:
        # Each game from an address of its own: on an idle machine the moves come fast enough
        # to create more games than one address's creation bucket allows (10, then one in 5 s).
        self.games += 1
        http = requests.Session()
        http.mount("http://", SourceAddress(f"127.0.4.{self.games % 250 + 1}"))
        created = http.post(
            self.url + "/api/games", json={"opponent": "friend", "color": "white"}, timeout=60
        ).json()
        self.game, self.ply = created["game"], 0
        self.white.join(self.game, seat=created["seat"])
        self.black.join(self.game, invite=invite_token(created), name="Black")

    def round_trip(self) -> float:
        if self.ply == len(KNIGHTS):
            self._new_game()
        player = self.white if self.ply % 2 == 0 else self.black
        started = time.monotonic()
        reply = player.move(self.game, self.ply, KNIGHTS[self.ply])
        took = time.monotonic() - started
        assert reply["ok"], reply
        self.ply += 1
        return took

    def close(self) -> None:
        self.white.close()
        self.black.close()


class Flood:
    """`addresses` trainees asking for drills and answering them until `stop` is set."""

    def __init__(self, url: str, addresses: int) -> None:
        self.url = url
        self.statuses: Counter[int] = Counter()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._trainee, args=(index,), daemon=True)
            for index in range(addresses)
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def join(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=120)

    def _count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] += 1

    def _trainee(self, index: int) -> None:
        http = requests.Session()
        http.mount("http://", SourceAddress(f"127.0.3.{index % 250 + 1}"))
        rng = random.Random(index)
        while not self.stop.is_set():
            kind = rng.choice(KINDS)
            asked = http.get(f"{self.url}/api/train/next?kind={kind}&level=1", timeout=120)
            self._count(asked.status_code)
            if asked.status_code != 200:
                continue
            drill = asked.json()["drill"]
            body = {"id": drill["id"], "answer": []}
            self._count(
                http.post(f"{self.url}/api/train/answer", json=body, timeout=120).status_code
            )


def summary(times: list[float]) -> str:
    if not times:
        return "no samples"
    return (
        f"p50 {statistics.median(times) * 1000:6.1f} ms  max {max(times) * 1000:6.1f} ms"
        f"  ({len(times)})"
    )


def run_flood(url: str, addresses: int, seconds: float, moves: int) -> dict[str, list[float]]:
    """The flood against the server at `url`; prints its figures and returns the round trips."""
    game = FriendGame(url)
    try:
        alone = [game.round_trip() for _ in range(moves)]
        flood = Flood(url, addresses)
        flood.start()
        during: list[float] = []
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            during.append(game.round_trip())
            time.sleep(0.1)
        flood.join()
    finally:
        game.close()
    print(f"trainer flood: {addresses} addresses for {seconds:.0f} s")
    print(f"  friend move round trip alone:  {summary(alone)}")
    print(f"  friend move round trip during: {summary(during)} (goal: within 50 ms of alone)")
    print(f"  flood's answers: {dict(sorted(flood.statuses.items()))} (200, 429 bucket, 503 busy)")
    return {"alone": alone, "during": during}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--async-mode", choices=("gevent", "threading"), default="gevent")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as instance:
        env = {"CHESS_ASYNC_MODE": args.async_mode}
        server = LiveServer(Path(instance), env=env).start(timeout=120)
        try:
            run_flood(server.url, args.addresses, args.seconds, args.moves)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
