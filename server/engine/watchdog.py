"""The engine pool's watchdog: a job stuck past its bound is ended from outside.

Every search and job of the pool obeys its stop flag and its time bound (chesscore's search
looks at both at every depth and in the quiescence search), but that is a promise of the code a
worker runs, and a bug, a position nobody tried, or a job kind added later can break it: a job
that never returns holds its lane for ever, and a review that cannot finish blocks the review
queue. So each lane in use is watched: a job says how long it may go without a sign of life
(`bound` seconds: a game's search its level's thinking time, an analysis its budget, a review
one position's search), each update it sends counts as one, and a lane silent for its bound
plus `GRACE_SECONDS` (room for a niced worker on a loaded machine) is reported to
`on_overrun`, once, which ends the worker (server.engine.lanes). Until a job's first sign (the
worker says it has started it) its lane also gets `START_SECONDS`: a worker process spawned for
it (the first, or one replacing a killed one) imports the engine first, which a loaded machine
can make take seconds. A game's search sends no sign: its whole bound includes that room. The
check runs every `POLL_SECONDS` on a thread of its own (a greenlet under gevent), started with
the first watch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

GRACE_SECONDS = 20.0
START_SECONDS = 60.0
POLL_SECONDS = 0.5

Overrun = Callable[[int, object], None]


@dataclass
class Watch:
    """One lane's holder (`token`, the pool's ticket or run), its bound and its deadline."""

    token: object
    bound: float
    deadline: float


class Watchdog:
    """Watches the lanes in use; `on_overrun(lane, token)` for one silent past its deadline,
    on the watchdog's thread (the callback checks the token still holds the lane)."""

    def __init__(
        self, on_overrun: Overrun, grace: float = GRACE_SECONDS, poll: float = POLL_SECONDS
    ) -> None:
        self.on_overrun = on_overrun
        self.grace = grace
        self.start = START_SECONDS
        self.poll = poll
        self.lock = threading.Lock()
        self.watches: dict[int, Watch] = {}
        self.thread: threading.Thread | None = None
        self.closed = False

    def watch(self, lane: int, token: object, bound: float) -> None:
        """`token` holds `lane` from now, for `bound` seconds between signs of life (and
        START_SECONDS more until the first)."""
        with self.lock:
            deadline = time.monotonic() + self.start + bound + self.grace
            self.watches[lane] = Watch(token, bound, deadline)
            if self.thread is None and not self.closed:
                self.thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
                self.thread.start()

    def touch(self, lane: int, token: object) -> None:
        """A sign of life of `token` on `lane` (an update): its deadline starts again."""
        with self.lock:
            watch = self.watches.get(lane)
            if watch is not None and watch.token is token:
                watch.deadline = time.monotonic() + watch.bound + self.grace

    def forget(self, lane: int, token: object) -> None:
        """`token` has let go of `lane`."""
        with self.lock:
            watch = self.watches.get(lane)
            if watch is not None and watch.token is token:
                del self.watches[lane]

    def _run(self) -> None:
        while not self.closed:
            time.sleep(self.poll)
            for lane, token in self._overdue():
                try:
                    self.on_overrun(lane, token)
                except Exception:
                    log.exception("ending the overdue job on lane %d failed", lane)

    def _overdue(self) -> list[tuple[int, object]]:
        """The lanes past their deadline, no longer watched (each is reported once)."""
        now = time.monotonic()
        with self.lock:
            late = [lane for lane, watch in self.watches.items() if watch.deadline < now]
            return [(lane, self.watches.pop(lane).token) for lane in late]

    def close(self) -> None:
        self.closed = True  # the thread leaves within `poll` seconds
