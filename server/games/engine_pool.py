"""The engine workers and the fair queue in front of them: no player can starve the others.

`EnginePool` runs the computer's searches (`chesscore.engine.levels.choose_move_uci`, plain data in
and out) in `size` worker processes, started on the first search, niced so the process answering
players keeps its CPU, and exiting on their own when the server dies. Searches do not go to the
workers in arrival order: each belongs to a game and a client key (the address that created the
game), and the queue hands a free worker to the clients in turn, round-robin, one search in
flight per client at most (a client's own games share one slot, so twenty games from one
address weigh like one), and to a client's games in the order they asked. A game has at most one
search pending or running: a new one replaces its pending one and stops its running one. Work
is handed to the executor only when a worker is free, so until then a cancel or a fairness
decision still takes effect. Each worker slot (a lane) has its own cancel flag in memory shared
with the workers; a lane is held by one search until its result is back, and its flag is
cleared only when the lane is handed to the next, so a cancel reaches its own search and no
other, however many searches wait.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from ctypes import c_byte
from dataclasses import dataclass, field
from typing import Any

from chesscore.engine.levels import choose_move_uci

log = logging.getLogger(__name__)

# How much a worker yields the CPU to the server (os.nice), so a search never delays a reply:
# on 2 busy cores, bench/latency.py measured another game's p50 round trip 5.8 ms slower while
# level 8 searched at niceness 0, and 1.4 ms / -0.1 ms (noise) at 10.
WORKER_NICENESS = 10

# In a worker process only: the lanes' cancel flags, set by `start_worker`.
worker_flags: Any = None


def default_size(cores: int | None = None) -> int:
    """Workers for a machine with `cores` (os.cpu_count() when None): one per core. The
    workers are niced, so the server process keeps its share, and a client's games hold one
    worker at most, so a second core serves a second player at once (README, "Performance")."""
    return max(1, cores if cores is not None else os.cpu_count() or 1)


def exit_with_parent(parent: int) -> None:
    """Worker initializer: leave when the server process is gone.

    A server stopped by a signal (SIGTERM, or kill -9) runs no clean-up, and its workers would
    otherwise linger as orphans, so each worker watches its parent id and exits on its own."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start_worker(parent: int, flags: Any) -> None:
    """Worker initializer: keep the shared cancel flags, yield the CPU, exit with the server."""
    global worker_flags
    worker_flags = flags
    os.nice(WORKER_NICENESS)
    exit_with_parent(parent)


class LaneSignal:
    """The cancel signal of one lane, read from the flags shared with the server."""

    def __init__(self, lane: int) -> None:
        self.lane = lane

    def is_set(self) -> bool:
        return bool(worker_flags[self.lane])


def search_in_worker(start_fen: str, moves: list[str], level: int, seed: int, lane: int) -> str:
    """`choose_move_uci` in a worker, stopped early once its lane's cancel flag is raised."""
    return choose_move_uci(start_fen, moves, level, seed, cancel=LaneSignal(lane))


@dataclass(frozen=True)
class Search:
    """What to search: the position (start FEN and UCI moves), the level and the seed."""

    start_fen: str
    moves: list[str]
    level: int
    seed: int


@dataclass(eq=False)
class Ticket:
    """One search's place in the queue; `granted` is set once it holds a lane or is dropped."""

    game_id: str
    client: str
    search: Search
    lane: int | None = None
    cancelled: bool = False
    granted: threading.Event = field(default_factory=threading.Event)


