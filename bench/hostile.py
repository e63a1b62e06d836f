"""A victim's waits beside a hostile visitor (issue 26): the attacks of points 1, 2, 4, 5, 7
and 8 in bounded form, and a sign-up flood (issue 33), against one real server on 127.0.0.1.

Usage:
  python bench/hostile.py                 # 12 computer replies and one review per phase
  python bench/hostile.py --replies 20 --attack-seconds 60
  python bench/hostile.py --skip engine   # every attack but the engine's
  python bench/hostile.py --only analysis --review-plies 30   # point 7 alone
  python bench/hostile.py --async-mode threading              # Werkzeug's server
  python bench/hostile.py --only signups                      # the sign-up flood alone
  python bench/hostile.py --only trainer                      # the trainer flood alone

The server is started as a user starts it (`python -m server`, gevent unless --async-mode says
otherwise, its default limits). The victim, from 127.0.0.2, plays a level-3 computer game over
Socket.IO (each wait: from its move sent to the state with the computer's reply) and asks for a
review of a random game of --review-plies plies (from its post to `done`). It does this three
times: alone (baseline), while the attacker runs, and alone again after. The attacker runs, all
at once, from other loopback addresses:

- frames: WebSocket frame headers announcing 16 MiB and 1 GiB, and a 16 MiB frame streamed;
- engine: `engine_start` on nine queens a side (127 legal moves), again every 3 s;
- analysis: `engine_start` on an ordinary middlegame, again every 3 s (point 7: the review
  must still get its share of a lane);
- sockets: up to 2,000 idle connections from one address, and 40 slow-loris connections
  sending a byte every second;
- text: JSON with lone surrogates, names with bidi and invisible letters, a spoofed Result.

Then, after those phases, `signups`: 40 addresses try 5 sign-ups each at once while the owner
of an account signs in once a second (bench/signup_flood.py, which says how); and `trainer`:
40 addresses ask for drills and answer them for 30 s while two players play a friend game
(bench/train_flood.py: the move's round trip alone and during it).

Printed: the victim's reply waits (p50, p95, max) and its review time per phase, the victim's
refused or timed-out requests, what became of the attacks, and the server's resident memory
before, at its highest during, and after the attack; then the owner's sign-in time alone and
during the sign-up flood (goal during: under 1 s) and what the flood was answered.
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import chess
import chess.pgn
import requests

from bench.signup_flood import run_flood
from bench.train_flood import run_flood as run_trainer_flood
from tests.support.addresses import SourceAddress
from tests.support.game_client import GameClient
from tests.support.live_server import LiveServer
from tests.support.raw_websocket import frame_header, masked, open_websocket
from tests.test_search_bounds import NINE_QUEENS

VICTIM = "127.0.0.2"
# Seconds the victim waits for its review before it counts as not done (a review is low
# priority in the engine pool, with a guaranteed share of a lane: server.engine.pool).
REVIEW_BOUND = 150.0
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"
LEVEL = 3
MIB = 1 << 20


def resident_memory(pid: int) -> int:
    """VmRSS of `pid` in bytes (0 once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((line for line in status.splitlines() if line.startswith("VmRSS:")), "")
    return int(line.split()[1]) * 1024 if line else 0


def random_pgn(rng: random.Random, plies: int) -> str:
    board = chess.Board()
    while board.ply() < plies and not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    return str(chess.pgn.Game.from_board(board))


class Victim:
    """A visitor from VICTIM: a computer game over Socket.IO, reviews over HTTP."""

    def __init__(self, url: str, seed: int, review_plies: int = 12) -> None:
        self.url = url
        self.review_plies = review_plies
        self.rng = random.Random(seed)
        self.http = requests.Session()
        self.http.mount("http://", SourceAddress(VICTIM))
        self.failures: list[str] = []

    def replies(self, count: int) -> list[float]:
        """The waits for `count` computer replies, new games as games end."""
        waits: list[float] = []
        while len(waits) < count:
            waits.extend(self._game(count - len(waits)))
        return waits

    def _game(self, wanted: int) -> list[float]:
        body = {"opponent": "computer", "color": "white", "level": LEVEL}
        created = self.http.post(self.url + "/api/games", json=body, timeout=30)
        if created.status_code != 201:
            self.failures.append(f"create: {created.status_code} {created.text[:80]}")
            time.sleep(5)
            return []
        game, seat = created.json()["game"], created.json()["seat"]
        client = GameClient(self.url)
        waits: list[float] = []
        try:
            state = client.join(game, seat=seat)["state"]
            while len(waits) < wanted and state["status"] == "playing" and state["dests"]:
                origin = self.rng.choice(sorted(state["dests"]))
                uci = origin + self.rng.choice(state["dests"][origin])
                started = time.monotonic()
                reply = client.move(game, state["ply"], uci)
                if not reply["ok"]:
                    self.failures.append(f"move: {reply}")
                    break
                ply = state["ply"] + 2
                state = client.wait_for(
                    lambda s, ply=ply: s["ply"] >= ply or s["status"] != "playing"
                )
                waits.append(time.monotonic() - started)
        except (AssertionError, OSError) as error:
            self.failures.append(f"game: {error!r}"[:120])
        finally:
            client.close()
        return waits

    def review(self) -> float | None:
        """Seconds from posting a review of a random game to its `done`; None if it failed."""
        started = time.monotonic()
        pgn = random_pgn(self.rng, self.review_plies)
        posted = self.http.post(self.url + "/api/reviews", json={"pgn": pgn}, timeout=30)
        if posted.status_code != 201:
            self.failures.append(f"review: {posted.status_code} {posted.text[:80]}")
            return None
        review_id = posted.json()["id"]
        while time.monotonic() - started < REVIEW_BOUND:
            status = self.http.get(f"{self.url}/api/reviews/{review_id}", timeout=30).json()
            if status["status"] in ("done", "failed"):
                return time.monotonic() - started if status["status"] == "done" else None
            time.sleep(0.2)
        self.failures.append(f"review: not done in {REVIEW_BOUND:g} s")
        return None


class Attacker:
    """The attacks, each in its own thread until `stop` is set; `counts` says what happened."""

    def __init__(self, server: LiveServer, attacks: frozenset[str]) -> None:
        self.server = server
        self.attacks = attacks
        self.stop = threading.Event()
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()
        self.threads: list[threading.Thread] = []

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def start(self) -> None:
        for attack in self.every_attack():
            if attack.__name__ not in self.attacks:
                continue
            thread = threading.Thread(target=self._guarded(attack), daemon=True)
            thread.start()
            self.threads.append(thread)

    def _guarded(self, attack: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                attack()
            except Exception as error:  # an attack that fails says so in the counts
                self.count(f"{attack.__name__} failed: {type(error).__name__}")

        return run

    def every_attack(self) -> list[Callable[[], None]]:
        return [self.frames, self.engine, self.analysis, self.sockets, self.slow_loris, self.text]

    def end(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def frames(self) -> None:
        while not self.stop.is_set():
            for announced in (16 * MIB, 1 << 30):
                sock = open_websocket(self.server.port, timeout=30, source="127.0.0.3")
                try:
                    sock.sendall(frame_header(announced))
                    sock.settimeout(30)
                    sock.recv(64)  # the close frame (or the close itself)
                    self.count("frame headers refused")
                except TimeoutError:
                    self.count("frame headers left waiting 30 s")
                except OSError:
                    self.count("frame headers refused (reset)")
                sock.close()
            self._streamed_frame()
            self.stop.wait(1)

    def _streamed_frame(self) -> None:
        sock = open_websocket(self.server.port, timeout=30, source="127.0.0.3")
        chunk, sent = masked(b"x" * 65536), 0
        try:
            sock.sendall(frame_header(16 * MIB))
            while sent < 16 * MIB:
                sock.sendall(chunk)
                sent += len(chunk)
            self.count("16 MiB frames sent whole")
        except OSError:
            self.count("16 MiB frames cut off")
        sock.close()

    def engine(self) -> None:
        self._restart_analysis(NINE_QUEENS, "engine_start (nine queens)")

    def analysis(self) -> None:
        self._restart_analysis(MIDDLEGAME, "engine_start (middlegame)")

    def _restart_analysis(self, fen: str, what: str) -> None:
        client = GameClient(self.server.url)
        try:
            while not self.stop.is_set():
                reply = client.call("engine_start", {"fen": fen, "multipv": 3})
                self.count(f"{what} ok" if reply.get("ok") else f"{what} {reply}")
                self.stop.wait(3)
        finally:
            client.close()

    def sockets(self, most: int = 2000) -> None:
        held: list[socket.socket] = []
        try:
            for _ in range(most):
                if self.stop.is_set():
                    break
                try:
                    held.append(
                        socket.create_connection(
                            ("127.0.0.1", self.server.port),
                            timeout=5,
                            source_address=("127.0.0.4", 0),
                        )
                    )
                    self.count("idle sockets opened")
                except OSError:
                    self.count("idle sockets failed")
            self.stop.wait()
        finally:
            for sock in held:
                sock.close()

    def slow_loris(self, connections: int = 40) -> None:
        open_ = []
        for index in range(connections):
            source = f"127.0.1.{index % 200 + 1}"
            sock = socket.create_connection(
                ("127.0.0.1", self.server.port), timeout=5, source_address=(source, 0)
            )
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            open_.append(sock)
        while open_ and not self.stop.is_set():
            self.stop.wait(1)
            for sock in list(open_):
                try:
                    sock.sendall(b"a")
                except OSError:
                    self.count("slow-loris closed by the server")
                    open_.remove(sock)
                    sock.close()
        self.count(f"slow-loris still open at the end: {len(open_)}")
        for sock in open_:
            sock.close()

    def text(self) -> None:
        url = self.server.url
        bodies = [
            ("/api/analysis", '{"pgn": "[White \\"\\ud800\\"]\\n\\n1. e4 *"}'),
            ("/api/reviews", '{"pgn": "[Event \\"\\udfff\\"]\\n\\n1. e4 e5 *"}'),
            ("/api/games", '{"opponent": "computer", "name": "\\u3164\\u3164\\u3164"}'),
            ("/api/games", '{"opponent": "computer", "name": "\\u0410n\\u043enymous-1234"}'),
        ]
        headers = {"Content-Type": "application/json"}
        while not self.stop.is_set():
            for path, body in bodies:
                answer = requests.post(url + path, data=body, headers=headers, timeout=30)
                self.count(f"text {path} -> {answer.status_code}")
            self.stop.wait(0.5)


ATTACKS = ("frames", "engine", "analysis", "sockets", "slow_loris", "text")
PARTS = (*ATTACKS, "signups", "trainer")


def percentiles(waits: list[float]) -> str:
    if not waits:
        return "no samples"
    ordered = sorted(waits)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered):6.3f} s  p95 {p95:6.3f} s  max {ordered[-1]:6.3f} s"
        f"  ({len(ordered)} replies)"
    )


