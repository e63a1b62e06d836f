"""What the engine pool queues and holds: a game's search (`Search`, its place in the queue a
`Ticket`) and a job's run (`AnalysisRun`), each marked when the watchdog ended it (`overran`),
and the bound the watchdog gives a search (its level's thinking time). Plain records: the
decisions are server.engine.pool's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chesscore.engine.levels import SEARCH_LEVELS
from server.engine.worker import PoolJob

UpdateCallback = Callable[[Any], None]


class JobOverran(RuntimeError):
    """A search the watchdog ended: it ran past its level's time and the grace."""


def search_seconds(level: int) -> float:
    """The longest a search of `level` thinks (the watchdog's bound for it)."""
    limits = SEARCH_LEVELS.get(level)
    return limits.movetime if limits else max(x.movetime for x in SEARCH_LEVELS.values())


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
    overran: bool = False  # ended by the watchdog
    granted: threading.Event = field(default_factory=threading.Event)


@dataclass(eq=False)
class AnalysisRun:
    """One job of an owner (analysis, review): queued, then on a lane until its worker
    returns."""

    serial: int
    owner: str
    client: str
    job: PoolJob
    on_update: UpdateCallback
    lane: int | None = None
    queued_at: float = field(default_factory=time.monotonic)
    granted_at: float = 0.0  # time.monotonic() when it got its lane
    stopping: bool = False  # asked to stop (replaced, stopped, pre-empted)
    preempted: bool = False  # stopped for a game's search, or a job above a low-priority one
    finished: bool = False  # its `done` update is due: nothing else goes to its owner
    overran: bool = False  # ended by the watchdog
    last: Any = None
    delivery: threading.Lock = field(default_factory=threading.Lock)  # one update at a time
    done_sent: bool = False
