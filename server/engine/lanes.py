"""The engine pool's worker processes: one per lane, each a resource the pool can end alone.

A lane is one worker process with its own cancel flag (memory shared with every worker) and its
own update pipe. Each lane runs in a one-worker `ProcessPoolExecutor` of its own, not in one
executor shared by all: a worker that dies (killed by the watchdog for a job stuck past its
bound, server.engine.watchdog, or by the system for memory) breaks only its own executor, so
only the job on that lane fails, and the next job on the lane starts a fresh worker. Workers are
spawned (forking a process that runs threads could copy a held lock), started on the first job
of their lane or by `warm`, niced, and exit on their own when the server dies
(server.engine.worker).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from ctypes import c_byte
from multiprocessing.connection import Connection
from typing import Any

from server.engine.worker import start_worker

log = logging.getLogger(__name__)


class WorkerLanes:
    """`size` lanes, each with its cancel flag (`flags[lane]`), update pipe and worker process.
    `on_first_start` gets the pipes' reading ends once, when the first worker is started."""

    def __init__(self, size: int, on_first_start: Callable[[list[Connection]], None]) -> None:
        self.size = size
        self.context = multiprocessing.get_context("spawn")
        self.flags = self.context.RawArray(c_byte, size)
        self.lock = threading.Lock()
        self.executors: list[ProcessPoolExecutor | None] = [None] * size
        self.channels: list[tuple[Connection, Connection]] = []
        self.on_first_start = on_first_start

    def submit(self, lane: int, function: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run `function(*args)` on the lane's worker (started if need be)."""
        return self.executor(lane).submit(function, *args)

    def executor(self, lane: int) -> ProcessPoolExecutor:
        """The lane's executor, made now if it has none (or its last one broke)."""
        with self.lock:
            executor = self.executors[lane]
            if executor is None:
                executor = self.executors[lane] = self._make_executor()
            return executor

    def _make_executor(self) -> ProcessPoolExecutor:
        if not self.channels:
            self.channels = [self.context.Pipe(duplex=False) for _ in range(self.size)]
            self.on_first_start([reader for reader, _ in self.channels])
        # The flags and pipes reach the worker as initializer arguments: shared memory is
        # handed over when a process starts, never inside a task.
        writers = [writer for _, writer in self.channels]
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=self.context,
            initializer=start_worker,
            initargs=(os.getpid(), self.flags, writers),
        )

    def forget(self, lane: int, broken: ProcessPoolExecutor) -> None:
        """The lane's worker died: its next job starts a fresh one."""
        with self.lock:
            if self.executors[lane] is not broken:
                return  # replaced already
            self.executors[lane] = None
        log.error("the engine worker of lane %d died; its next job starts a new one", lane)
        broken.shutdown(wait=False, cancel_futures=True)

    def kill(self, lane: int) -> None:
        """End the lane's worker now (SIGKILL: a job stuck in pure Python never looks at its
        flag); the job on it fails with BrokenProcessPool, the lane's next job gets a new one."""
        with self.lock:
            executor, self.executors[lane] = self.executors[lane], None
        if executor is None:
            return
        # Python 3.14 has `kill_workers`; until then the executor's own process table.
        processes: dict[int, Any] = dict(getattr(executor, "_processes", None) or {})
        for process in processes.values():
            process.kill()
        executor.shutdown(wait=False, cancel_futures=True)

    def warm(self) -> None:
        """Start every lane's worker now (a task that does nothing); nothing waits for them."""
        for lane in range(self.size):
            self.submit(lane, os.getpid)

    def close(self) -> None:
        """Stop every worker once its task is done (the pool raised the flags first)."""
        with self.lock:
            executors, self.executors = self.executors, [None] * self.size
        for executor in executors:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