class EnginePool:
    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one worker, got {size}")
        self.size = size
        self.lock = threading.Lock()
        self.flags = multiprocessing.get_context("spawn").RawArray(c_byte, size)
        self.free_lanes = list(range(size))
        self.executor: ProcessPoolExecutor | None = None
        # client key -> its games' pending tickets, oldest first.
        self.queues: dict[str, OrderedDict[str, Ticket]] = {}
        # Clients with pending tickets and no search in flight, in turn order: a client goes to
        # the back when its search ends, so a newcomer waits for one search at most.
        self.turns: OrderedDict[str, None] = OrderedDict()
        self.busy_clients: set[str] = set()
        self.running: dict[str, Ticket] = {}  # game id -> the ticket holding a lane for it
        self.waiting: dict[str, Ticket] = {}  # game id -> its ticket in the queues

    def enqueue(self, game_id: str, client: str, search: Search) -> Ticket:
        """Queue `search` for the game, replacing its pending one and stopping its running one;
        `run` the returned ticket to wait for the move."""
        with self.lock:
            self._cancel(game_id)
            ticket = Ticket(game_id, client, search)
            self.queues.setdefault(client, OrderedDict())[game_id] = ticket
            self.waiting[game_id] = ticket
            if client not in self.busy_clients:
                self.turns[client] = None
            self._grant()
            return ticket

    def run(self, ticket: Ticket) -> str | None:
        """Wait for a lane, search, and return the move as UCI; None if the search was cancelled
        (before it started, or while it ran: its best move so far is of no use)."""
        ticket.granted.wait()
        if ticket.lane is None:
            return None  # dropped from the queue
        try:
            if ticket.cancelled:
                return None
            try:
                uci = self._search(ticket.search, ticket.lane)
            except BrokenProcessPool:
                # A worker died (killed, out of memory) and took every search in flight with
                # it, other clients' too: each is searched once more on fresh workers, so no
                # game is left waiting for a reply nobody will ask for again.
                uci = self._search(ticket.search, ticket.lane)
            return None if ticket.cancelled else uci
        finally:
            self._release(ticket)

    def _search(self, search: Search, lane: int) -> str:
        executor = self._executor()
        try:
            future = executor.submit(
                search_in_worker, search.start_fen, search.moves, search.level, search.seed, lane
            )
            return future.result()
        except BrokenProcessPool:
            self._forget(executor)
            raise

    def cancel(self, game_id: str) -> None:
        """Drop the game's pending search and stop its running one, if any."""
        with self.lock:
            self._cancel(game_id)

    def _cancel(self, game_id: str) -> None:
        running = self.running.get(game_id)
        if running is not None and running.lane is not None:
            running.cancelled = True
            self.flags[running.lane] = 1
        dropped = self.waiting.pop(game_id, None)
        if dropped is None:
            return
        dropped.cancelled = True
        dropped.granted.set()  # wakes its waiter with no lane
        games = self.queues[dropped.client]
        del games[game_id]
        if not games:
            del self.queues[dropped.client]
            self.turns.pop(dropped.client, None)

    def _grant(self) -> None:
        """Hand free lanes to the clients whose turn it is, each its oldest pending search."""
        while self.free_lanes and self.turns:
            client, _ = self.turns.popitem(last=False)
            games = self.queues[client]
            _, ticket = games.popitem(last=False)
            del self.waiting[ticket.game_id]
            if not games:
                del self.queues[client]
            lane = self.free_lanes.pop()
            self.flags[lane] = 0
            ticket.lane = lane
            self.running[ticket.game_id] = ticket
            self.busy_clients.add(client)
            ticket.granted.set()

    def _release(self, ticket: Ticket) -> None:
        """The ticket's search is over: its lane goes to the next, its client to the back."""
        with self.lock:
            if self.running.get(ticket.game_id) is ticket:
                del self.running[ticket.game_id]
            self.busy_clients.discard(ticket.client)
            if ticket.client in self.queues:
                self.turns[ticket.client] = None
            assert ticket.lane is not None
            self.free_lanes.append(ticket.lane)
            self._grant()

    def _executor(self) -> ProcessPoolExecutor:
        with self.lock:
            if self.executor is None:
                # spawn: forking a process that runs threads could copy a held lock. The flags
                # reach the workers as an initializer argument: shared memory is handed over
                # when a process starts, never inside a task.
                self.executor = ProcessPoolExecutor(
                    max_workers=self.size,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_worker,
                    initargs=(os.getpid(), self.flags),
                )
            return self.executor

    def _forget(self, broken: ProcessPoolExecutor) -> None:
        """A worker died (killed, out of memory): the next search starts fresh workers."""
        with self.lock:
            if self.executor is not broken:
                return  # another search has already replaced it
            self.executor = None
        log.error("an engine worker died; the searches in flight go to new workers")
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self.lock:
            executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
