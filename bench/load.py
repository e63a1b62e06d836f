"""Load test: many games at once over real WebSockets, against one server process or a cluster.

Usage:
  python bench/load.py --games 500 --seconds 60                    # one process, gevent mode
  python bench/load.py --games 500 --seconds 60 --async-mode threading
  python bench/load.py --games 500 --seconds 60 --cluster          # PostgreSQL, Redis, 2 processes
  python bench/load.py --games 500 --seconds 60 --floor            # the transport alone, no chess
  python bench/load.py --url http://127.0.0.1:5000 --games 50      # a server already running

Unless `--url` is given the script starts the server(s) itself in a temporary folder, as a user
would (`python -m server`; the cluster through deploy/cluster.py), and stops them at the end.
`--floor` starts bench/floor_server.py instead: the same protocol and transport with no chess
behind it, so its figures are the floor under the real server's.
Each game is a friend game created over the HTTP API; white, black and `--spectators` watchers
each hold their own python-socketio `AsyncClient` over a WebSocket, spread over `--clients`
client processes so one Python process's CPU does not cap the load. With several server
processes a game's white, black and spectators connect to different ones, so every move crosses
the Redis message queue. Every game makes `--rate` moves per second, in turn, each a random
legal move from the `dests` the server sent. Printed: acknowledged moves per second, the round
trip from sending a move to the opponent receiving the state that shows it (p50, p95, p99,
max), errors (refusals, timeouts, dropped connections, ticks skipped because the mover had not
yet seen the opponent's move) and the server's memory per game: the resident size of the
server process(es) with every game connected and played, minus that before any game, divided by
the games. Also printed, to read the figures by: the server's and the clients' CPU time per
move, the clients' garbage-collection pauses, and the share of the machine's CPU time the
hypervisor gave to other tenants during the run (on a shared virtual machine this varies from
run to run and moves the latencies with it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deploy import cluster
from server.shared.config import ASYNC_MODE, ASYNC_MODES

FLOOR_SERVER = Path(__file__).resolve().parent / "floor_server.py"
CONNECT_CONCURRENCY = 25  # connections being opened at once per client process
ANSWER_SECONDS = 10.0
DRAIN_SECONDS = 20.0  # how long past the end an overloaded run may take to settle
# A client process holds every state its games were sent: with the collector's default
# thresholds its full collections scanned them all, up to 200 ms each, 2.6 s of a 30 s run, and
# that stall landed in the measured round trips. Seated, the processes freeze what they hold and
# collect young objects rarely; the pauses left are reported.
CLIENT_GC_THRESHOLDS = (50_000, 50, 1_000)


# -- servers ------------------------------------------------------------------------------------


@dataclass
class Targets:
    urls: list[str]
    pids: list[int]
    folder: Path | None = None
    cluster: bool = False


def start_targets(
    async_mode: str, use_cluster: bool, floor: bool = False, settings: dict[str, str] | None = None
) -> Targets:
    """The server(s), with `settings` added to their environment (bench/lobby.py's limits)."""
    folder = Path(tempfile.mkdtemp(prefix="chess-load-"))
    folder.chmod(0o755)  # as root, PostgreSQL runs as `postgres`, who must reach its folder
    environment = {
        "CHESS_ASYNC_MODE": async_mode,
        "CHESS_SECRET_KEY": "load-test",
        # Every game comes from 127.0.0.1, far faster than one visitor may create them, and
        # holds its own connections, far more than one visitor may hold.
        "CHESS_CREATE_BURST": "1000000",
        "CHESS_MAX_CONNECTIONS": "1000000",
        **(settings or {}),
    }
    ports = [cluster.free_port() for _ in range(2 if use_cluster else 1)]
    if use_cluster:
        environment["DATABASE_URL"] = cluster.start_postgres(folder, cluster.free_port())
        environment["REDIS_URL"] = cluster.start_redis(folder, cluster.free_port())
    pids = []
    for index, port in enumerate(ports, start=1):
        instance = {"CHESS_INSTANCE_PATH": str(folder / f"server-{index}")}
        program = (str(FLOOR_SERVER),) if floor else ("-m", "server")
        pids.append(cluster.start_server(folder, index, port, {**environment, **instance}, program))
    return Targets([f"http://127.0.0.1:{port}" for port in ports], pids, folder, use_cluster)


def stop_targets(targets: Targets) -> None:
    if targets.folder is None:
        return
    cluster.stop(targets.folder)
    shutil.rmtree(targets.folder, ignore_errors=True)


def resident_kb(pids: list[int]) -> int:
    """The resident memory of the processes, in KiB (Linux's /proc)."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time the processes have used (Linux's /proc): unlike latency, a
    figure other work on the machine hardly changes."""
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """Ticks of all the machine's CPUs since boot: (stolen by the hypervisor, all) (Linux's
    /proc/stat). On a virtual machine another tenant can take a share of the CPUs that moves
    latency a great deal; the report gives that share for the run."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[7], sum(fields[:8])  # user nice system idle iowait irq softirq steal


# -- one client process -------------------------------------------------------------------------


@dataclass
class Table:
    """One game as its clients see it."""

    id: str
    players: dict[str, Any] = field(default_factory=dict)  # colour -> AsyncClient
    newest: dict[str, dict[str, Any]] = field(default_factory=dict)  # colour -> newest state
    sent: dict[int, float] = field(default_factory=dict)  # ply reached -> when its move was sent


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # milliseconds
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    skipped: int = 0
    finished: int = 0
    disconnects: int = 0
    unseen: int = 0  # moves the opponent had not seen when the run ended
    gc_pauses: list[float] = field(default_factory=list)  # the collector's, while playing (ms)
    closing: bool = False  # the run is over: disconnects from now on are ours


async def open_client(url: str, on_state: Any, tally: Tally) -> Any:
    import socketio

    client = socketio.AsyncClient(reconnection=False)
    client.on("state", on_state)

    def lost(*reason: Any) -> None:
        if not tally.closing:
            tally.disconnects += 1

    client.on("disconnect", lost)
    await client.connect(url, transports=["websocket"], wait_timeout=ANSWER_SECONDS)
    return client


async def join(client: Any, game: str, **fields: Any) -> dict[str, Any]:
    reply: dict[str, Any] = await client.call(
        "join", {"game": game, **fields}, timeout=ANSWER_SECONDS
    )
    if not reply.get("ok"):
        raise RuntimeError(f"join refused: {reply}")
    return reply


async def set_table(
    http: Any, urls: list[str], index: int, spectators: int, tally: Tally
) -> tuple[Table, list[Any]]:
    """Create a game and seat its clients, each on the next server along."""
    url = urls[index % len(urls)]
    async with http.post(url + "/api/games", json={"opponent": "friend", "color": "white"}) as r:
        created = await r.json()
    table = Table(created["game"])

    def watch(state: dict[str, Any]) -> None:
        """Spectators only receive; what they cost the server is the point."""

    def recorder(color: str) -> Any:
        def on_state(state: dict[str, Any]) -> None:
            now = time.perf_counter()
            if color in table.newest and table.newest[color]["version"] >= state["version"]:
                return
            table.newest[color] = state
            mover = "white" if state["ply"] % 2 == 1 else "black"  # who made the last move
            sent = table.sent.get(state["ply"]) if color != mover else None
            if sent is not None:
                tally.latencies.append((now - sent) * 1000)
                del table.sent[state["ply"]]

        return on_state

    white = await open_client(urls[index % len(urls)], recorder("white"), tally)
    table.newest["white"] = (await join(white, table.id, seat=created["seat"]))["state"]
    black = await open_client(urls[(index + 1) % len(urls)], recorder("black"), tally)
    invite = created["links"]["invite"].split("invite=", 1)[1]
    table.newest["black"] = (await join(black, table.id, invite=invite))["state"]
    table.players = {"white": white, "black": black}
    watchers = []
    for offset in range(spectators):
        watcher = await open_client(urls[(index + 2 + offset) % len(urls)], watch, tally)
        await join(watcher, table.id)
        watchers.append(watcher)
    return table, [white, black, *watchers]


async def play(table: Table, rate: float, end: float, rng: random.Random, tally: Tally) -> None:
    interval = 1.0 / rate
    tick = time.monotonic() + rng.uniform(0, interval)
    while tick < end:
        await asyncio.sleep(max(0.0, tick - time.monotonic()))
        tick += interval
        latest = max(table.newest.values(), key=lambda state: state["version"])
        if latest["status"] != "playing":
            tally.finished += 1
            return
        state = table.newest[latest["turn"]]
        if state["version"] != latest["version"] or not state.get("dests"):
            tally.skipped += 1  # the mover has not seen the last move yet
            continue
        origin = rng.choice(sorted(state["dests"]))
        target = rng.choice(state["dests"][origin])
        promotion = "q" if target in (state.get("promotions") or {}).get(origin, []) else ""
        payload = {"game": table.id, "ply": state["ply"], "uci": origin + target + promotion}
        table.sent[state["ply"] + 1] = time.perf_counter()
        try:
            reply = await table.players[latest["turn"]].call(
                "move", payload, timeout=ANSWER_SECONDS
            )
        except Exception as error:
            tally.errors.append(f"move: {type(error).__name__}")
            continue
        if reply.get("ok"):
            tally.moves += 1
        else:
            tally.errors.append(f"move refused: {reply.get('code')}")


async def run_client_process(
    urls: list[str], indexes: list[int], options: dict[str, Any], barrier: Any
) -> Tally:
    import aiohttp

    tally = Tally()
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def seated(index: int) -> tuple[Table, list[Any]]:
        async with gate:
            return await set_table(http, urls, index, options["spectators"], tally)

    async with aiohttp.ClientSession() as http:
        tables = await asyncio.gather(*(seated(index) for index in indexes))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, barrier.wait)  # everyone seated: memory is measured
    gc.collect()
    gc.freeze()
    gc.set_threshold(*CLIENT_GC_THRESHOLDS)
    gc.callbacks.append(pause_timer(tally.gc_pauses))
    end = time.monotonic() + options["seconds"]
    rng = random.Random(indexes[0] if indexes else 0)
    plays = asyncio.gather(*(play(table, options["rate"], end, rng, tally) for table, _ in tables))
    try:
        # An overloaded server answers late; the run still ends, counting what never came.
        await asyncio.wait_for(plays, options["seconds"] + DRAIN_SECONDS)
    except TimeoutError:
        tally.errors.append("still waiting for an answer at the end")
    await asyncio.sleep(min(DRAIN_SECONDS, 2.0))  # the last states are on their way
    tally.unseen = sum(len(table.sent) for table, _ in tables)
    await loop.run_in_executor(None, barrier.wait)  # everyone done: memory is measured again
    gc.callbacks.clear()
    tally.closing = True
    closing = asyncio.gather(*(client.disconnect() for _, clients in tables for client in clients))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(closing, DRAIN_SECONDS)
    return tally


def pause_timer(pauses: list[float]) -> Any:
    """A `gc.callbacks` entry that appends each collection's pause to `pauses`, in ms."""
    began = 0.0

    def timed(phase: str, info: dict[str, int]) -> None:
        nonlocal began
        if phase == "start":
            began = time.perf_counter()
        else:
            pauses.append((time.perf_counter() - began) * 1000)

    return timed


def client_process(
    urls: list[str], indexes: list[int], options: dict[str, Any], barrier: Any, results: Any
) -> None:
    try:
        tally = asyncio.run(run_client_process(urls, indexes, options, barrier))
    except Exception as error:
        barrier.abort()
        tally = Tally(errors=[f"client process failed: {error!r}"])
    results.put(tally)


# -- the run -----------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(args: argparse.Namespace, targets: Targets) -> None:
    options = {"spectators": args.spectators, "rate": args.rate, "seconds": args.seconds}
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(args.clients + 1)
    results = context.Queue()
    before = resident_kb(targets.pids)
    workers = [
        context.Process(
            target=client_process,
            args=(
                targets.urls,
                list(range(n, args.games, args.clients)),
                options,
                barrier,
                results,
            ),
        )
        for n in range(args.clients)
    ]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    barrier.wait()
    seated = resident_kb(targets.pids)
    cpu_before = cpu_seconds(targets.pids)
    client_pids = [worker.pid for worker in workers if worker.pid is not None]
    client_cpu_before = cpu_seconds(client_pids)
    ticks_before = machine_ticks()
    print(f"seated {args.games} games in {time.monotonic() - started:.1f} s", flush=True)
    barrier.wait()
    after = resident_kb(targets.pids)
    cpu = cpu_seconds(targets.pids) - cpu_before
    client_cpu = cpu_seconds(client_pids) - client_cpu_before
    stolen, ticks = (now - then for now, then in zip(machine_ticks(), ticks_before, strict=True))
    tallies = [results.get() for _ in workers]
    for worker in workers:
        worker.join()
    report(args, targets, tallies, (before, seated, after), (cpu, client_cpu, stolen / ticks))


def report(
    args: argparse.Namespace,
    targets: Targets,
    tallies: list[Tally],
    memory: tuple[int, ...],
    cpus: tuple[float, float, float],
) -> None:
    latencies = [value for tally in tallies for value in tally.latencies]
    errors = [error for tally in tallies for error in tally.errors]
    moves = sum(tally.moves for tally in tallies)
    before, seated, after = memory
    cpu, client_cpu, stolen = cpus
    kinds = sorted({error for error in errors})
    processes = f"{len(targets.urls)} process(es)" + (
        " + PostgreSQL + Redis" if targets.cluster else ""
    )
    if args.floor:
        processes += " of bench/floor_server.py (no chess: the transport's floor)"
    print(f"servers: {processes}, async mode {args.async_mode}; clients: {args.clients} processes")
    print(
        f"games {args.games}, players {2 * args.games}, spectators {args.spectators * args.games},"
        f" {args.rate} move/s per game for {args.seconds:.0f} s"
    )
    print(f"moves acknowledged: {moves} ({moves / args.seconds:.1f} moves/s)")
    print(
        "move -> opponent sees it (ms): "
        f"p50 {percentile(latencies, 0.50):.1f}, p95 {percentile(latencies, 0.95):.1f}, "
        f"p99 {percentile(latencies, 0.99):.1f}, max {max(latencies, default=float('nan')):.1f}"
        f" over {len(latencies)} moves"
    )
    print(
        f"errors: {len(errors)} {[(kind, errors.count(kind)) for kind in kinds]}; "
        f"ticks skipped (mover behind): {sum(t.skipped for t in tallies)}; "
        f"disconnects: {sum(t.disconnects for t in tallies)}; "
        f"moves the opponent never saw: {sum(t.unseen for t in tallies)}; "
        f"games finished: {sum(t.finished for t in tallies)}"
    )
    if targets.pids:
        print(
            f"server RSS: {before / 1024:.1f} MiB idle, {seated / 1024:.1f} MiB seated,"
            f" {after / 1024:.1f} MiB after play; "
            f"{(after - before) / args.games:.1f} KiB per game"
            f" ({(seated - before) / args.games:.1f} KiB of it before the first move: the three"
            " connections and a new game)"
        )
        print(
            f"server CPU while playing: {cpu:.1f} s, {1000 * cpu / max(moves, 1):.2f} ms per move"
            f" (machine load average now: {os.getloadavg()[0]:.1f})"
        )
    pauses = [pause for tally in tallies for pause in tally.gc_pauses]
    print(
        f"client garbage collections while playing: {len(pauses)}, {sum(pauses) / 1000:.2f} s,"
        f" longest {max(pauses, default=0.0):.0f} ms"
    )
    print(
        f"client CPU while playing: {client_cpu:.1f} s, {1000 * client_cpu / max(moves, 1):.1f} ms"
        " per move (on the same machine: what the clients take, the server cannot use)"
    )
    print(
        f"CPU time stolen by the hypervisor while playing: {100 * stolen:.1f}% of the machine's"
        " (other tenants; a run with more than a few percent was slowed from outside)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="concurrent games")
    parser.add_argument("--rate", type=float, default=1.0, help="moves per second per game")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the games play")
    parser.add_argument("--spectators", type=int, default=1, help="watchers per game")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--async-mode", choices=ASYNC_MODES, default=ASYNC_MODE)
    parser.add_argument("--cluster", action="store_true", help="PostgreSQL, Redis, 2 processes")
    parser.add_argument(
        "--floor",
        action="store_true",
        help="against bench/floor_server.py: the transport alone, no chess (gevent, one process)",
    )
    parser.add_argument("--url", action="append", help="use running server(s) at this URL")
    args = parser.parse_args()
    if args.floor and (args.cluster or args.url or args.async_mode != "gevent"):
        parser.error("--floor runs its own gevent server: no --cluster, --url or --async-mode")
    targets = (
        Targets(args.url, [])
        if args.url
        else start_targets(args.async_mode, args.cluster, args.floor)
    )
    try:
        run(args, targets)
    finally:
        stop_targets(targets)


if __name__ == "__main__":
    main()
