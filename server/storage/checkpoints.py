"""SQLite's checkpoints on a thread of their own, off the serving loop.

In WAL mode a commit appends its pages to the log; a checkpoint copies them back into the
database file, syncing both to disk. Left to SQLite, the checkpoint runs inside the commit that
makes the log reach 1,000 pages: about one move in 125, which then takes 5 to 25 ms instead of
0.1, two fsyncs included. Under gevent that commit holds the whole process, every game's moves
with it (`bench/load.py` at 250 games: a stall every half second).

`Checkpointer` turns SQLite's automatic checkpoints off on the serving connection and runs a
passive checkpoint every `period` seconds from an operating-system thread with its own
connection: the serving loop keeps running while it copies and syncs (the sqlite3 module lets
go of the GIL meanwhile), and a passive checkpoint never waits for a writer nor makes one wait.
Under gevent's patching a `threading.Thread` would be a greenlet on the serving loop, so the
thread and its sleep are the unpatched originals.

What a crash can lose follows (docs/architecture.md, "What a crash can lose"): with
`synchronous=NORMAL` the log reaches the disk at each checkpoint, so a machine that dies loses
at most the changes of the last period and of the checkpoint then running.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CHECKPOINT_SECONDS = 1.0


def _unpatched(module: str, name: str, default: Any) -> Any:
    """`module.name` as it was before gevent patched it (the module's own when unpatched)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return default
    return monkey.get_original(module, name) if monkey.is_module_patched(module) else default


class Checkpointer:
    """Passive checkpoints of the database at `path` every `period` seconds, on a thread."""

    def __init__(self, path: Path, period: float = CHECKPOINT_SECONDS) -> None:
        import _thread
        import time

        self.path = path
        self.period = period
        self.stopped = False
        self.sleep: Callable[[float], None] = _unpatched("time", "sleep", time.sleep)
        start = _unpatched("_thread", "start_new_thread", _thread.start_new_thread)
        start(self._run, ())

    def stop(self) -> None:
        """No checkpoint after the one running, if any (the thread ends within a period)."""
        self.stopped = True

    def _run(self) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except sqlite3.Error:
            log.exception("the checkpoints of %s could not start", self.path)
            return
        try:
            while not self.stopped:
                self.sleep(self.period)
                if not self.stopped:
                    self._checkpoint(db)
        finally:
            db.close()

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            # A database removed under it (a test's folder) or a disk gone: logged, tried again.
            log.warning("a checkpoint of %s failed", self.path, exc_info=True)
