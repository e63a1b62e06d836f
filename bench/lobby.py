"""Quick pairing under a rush: many visitors ask to be paired at the same moment.

Usage:
  python bench/lobby.py --visitors 200                 # one server process (gevent, SQLite)
  python bench/lobby.py --visitors 200 --cluster       # PostgreSQL, Redis, 2 processes
  python bench/lobby.py --url http://127.0.0.1:5000    # a server already running

Unless `--url` is given the server(s) start in a temporary folder as a user starts them
(bench/load.py's `start_targets`), with the lobby's per-address limits lifted: every visitor
comes from 127.0.0.1. Each visitor is a python-socketio `AsyncClient` over a WebSocket, spread
over `--clients` client processes; all connect and enter the lobby first (not timed), then at
one signal every visitor sends `pair` for a quick-pairing time control, two visitors to each
control in turn (one in each client process), so everyone has a partner. A visitor is paired
when its acknowledgement says so or when its private `paired` message arrives. With several
server processes the visitors alternate between them, so the two of every pair are on two.
Printed: how many were paired and how long after the signal (p50, p95, max; the issue's target
is every one within 2 s); visitors paired twice, games with other than two visitors or two of
one colour, seat tokens seen twice; and what was left behind (the open seeks the lobby still
lists, and per control whether a fresh visitor still finds someone waiting), checked before the
visitors leave. It exits 1 if anything is wrong but the time, which it reports.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Targets, cpu_seconds, percentile, start_targets, stop_targets

from server.lobby.seeks import QUICK_CONTROLS
from server.shared.config import ASYNC_MODE

CONTROLS = list(QUICK_CONTROLS)
ANSWER_SECONDS = 10.0
CONNECT_CONCURRENCY = 25
TARGET_SECONDS = 2.0
SETTLE_SECONDS = 0.5  # after the last pairing, how long a second one may still arrive
LIMITS = {"CHESS_LOBBY_BURST": "1000000", "CHESS_LOBBY_PER_ADDRESS": "1000000"}


@dataclass
class Visitor:
    index: int
    control: str
    pairings: list[tuple[float, str, str, str]] = field(
        default_factory=list
    )  # (t, game, colour, seat)
    errors: list[str] = field(default_factory=list)


def control_of(index: int) -> str:
    return CONTROLS[(index // 2) % len(CONTROLS)]


async def open_visitor(url: str, index: int) -> tuple[Any, Visitor]:
    import socketio

    visitor = Visitor(index, control_of(index))
    client = socketio.AsyncClient(reconnection=False)

    def paired(data: dict[str, Any]) -> None:
        visitor.pairings.append((time.time(), data["game"], data["color"], data["seat"]))

    client.on("paired", paired)
    await client.connect(url, transports=["websocket"], wait_timeout=ANSWER_SECONDS)
    entered = await client.call("lobby_enter", {}, timeout=ANSWER_SECONDS)
    if not entered.get("ok"):
        raise RuntimeError(f"lobby_enter refused: {entered}")
    return client, visitor


async def ask(client: Any, visitor: Visitor) -> None:
    try:
        reply = await client.call("pair", {"control": visitor.control}, timeout=ANSWER_SECONDS)
    except Exception as error:
        visitor.errors.append(f"no answer: {error!r}")
        return
    if not reply.get("ok"):
        visitor.errors.append(f"refused: {reply.get('code')}")
    elif reply["paired"]:
        visitor.pairings.append((time.time(), reply["game"], reply["color"], reply["seat"]))


async def run_client_process(
    urls: list[str], indexes: list[int], barrier: Any
) -> tuple[float, list[Visitor]]:
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def opened(index: int) -> tuple[Any, Visitor]:
        async with gate:
            return await open_visitor(urls[index % len(urls)], index)

    visitors = await asyncio.gather(*(opened(index) for index in indexes))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, barrier.wait)  # everyone is in the lobby
    start = time.time()
    await asyncio.gather(*(ask(client, visitor) for client, visitor in visitors))
    deadline = time.monotonic() + ANSWER_SECONDS
    while time.monotonic() < deadline and not all(v.pairings for _, v in visitors):
        await asyncio.sleep(0.02)
    await asyncio.sleep(SETTLE_SECONDS)
    await loop.run_in_executor(None, barrier.wait)  # the main process checks the store
    await loop.run_in_executor(None, barrier.wait)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(*(client.disconnect() for client, _ in visitors)), ANSWER_SECONDS
        )
    return start, [visitor for _, visitor in visitors]


def client_process(urls: list[str], indexes: list[int], barrier: Any, results: Any) -> None:
    try:
        results.put(asyncio.run(run_client_process(urls, indexes, barrier)))
    except Exception as error:
        barrier.abort()
        results.put((0.0, [Visitor(-1, "", errors=[f"client process failed: {error!r}"])]))


def left_behind(urls: list[str]) -> list[str]:
    """What the lobby still holds while every visitor is connected: listed seeks, and the
    controls where a fresh visitor is paired with someone still waiting."""
    import requests
    import socketio

    found = []
    seeks = requests.get(urls[0] + "/api/lobby", timeout=ANSWER_SECONDS).json()["seeks"]
    found += [f"open seek {seek['id']}" for seek in seeks]
    probe = socketio.Client(reconnection=False)
    probe.connect(urls[0], transports=["websocket"], wait_timeout=ANSWER_SECONDS)
    try:
        for control in CONTROLS:
            reply = probe.call("pair", {"control": control}, timeout=ANSWER_SECONDS)
            if reply.get("paired"):
                found.append(f"a visitor still waiting for {control}")
            probe.call("pair_cancel", {}, timeout=ANSWER_SECONDS)
    finally:
        probe.disconnect()
    return found


def check(visitors: list[Visitor]) -> list[str]:
    """Everything wrong with the pairings but their time."""
    problems = [f"visitor {v.index}: {error}" for v in visitors for error in v.errors]
    problems += [f"visitor {v.index} never paired" for v in visitors if not v.pairings]
    problems += [
        f"visitor {v.index} paired {len(v.pairings)} times" for v in visitors if len(v.pairings) > 1
    ]
    games: dict[str, list[tuple[Visitor, str]]] = defaultdict(list)
    for v in visitors:
        for _, game, color, _ in v.pairings:
            games[game].append((v, color))
    for game, sides in games.items():
        colors = sorted(color for _, color in sides)
        controls = {v.control for v, _ in sides}
        if colors != ["black", "white"] or len(controls) != 1:
            problems.append(f"game {game}: {[(v.index, c, v.control) for v, c in sides]}")
    seats = Counter(seat for v in visitors for *_, seat in v.pairings)
    problems += [f"seat token given {n} times" for n in seats.values() if n > 1]
    return problems


def run(args: argparse.Namespace, targets: Targets) -> int:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(args.clients + 1)
    results = context.Queue()
    workers = [
        context.Process(
            target=client_process,
            args=(targets.urls, list(range(n, args.visitors, args.clients)), barrier, results),
        )
        for n in range(args.clients)
    ]
    for worker in workers:
        worker.start()
    barrier.wait()  # all connected and in the lobby
    cpu_before = cpu_seconds(targets.pids)
    barrier.wait()  # all paired (or given up)
    cpu = cpu_seconds(targets.pids) - cpu_before
    leftovers = left_behind(targets.urls)
    barrier.wait()  # the visitors may leave
    gathered = [results.get() for _ in workers]
    for worker in workers:
        worker.join()
    starts = [started for started, _ in gathered if started]
    visitors = [visitor for _, batch in gathered for visitor in batch]
    return report(args, targets, starts, visitors, leftovers, cpu)


def report(
    args: argparse.Namespace,
    targets: Targets,
    starts: list[float],
    visitors: list[Visitor],
    leftovers: list[str],
    cpu: float,
) -> int:
    start = min(starts, default=0.0)
    waits = [v.pairings[0][0] - start for v in visitors if v.pairings]
    games = {game for v in visitors for _, game, _, _ in v.pairings}
    problems = check(visitors) + leftovers
    slowest = max(waits, default=float("nan"))
    processes = f"{len(targets.urls)} server process(es)" + (
        " + PostgreSQL + Redis" if targets.cluster else ""
    )
    print(f"{processes}, async mode {args.async_mode}; {args.clients} client processes")
    print(
        f"visitors {args.visitors} over {len(CONTROLS)} time controls: paired {len(waits)}"
        f" into {len(games)} games"
    )
    print(
        "signal -> paired (ms): "
        f"p50 {1000 * percentile(waits, 0.5):.0f}, p95 {1000 * percentile(waits, 0.95):.0f},"
        f" max {1000 * slowest:.0f}"
    )
    # Every pair has a visitor in each of two client processes: a process the machine ran late
    # delays its visitors' requests, and the pairings with them.
    print(
        "the client processes began sending within"
        f" {1000 * (max(starts, default=0) - start):.0f} ms of the signal"
        f" (machine load average now: {os.getloadavg()[0]:.1f})"
    )
    within = len(waits) == args.visitors and slowest <= TARGET_SECONDS
    print(f"all paired within {TARGET_SECONDS:g} s: {'yes' if within else 'no'}")
    if targets.pids:
        print(f"server CPU from the signal to the end of the pairing: {cpu:.2f} s")
    print(f"paired twice, bad games, seeks left behind: {len(problems)}")
    for problem in problems[:20]:
        print(f"  {problem}")
    return 1 if problems else 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--visitors", type=int, default=200, help="visitors pairing at once")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--cluster", action="store_true", help="PostgreSQL, Redis, 2 processes")
    parser.add_argument("--url", action="append", help="use running server(s) at this URL")
    args = parser.parse_args()
    if args.visitors % 2:
        parser.error("--visitors must be even: everyone needs a partner")
    args.async_mode = ASYNC_MODE
    targets = (
        Targets(args.url, [])
        if args.url
        else start_targets(ASYNC_MODE, args.cluster, settings=LIMITS)
    )
    try:
        code = run(args, targets)
    finally:
        stop_targets(targets)
    sys.exit(code)


if __name__ == "__main__":
    main()
