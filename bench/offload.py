"""What the large requests cost, and what a player waits while a visitor sends them (issue 26.3).

Usage:
  python bench/offload.py                     # both parts, 4 attacking addresses
  python bench/offload.py --costs             # only the CPU each large request costs
  python bench/offload.py --attackers 8 --moves 12
  python bench/offload.py --tree-moves 100 --rounds 1   # smaller trees, one timing each
  cd ../main && python ../offloop/bench/offload.py --source .  # another checkout's server

First, in this process, the CPU each large request of the analysis and review API costs, as the
serving process paid it before the work pool (server.work): a 1 MB PGN file listed and its
chosen game read, a 4,999-move tree posted (decoded, replayed, written as PGN and as the wire
tree), the same tree stored and read back, its annotated PGN, an annotated export, a review's
PGN read, and the longest analysis path a Socket.IO event replays (in the pool past 100 moves).
Then a real server (`python -m server` on 127.0.0.1, default settings): a victim plays a
level-1 game against the computer and loads the front page, alone and then while `--attackers`
addresses each loop on those large requests (annotated exports, 1 MB imports, annotated PGNs of
a stored tree, as fast as they are answered); printed are the victim's computer replies and
page loads (p50 and max, seconds) in both phases, and the attackers' answers by code.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests
import socketio

from chesscore.review.evaluate import ReviewSetting
from chesscore.rules.pgn_export import make_tree_pgn
from server.analysis import jobs as offload_jobs
from server.analysis.service import list_games, read_game
from server.analysis.tree import MAX_PATH, replay_path
from server.review.sources import pgn_source
from tests.support.addresses import SourceAddress
from tests.support.big_trees import MAX_MOVES, big_game, big_tree, compact_tree
from tests.support.game_client import GameClient, create_game
from tests.support.live_server import LiveServer

LONG_GAME = Path(__file__).resolve().parent / "data" / "long_game.pgn"
MEGABYTE = 1024 * 1024
TIMEOUT = 120.0
# Knights out and back: legal from the start position and after every four plies.
KNIGHT_CYCLE = ("g1f3", "g8f6", "f3g1", "f6g8")


def one_megabyte_pgn() -> str:
    """bench/data/long_game.pgn repeated to just under 1 MB."""
    game = LONG_GAME.read_text() + "\n\n"
    return game * ((MEGABYTE - 1000) // len(game))


def timed(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def costs(tree_moves: int, rounds: int) -> None:
    pgn = one_megabyte_pgn()
    tree = big_tree(tree_moves)
    posted = json.dumps({"tree": compact_tree(tree)}).encode()
    exported = json.dumps({"tree": compact_tree(tree), "annotations": True}).encode()
    stored = make_tree_pgn(big_game(tree_moves))
    path = list(KNIGHT_CYCLE) * (MAX_PATH // len(KNIGHT_CYCLE))
    rows = [
        ("1 MB PGN file: listed, first game read", lambda: read_game(pgn, list_games(pgn)[0])),
        (
            f"tree of {tree_moves} moves posted ({len(posted) // 1024} KB)",
            lambda: offload_jobs.read_analysis_body(posted),
        ),
        ("stored tree read back", lambda: offload_jobs.stored_tree(stored, "x")),
        ("stored tree's annotated PGN", lambda: offload_jobs.stored_pgn(stored, True)),
        (
            f"annotated export ({len(exported) // 1024} KB)",
            lambda: offload_jobs.read_export_body(exported),
        ),
        ("review post: 1 MB PGN's first game", lambda: pgn_source(pgn, None, ReviewSetting())),
        (
            f"analysis path of {len(path)} moves replayed",
            lambda: replay_path(tree["fen"], path),
        ),
    ]
    print(f"CPU per request (this process, median of {rounds}):")
    for label, run in rows:
        print(
            f"  {label:<55} {statistics.median(timed(run) for _ in range(rounds)) * 1000:8.0f} ms"
        )


class Attack:
    """`addresses` each looping on large requests until `stop` is set; answers by code."""

    def __init__(self, url: str, addresses: list[str], stored_id: str, moves: int) -> None:
        tree = compact_tree(big_tree(moves))
        self.requests: list[tuple[str, str, Any]] = [
            ("post", "/api/analysis/export", {"tree": tree, "annotations": True}),
            ("post", "/api/analysis", {"pgn": one_megabyte_pgn(), "game": 0, "store": False}),
            ("get", f"/api/analysis/{stored_id}/pgn?annotations=1", None),
        ]
        self.url = url
        self.codes: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._loop, args=(a,)) for a in addresses]

    def _loop(self, address: str) -> None:
        session = requests.Session()
        session.mount("http://", SourceAddress(address))
        turn = 0
        while not self.stop.is_set():
            method, path, body = self.requests[turn % len(self.requests)]
            turn += 1
            try:
                response = session.request(method, self.url + path, json=body, timeout=TIMEOUT)
                code = (
                    "ok" if response.ok else response.json().get("code", str(response.status_code))
                )
            except (requests.RequestException, ValueError) as error:
                code = type(error).__name__
            with self.lock:
                self.codes[code] += 1
            if code != "ok":
                self.stop.wait(0.05)  # refused at once: a bounded loop, not a spin

    def __enter__(self) -> Attack:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(TIMEOUT)


@dataclass
class Waits:
    """What the victim waited for, and what never came within the clients' bounds."""

    replies: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    failed: Counter[str] = field(default_factory=Counter)