def phase(name: str, victim: Victim, replies: int, report: dict[str, Any]) -> None:
    waits = victim.replies(replies)
    review = victim.review()
    report[name] = (waits, review)
    review_text = f"{review:6.2f} s" if review is not None else "failed"
    print(f"{name:>8}: computer replies {percentiles(waits)}; review {review_text}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--replies", type=int, default=12)
    parser.add_argument("--attack-seconds", type=float, default=75.0)  # past the idle timeout
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument(
        "--skip",
        default="",
        help=f"attacks left out, comma separated: {', '.join(PARTS)}",
    )
    parser.add_argument("--only", default="", help="the attacks run (default: all)")
    parser.add_argument("--review-plies", type=int, default=12)
    parser.add_argument("--signup-addresses", type=int, default=40)
    parser.add_argument("--signups-each", type=int, default=5)
    parser.add_argument("--trainer-addresses", type=int, default=40)
    parser.add_argument("--trainer-seconds", type=float, default=30.0)
    parser.add_argument("--async-mode", choices=("gevent", "threading"), default="gevent")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as instance:
        env = {
            "CHESS_COMPUTER_DELAY": "0",
            "CHESS_ENGINE_WORKERS": "2",
            "CHESS_ASYNC_MODE": args.async_mode,
        }
        server = LiveServer(Path(instance), env=env).start(timeout=60)
        assert server.process is not None
        pid = server.process.pid
        try:
            run(server, pid, args)
        finally:
            server.stop()


