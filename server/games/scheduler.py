"""One timer thread for every game: run a callback at a wall-clock time.

Clocks need "check this game at time T" for thousands of games; a thread per pending check
would pile up sleeping threads, so a single background task keeps a heap of (time, callback)
and sleeps until the earliest. Entries are never cancelled: a callback re-checks the game under
its lock, so one scheduled for a position that has moved on simply finds nothing to do.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

Spawn = Callable[[Callable[[], None]], object]


class Scheduler:
    """Runs callbacks at given times on one background task, started on first use."""

    def __init__(self, spawn: Spawn, clock: Callable[[], float] = time.time) -> None:
        self.spawn = spawn
        self.clock = clock
        self.heap: list[tuple[float, int, Callable[[], None]]] = []
        self.counter = itertools.count()  # tie-breaker: callbacks are not comparable
        self.condition = threading.Condition()
        self.started = False
        self.stopped = False

    def schedule(self, when: float, callback: Callable[[], None]) -> None:
        with self.condition:
            heapq.heappush(self.heap, (when, next(self.counter), callback))
            if not self.started:
                self.started = True
                self.spawn(self._run)
            self.condition.notify()

    def stop(self) -> None:
        with self.condition:
            self.stopped = True
            self.condition.notify()

    def _next_due(self) -> Callable[[], None] | None:
        """Wait for the earliest entry to fall due; None once stopped."""
        with self.condition:
            while not self.stopped:
                if not self.heap:
                    self.condition.wait()
                    continue
                delay = self.heap[0][0] - self.clock()
                if delay <= 0:
                    return heapq.heappop(self.heap)[2]
                self.condition.wait(delay)
            return None

    def _run(self) -> None:
        while (callback := self._next_due()) is not None:
            try:
                callback()
            except Exception:
                log.exception("scheduled callback failed")
