"""The worker side of the engine pool: what runs inside each worker process.

`EnginePool` (server.engine.pool) starts its workers with `start_worker`, which keeps the
lanes' shared cancel flags and update pipes in this module's globals (set once per process),
nices the worker and makes it exit with the server. Every job (a game's search, the analysis
board's lines, a game review: anything with the `PoolJob` shape) runs `run_job_in_worker`,
which calls the job's own `run` with its lane's cancel signal and a `send` that puts each
update, tagged with the job's serial, down the lane's pipe. An update may be any picklable
value with a `done` flag; the job says what its updates are.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

from chesscore.engine.search import StopSignal

# How much a worker yields the CPU to the server (os.nice), so a search never delays a reply:
# on 2 busy cores, bench/latency.py measured another game's p50 round trip 5.8 ms slower while
# level 8 searched at niceness 0, and 1.4 ms / -0.1 ms (noise) at 10.
WORKER_NICENESS = 10

# In a worker process only: the lanes' cancel flags and update pipes, set by `start_worker`.
worker_flags: Any = None
worker_channels: list[Connection] = []


class PoolUpdate(Protocol):
    """What a job sends: anything picklable; `done` on its last update."""

    @property
    def done(self) -> bool: ...


class PoolJob(Protocol):
    """A job the pool runs on one lane: checked in the server process first, run in a worker.

    `check` raises ValueError for a job that cannot run and says whether it needs a worker at
    all (False: its answer is its `final` update, at once); `run` works in the worker, sending
    updates and ending with a `done` one, sent or returned (a game's search returns its one
    update, which comes back with the worker's result, one thread fewer on the way than the
    pipe's reader); `final` is the `done` update the server sends in its
    place when the job is stopped (replaced, pre-empted) or its worker failed (`error` says
    how), from the last update it sent. A `low_priority` job gives its lane to any other job
    that waits for one. `bound_seconds` is the longest it goes between two updates when its
    worker is well: the pool's watchdog ends a job silent past it (server.engine.watchdog)."""

    @property
    def low_priority(self) -> bool: ...

    @property
    def bound_seconds(self) -> float: ...

    def check(self) -> bool: ...

    def run(self, cancel: StopSignal, send: Callable[[Any], None]) -> PoolUpdate | None: ...

    def final(self, last: Any, preempted: bool, error: str | None = None) -> PoolUpdate: ...


def exit_with_parent(parent: int) -> None:
    """Worker initializer: leave when the server process is gone.

    A server stopped by a signal (SIGTERM, or kill -9) runs no clean-up, and its workers would
    otherwise linger as orphans, so each worker watches its parent id and exits on its own."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start_worker(parent: int, flags: Any, channels: list[Connection]) -> None:
    """Worker initializer: keep the shared cancel flags and the lanes' update pipes, yield the
    CPU, exit with the server."""
    global worker_flags, worker_channels
    worker_flags = flags
    worker_channels = channels
    os.nice(WORKER_NICENESS)
    exit_with_parent(parent)


class LaneSignal:
    """The cancel signal of one lane, read from the flags shared with the server."""

    def __init__(self, lane: int) -> None:
        self.lane = lane

    def is_set(self) -> bool:
        return bool(worker_flags[self.lane])


@dataclass(frozen=True)
class JobStarted:
    """The first thing a job sends, before its own updates: its worker is up and runs it (the
    pool's watchdog counts its bound from here, not from a worker process still starting)."""

    done: bool = False


def run_job_in_worker(serial: int, lane: int, job: PoolJob) -> PoolUpdate | None:
    """A job in a worker: `JobStarted`, then each update down the lane's pipe, tagged
    `serial`; what the job returns comes back as the worker's result."""
    channel = worker_channels[lane]

    def send(update: Any) -> None:
        channel.send((serial, update))

    send(JobStarted())
    return job.run(LaneSignal(lane), send)