def victim_waits(url: str, moves: int, pages: int) -> Waits:
    """A level-1 game's computer replies (seconds from the move sent to the reply seen) and
    front page loads; a socket not connected in 10 s or a reply not seen in 15 s is a failure."""
    waits = Waits()
    try:
        play_level_one(url, moves, waits.replies)
    except socketio.exceptions.ConnectionError:
        waits.failed["socket not connected in 10 s"] += 1
    except (AssertionError, socketio.exceptions.SocketIOError):
        waits.failed["computer reply not seen in 15 s"] += 1
    for _ in range(pages):
        waits.pages.append(
            timed(lambda: requests.get(url + "/", timeout=TIMEOUT).raise_for_status())
        )
    return waits


def play_level_one(url: str, moves: int, replies: list[float]) -> None:
    created = create_game(url, opponent="computer", color="white", level=1)
    client = GameClient(url)
    try:
        state = client.join(created["game"], seat=created["seat"])["state"]
        for _ in range(moves):
            if state["status"] != "playing" or not state["dests"]:
                break
            origin, targets = sorted(state["dests"].items())[0]
            ply = state["ply"]
            started = time.monotonic()
            assert client.move(created["game"], ply, origin + targets[0])["ok"]
            state = client.wait_for(
                lambda seen, ply=ply: seen["ply"] >= ply + 2 or seen["status"] != "playing"
            )
            replies.append(time.monotonic() - started)
    finally:
        client.close()


def summary(label: str, waits: list[float]) -> str:
    if not waits:
        return f"{label}: none"
    return f"{label}: p50 {statistics.median(waits):.2f} s, max {max(waits):.2f} s ({len(waits)})"


def live(args: argparse.Namespace) -> None:
    env = {"PYTHONPATH": args.source} if args.source else {}
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "instance", env=env).start(timeout=TIMEOUT)
        try:
            shared = requests.post(
                server.url + "/api/analysis",
                json={"tree": compact_tree(big_tree(args.tree_moves))},
                timeout=TIMEOUT,
            )
            stored_id = shared.json()["id"]
            alone = victim_waits(server.url, args.moves, args.pages)
            addresses = [f"127.0.0.{10 + index}" for index in range(args.attackers)]
            with Attack(server.url, addresses, stored_id, args.tree_moves) as attack:
                time.sleep(2)  # the attack under way: the first large requests in the worker
                attacked = victim_waits(server.url, args.moves, args.pages)
        finally:
            server.stop()
    print(f"server: {args.source or 'this checkout'}; {args.attackers} attacking addresses")
    print("  " + summary("computer reply, alone      ", alone.replies))
    print("  " + summary("computer reply, attacked   ", attacked.replies))
    print("  " + summary("front page, alone          ", alone.pages))
    print("  " + summary("front page, attacked       ", attacked.pages))
    print(f"  victim's failures: alone {dict(alone.failed)}, attacked {dict(attacked.failed)}")
    print(f"  attackers' answers: {dict(attack.codes)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--costs", action="store_true", help="only the CPU of each request")
    parser.add_argument("--attackers", type=int, default=4)
    parser.add_argument("--moves", type=int, default=10, help="the victim's moves in each phase")
    parser.add_argument("--pages", type=int, default=5, help="front page loads in each phase")
    parser.add_argument("--tree-moves", type=int, default=MAX_MOVES, help="moves of the trees")
    parser.add_argument("--rounds", type=int, default=3, help="timings of each request's CPU")
    parser.add_argument("--source", help="run the server of this checkout (PYTHONPATH)")
    args = parser.parse_args()
    costs(args.tree_moves, args.rounds)
    if not args.costs:
        live(args)


if __name__ == "__main__":
    main()
