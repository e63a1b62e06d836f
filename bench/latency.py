"""Move latency of one game while the computer searches in other games (issues 8 and 15).

Usage:
  python bench/latency.py                       # 6 rounds of 50 moves each way, 2 level-8 games
  python bench/latency.py --rounds 10 --moves 80 --searching-games 3
  python bench/latency.py --fairness            # 20 level-8 games from one address, level 3
  python bench/latency.py --fairness --workers 1 --samples 40

The script starts a real server process (`python -m server`) on 127.0.0.1 with no delay before
the computer's replies. Game A is a friend game: its two python-socketio clients play a fixed
cycle of knight moves back and forth (a fresh game every eight plies, well before any
repetition ends it), and each move's round trip is timed from the mover sending `move` to the
opponent receiving the state that shows it. Rounds alternate between (a) no search anywhere and
(b) games B.. against level 8, whose human side answers every computer move at once with a
random legal move, so the worker searches without a pause; alternating rounds in one run makes
both sides carry whatever else the machine is doing equally. Printed: p50, p95, p99 and max of
each side and their differences, and the CPU the server and its worker used in each side.

`--fairness` measures the engine pool's queue instead (issue 15): one client (127.0.0.1) runs
20 level-8 games, answering each computer move at once, so its searches never stop; another
client, from 127.0.0.2 (as local as 127.0.0.1 on Linux), plays 1. e4 over the HTTP API in a
fresh level-3 game, again and again, and each sample is the time from sending its move to
reading the computer's reply (polled every 5 ms). Printed: p50, p95, max and the number of
samples, with the engine pool's size and the per-address limits the server ran with.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from server.engine.pool import default_size
from tests.support.addresses import SourceAddress
from tests.support.game_client import GameClient, api_join, create_game
from tests.support.live_server import LiveServer
from tests.support.processes import children_of, cpu_seconds

# Knights out and back: legal from the start position and after every eight plies.
KNIGHT_CYCLE = ("g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8")
PAUSE_SECONDS = 0.02  # between A's moves, so A measures latency rather than its own backlog
SEARCH_LEVEL = 8


class FriendTable:
    """Game A: white and black seated, the knight cycle played in turn, a new game each cycle."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.white = GameClient(url)
        self.black = GameClient(url)
        self.ply = len(KNIGHT_CYCLE)

    def _new_game(self) -> None:
        created = create_game(self.url, opponent="friend", color="white")
        self.game = created["game"]
        self.white.join(self.game, seat=created["seat"])
        self.black.join(self.game, seat=api_join(self.url, created))
        self.ply = 0

    def timed_move(self) -> float:
        """Play the next move of the cycle; seconds until the opponent saw it."""
        if self.ply == len(KNIGHT_CYCLE):
            self._new_game()
        mover, opponent = (
            (self.white, self.black) if self.ply % 2 == 0 else (self.black, self.white)
        )
        game, ply = self.game, self.ply + 1
        acknowledged = threading.Event()
        replies: list[dict[str, Any]] = []
        payload = {"game": game, "ply": self.ply, "uci": KNIGHT_CYCLE[self.ply]}
        started = time.perf_counter()
        # Not `call`: the round trip ends when the opponent has the state, whenever the mover's
        # own acknowledgement comes (it is checked afterwards).
        mover.client.emit(
            "move", payload, callback=lambda reply: _keep(replies, acknowledged, reply)
        )
        opponent.wait_for(lambda state: state["game"] == game and state["ply"] == ply)
        elapsed = time.perf_counter() - started
        assert acknowledged.wait(15) and replies[0]["ok"], replies
        self.ply = ply
        return elapsed

    def close(self) -> None:
        self.white.close()
        self.black.close()


def _keep(replies: list[dict[str, Any]], done: threading.Event, reply: dict[str, Any]) -> None:
    replies.append(reply)
    done.set()