def run(server: LiveServer, pid: int, args: argparse.Namespace) -> None:
    chosen = set(filter(None, args.only.split(","))) or set(PARTS)
    chosen -= set(args.skip.split(","))
    if chosen & set(ATTACKS):
        attack_phases(server, pid, args, frozenset(chosen & set(ATTACKS)))
    if "signups" in chosen:
        run_flood(server.url, args.signup_addresses, args.signups_each)
    if "trainer" in chosen:
        run_trainer_flood(server.url, args.trainer_addresses, args.trainer_seconds, 20)


def attack_phases(
    server: LiveServer, pid: int, args: argparse.Namespace, attacks: frozenset[str]
) -> None:
    victim = Victim(server.url, args.seed, args.review_plies)
    report: dict[str, Any] = {}
    victim.replies(2)  # the engine worker started, the openings read
    memory = {"before": resident_memory(pid)}
    phase("alone", victim, args.replies, report)
    attacker = Attacker(server, attacks)
    print(f"attacks: {', '.join(sorted(attacker.attacks))}", flush=True)
    highest = [resident_memory(pid)]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            highest.append(resident_memory(pid))
            sampling.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    attacker.start()
    started = time.monotonic()
    phase("attacked", victim, args.replies, report)
    attacker.stop.wait(max(0.0, args.attack_seconds - (time.monotonic() - started)))
    attacker.end()
    sampling.set()
    sampler.join()
    memory["during (highest)"] = max(highest)
    time.sleep(5)
    phase("after", victim, args.replies, report)
    memory["after"] = resident_memory(pid)
    print("memory: " + ", ".join(f"{key} {value / MIB:.0f} MiB" for key, value in memory.items()))
    print(f"victim refused or timed out: {victim.failures or 'none'}")
    print("attacks: " + "; ".join(f"{what}: {n}" for what, n in sorted(attacker.counts.items())))
    alone, attacked = report["alone"][0], report["attacked"][0]
    if alone and attacked:
        shift = statistics.median(attacked) - statistics.median(alone)
        print(f"reply median, attacked minus alone: {shift:+.3f} s (goal: within 1 s)")
    if report["alone"][1] and report["attacked"][1]:
        ratio = report["attacked"][1] / report["alone"][1]
        print(f"review, attacked over alone: {ratio:.2f}x (goal: within 2x)")


if __name__ == "__main__":
    main()
