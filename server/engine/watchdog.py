"""The engine pool's watchdog: a job stuck past its bound is ended from outside.

Every search and job of the pool obeys its stop flag and its time bound (chesscore's search
looks at both at every depth and in the quiescence search), but that is a promise of the code a
worker runs, and a bug, a position nobody tried, or a job kind added later can break it: a job
that never returns holds its lane for ever, and a review that cannot finish blocks the review
queue. So each lane in use is watched: a job says how long it may go without a sign of life (a
game's search its level's thinking time, an analysis its budget, a review one position's
search), and the pool's schedule keeps each job's deadline (server.engine.schedule: the bound
and a grace from its last sign of life, and room for a worker starting before its first). The
`Watchdog` is the clock of that bookkeeping: every `POLL_SECONDS`, on a thread of its own (a
greenlet under gevent) started with the first job, it has the pool end the jobs past their
deadline (their workers are killed, server.engine.lanes).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5


class Watchdog:
    """Calls `end_overdue()` every `poll` seconds from `start` until `close`."""

    def __init__(self, end_overdue: Callable[[], None], poll: float = POLL_SECONDS) -> None:
        self.end_overdue = end_overdue
        self.poll = poll
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.closed = False

    def start(self) -> None:
        """Start watching, if not started yet."""
        with self.lock:
            if self.thread is None and not self.closed:
                self.thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while not self.closed:
            time.sleep(self.poll)
            try:
                self.end_overdue()
            except Exception:
                log.exception("ending the overdue jobs failed")

    def close(self) -> None:
        self.closed = True  # the thread leaves within `poll` seconds