class SearchingGame(threading.Thread):
    """A game B against level 8: answers each computer move at once while `active` is set.

    `patient`: wait for the computer's replies however long they take (GameClient gives up
    after 15 s): one address's many games share one search at a time, so each waits its turn."""

    def __init__(self, url: str, active: threading.Event, seed: int, patient: bool = False) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.active = active
        self.idle = threading.Event()
        self.random = random.Random(seed)
        self.patient = patient
        self.replies = 0
        self.stopping = False
        self.error: BaseException | None = None

    def run(self) -> None:
        client = GameClient(self.url)
        try:
            while not self.stopping:
                self._play_one(client)
        except BaseException as error:  # reported by the main thread
            self.error = error
        finally:
            client.close()

    def _play_one(self, client: GameClient) -> None:
        created = create_game(self.url, opponent="computer", color="white", level=SEARCH_LEVEL)
        game = created["game"]
        state = client.join(game, seat=created["seat"])["state"]
        while state["status"] == "playing" and not self.stopping:
            self.idle.set()
            self.active.wait()
            self.idle.clear()
            if self.stopping:
                return
            origin = self.random.choice(sorted(state["dests"]))
            uci = origin + self.random.choice(state["dests"][origin])
            if uci[:2] in state.get("promotions", {}) and uci[2:4] in state["promotions"][uci[:2]]:
                uci += "q"
            ply = state["ply"]
            assert client.move(game, ply, uci)["ok"]
            state = self._wait_reply(client, game, ply + 2)
            self.replies += 1
        self.idle.set()

    def _wait_reply(self, client: GameClient, game: str, ply: int) -> dict[str, Any]:
        while True:
            try:
                return client.wait_for(
                    lambda s: s["game"] == game and (s["ply"] >= ply or s["status"] != "playing")
                )
            except AssertionError:  # GameClient's guard against hanging ran out
                if not self.patient or self.stopping:
                    raise


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(table: FriendTable, moves: int) -> list[float]:
    samples = []
    for _ in range(moves):
        samples.append(table.timed_move())
        time.sleep(PAUSE_SECONDS)
    return samples


def run(args: argparse.Namespace, server: LiveServer) -> None:
    assert server.process is not None
    server_pid = server.process.pid
    active = threading.Event()
    searchers = [SearchingGame(server.url, active, seed) for seed in range(args.searching_games)]
    for searcher in searchers:
        searcher.start()
    table = FriendTable(server.url)
    quiet: list[float] = []
    busy: list[float] = []
    cpu = {"quiet": [0.0, 0.0, 0.0], "busy": [0.0, 0.0, 0.0]}  # wall, server, worker
    try:
        measure(table, 16)  # warm-up, not counted
        active.set()
        time.sleep(3)  # the worker process starts with the first search
        active.clear()
        for _ in range(args.rounds):
            for side, samples in (("quiet", quiet), ("busy", busy)):
                if side == "quiet":
                    active.clear()
                    for searcher in searchers:  # each has its last reply: no search in flight
                        searcher.idle.wait()
                else:
                    active.set()
                    time.sleep(0.3)  # the searches have started
                workers = children_of(server_pid)
                before = _clocks(server_pid, workers)
                samples.extend(measure(table, args.moves))
                after = _clocks(server_pid, workers)
                for index in range(3):
                    cpu[side][index] += after[index] - before[index]
        for searcher in searchers:
            if searcher.error is not None:
                raise RuntimeError("a searching game failed") from searcher.error
    finally:
        for searcher in searchers:
            searcher.stopping = True
        active.set()
        table.close()
    report(quiet, busy, cpu, args)


def _clocks(server_pid: int, workers: list[int]) -> tuple[float, float, float]:
    """Wall time, the server's CPU time and its workers' CPU time, in seconds."""
    worker_cpu = sum(cpu_seconds(pid) for pid in workers)
    return time.perf_counter(), cpu_seconds(server_pid), worker_cpu


def report(
    quiet: list[float], busy: list[float], cpu: dict[str, list[float]], args: argparse.Namespace
) -> None:
    print(
        f"game A's move round trip, {len(quiet)} moves each side, {args.rounds} alternating rounds,"
        f" {args.searching_games} level-{SEARCH_LEVEL} games searching in (b)"
    )
    print(f"{'':16}{'p50':>11}{'p95':>11}{'p99':>11}{'max':>11}")
    rows = {"(a) no search": quiet, "(b) searching": busy}
    for name, samples in rows.items():
        figures = [percentile(samples, f) for f in (0.5, 0.95, 0.99)] + [max(samples)]
        print(f"{name:16}" + "".join(f"{value * 1000:9.2f}ms" for value in figures))
    differences = [percentile(busy, f) - percentile(quiet, f) for f in (0.5, 0.95, 0.99)]
    differences.append(max(busy) - max(quiet))
    print(f"{'(b) - (a)':16}" + "".join(f"{value * 1000:+9.2f}ms" for value in differences))
    for side, (wall, server, worker) in cpu.items():
        print(
            f"CPU while {side}: server {server / wall:.0%} of a core, worker {worker / wall:.0%}"
            f" of a core, over {wall:.1f} s"
        )


# -- --fairness: another address's first reply while one address keeps the engine busy ------

OTHER_ADDRESS = "127.0.0.2"
OTHER_LEVEL = 3
POLL_SECONDS = 0.005
SAMPLE_PAUSE = (0.2, 1.5)  # seconds between samples, uniformly


