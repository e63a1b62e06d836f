"""Where Argon2id hashes run: two lanes, so a sign-in never queues behind a flood of sign-ups.

A hash costs about 60 ms of one core and 32 MiB (server.accounts.passwords), so how many run
at once is bounded, and so is how long a request waits for its turn. `CHECKS` serves the
owner's business: verifying a password (sign-in, password change, deletion, confirming before
a passkey is added) and the new hash of a password change or a recovery; `SIGNUPS` serves the
password of a new account, and nothing else. Each lane has `threads` turns; a request waits
at most `wait` seconds for one, and at most `waiting` requests queue or hash in a lane: past
either bound the answer is `busy` (503) at once, never a minute's hang. A sign-up flood thus
fills its own lane and is told `busy`, while sign-ins still find theirs free (bench/hostile.py
measures it: the owner's sign-in during 40 addresses' sign-ups).

Each lane hashes on native threads of its own, one per turn (gevent's thread pool when the
process is patched, else a plain executor): argon2's C code releases the GIL, so the serving
loop goes on meanwhile, and the lanes' turns are the only queue. The sign-up lane's threads run
at a lower scheduling priority (`nice`): on a busy machine the owner's sign-in gets the core
first. The lanes are built when this module is imported, after gevent's patch
(server/__main__.py), so their semaphores are the patched, cooperative ones; their threads
start on first use.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from server.shared.errors import RequestError

T = TypeVar("T")
BUSY = "the server is checking many passwords now; try again in a few seconds"


class Lane:
    """At most `threads` hashes at once, `waiting` queued or running, each turn waited for at
    most `wait` seconds (see the module docstring)."""

    def __init__(
        self, name: str, threads: int, waiting: int, wait: float, nice: int = 0, busy: str = BUSY
    ) -> None:
        self.name = name
        self.busy = busy
        self.threads = threads
        self.wait = wait
        self.nice = nice
        self._waiting = threading.BoundedSemaphore(waiting)
        self._turns = threading.BoundedSemaphore(threads)
        # How many hashes run at once now in this lane, and the most seen (tests count them).
        self.running = 0
        self.most_running = 0
        self._count_lock = threading.Lock()
        self._pool: Any = None
        self._niced_threads: set[int] = set()

    def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a turn of this lane, off the serving loop; `busy` past the bounds."""
        if not self._waiting.acquire(blocking=False):
            raise RequestError("busy", self.busy)
        try:
            if not self._turns.acquire(timeout=self.wait):
                raise RequestError("busy", self.busy)
            try:
                return self._counted(work, *args)
            finally:
                self._turns.release()
        finally:
            self._waiting.release()

    def _counted(self, work: Callable[..., T], *args: Any) -> T:
        with self._count_lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            return self._threads().apply(self._niced, (work, *args))  # type: ignore[no-any-return]
        finally:
            with self._count_lock:
                self.running -= 1

    def _niced(self, work: Callable[..., T], *args: Any) -> T:
        """`work` on a thread of this lane, which first lowers its priority by the lane's
        `nice`, once (that needs no privilege, and it stays: the thread serves this lane
        only)."""
        if self.nice and hasattr(os, "setpriority"):
            # Not Linux's per-thread priorities: the lanes still bound the waits.
            with contextlib.suppress(OSError):
                thread = threading.get_native_id()
                if thread not in self._niced_threads:
                    base = os.getpriority(os.PRIO_PROCESS, thread)  # the process's own nice
                    os.setpriority(os.PRIO_PROCESS, thread, min(19, base + self.nice))
                    self._niced_threads.add(thread)
        return work(*args)

    def _threads(self) -> Any:
        """This lane's native threads (gevent's pool when the process is patched), started
        on first use."""
        with self._count_lock:
            if self._pool is None:
                # Not `or`: gevent's pool is falsy while it runs nothing (it has a length).
                pool = _gevent_pool(self.threads)
                self._pool = _Executor(self.threads) if pool is None else pool
            return self._pool


# A sign-in waits at most a second for one of two turns (16 asking at once is about half a
# second of hashing). A sign-up waits at most two seconds for its single turn, so sign-ups
# hold at most one core, at a lower priority, whatever their number; the many who may wait
# (a waiting request holds no hash memory) keep a flood that retries at once to one request
# per address every two seconds.
CHECKS = Lane("checks", threads=2, waiting=16, wait=1.0)
SIGNUPS = Lane("signups", threads=1, waiting=64, wait=2.0, nice=10)


def _gevent_pool(threads: int) -> Any:
    """A gevent pool of native threads when the process is patched, else None."""
    try:
        from gevent import monkey
        from gevent.threadpool import ThreadPool
    except ImportError:
        return None
    if not monkey.is_module_patched("threading"):
        return None
    return ThreadPool(threads)


class _Executor:
    """Threading mode's pool, with gevent's `apply`."""

    def __init__(self, threads: int) -> None:
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="hash")

    def apply(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        return self.executor.submit(work, *args).result()