def other_request(url: str, method: str, path: str, **options: Any) -> dict[str, Any]:
    """One API request from OTHER_ADDRESS on a fresh connection (a kept-alive one can wait for
    a delayed ACK, 40 ms); the JSON body, which must say ok."""
    with requests.Session() as session:
        session.mount("http://", SourceAddress(OTHER_ADDRESS))
        reply = session.request(method, url + path, timeout=30, **options).json()
    assert reply["ok"], reply
    return dict(reply)


def first_reply_seconds(url: str) -> float:
    """A fresh level-3 game from the other address: seconds from 1. e4 to the reply."""
    created = other_request(
        url, "POST", "/api/games", json={"opponent": "computer", "color": "white", "level": 3}
    )
    game, seat = created["game"], {"Authorization": f"Bearer {created['seat']}"}
    started = time.perf_counter()
    other_request(
        url, "POST", f"/api/games/{game}/moves", json={"ply": 0, "uci": "e2e4"}, headers=seat
    )
    while other_request(url, "GET", f"/api/games/{game}")["state"]["ply"] < 2:
        time.sleep(POLL_SECONDS)
    elapsed = time.perf_counter() - started
    other_request(
        url, "POST", f"/api/games/{game}/actions", json={"action": "resign"}, headers=seat
    )
    return elapsed


def run_fairness(args: argparse.Namespace, server: LiveServer, env: dict[str, str]) -> None:
    active = threading.Event()
    active.set()
    searchers = [
        SearchingGame(server.url, active, seed, patient=True) for seed in range(args.busy_games)
    ]
    for searcher in searchers:
        searcher.start()
    samples: list[float] = []
    pauses = random.Random(1)
    try:
        time.sleep(3)  # the busy games are created and their searches queued
        started, replies = time.perf_counter(), sum(searcher.replies for searcher in searchers)
        for _ in range(args.samples):
            samples.append(first_reply_seconds(server.url))
            # A random pause, so the samples fall at every point of the busy searches instead
            # of locking onto their two-second rhythm.
            time.sleep(pauses.uniform(*SAMPLE_PAUSE))
        wall = time.perf_counter() - started
        replies = sum(searcher.replies for searcher in searchers) - replies
        for searcher in searchers:
            if searcher.error is not None:
                raise RuntimeError("a searching game failed") from searcher.error
    finally:
        for searcher in searchers:
            searcher.stopping = True
    workers = int(env["CHESS_ENGINE_WORKERS"]) or default_size()
    print(
        f"engine pool: {workers} worker(s) on {default_size()} core(s); limits per address:"
        f" {env['CHESS_MAX_COMPUTER_GAMES']} computer games, {env['CHESS_CREATE_BURST']} new"
        f" games at once then one every {env['CHESS_CREATE_INTERVAL']} s"
    )
    print(
        f"{args.busy_games} level-{SEARCH_LEVEL} games from 127.0.0.1 searching without pause;"
        f" the first reply of a level-{OTHER_LEVEL} game from {OTHER_ADDRESS}, {len(samples)}"
        " samples:"
    )
    p50, p95 = percentile(samples, 0.5), percentile(samples, 0.95)
    print(f"p50 {p50:.2f} s   p95 {p95:.2f} s   max {max(samples):.2f} s")
    print(f"meanwhile the busy address's games had {replies} replies in {wall:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="alternations of (a) and (b)")
    parser.add_argument("--moves", type=int, default=50, help="timed moves per side per round")
    parser.add_argument("--searching-games", type=int, default=2, help="level-8 games in (b)")
    parser.add_argument("--fairness", action="store_true", help="measure the engine queue")
    parser.add_argument("--busy-games", type=int, default=20, help="--fairness: level-8 games")
    parser.add_argument("--samples", type=int, default=30, help="--fairness: level-3 replies")
    parser.add_argument("--workers", type=int, default=0, help="engine workers; 0: per core")
    args = parser.parse_args()
    # The clients here create games and keep computer games in play far beyond what one
    # address of a public site may: the per-address limits are lifted, except as printed.
    env = {
        "CHESS_COMPUTER_DELAY": "0",
        "CHESS_ENGINE_WORKERS": str(args.workers),
        "CHESS_MAX_COMPUTER_GAMES": "1000",
        "CHESS_CREATE_BURST": "1000000",
        "CHESS_CREATE_INTERVAL": "5",
    }
    with tempfile.TemporaryDirectory(prefix="chess-latency-") as folder:
        server = LiveServer(Path(folder) / "instance", env=env)
        server.start()
        try:
            if args.fairness:
                run_fairness(args, server, env)
            else:
                run(args, server)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
