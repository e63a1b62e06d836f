"""A game's search as one more job of the engine pool: what to search (`Search`), the job that
runs it in a worker (`SearchJob`, a `server.engine.worker.PoolJob` like the analysis board's)
and its one update (`SearchAnswer`, the move).

The search's bound, for the pool's watchdog, is its level's thinking time (`search_seconds`);
a search the watchdog ended makes its waiter raise `JobOverran`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from chesscore.engine.levels import SEARCH_LEVELS, choose_move_uci
from chesscore.engine.search import StopSignal


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


@dataclass(frozen=True)
class SearchAnswer:
    """A search's one update: the move as UCI; None with `error` when it failed, None alone
    when it was stopped first (cancelled, or replaced by the game's next search)."""

    move: str | None
    done: bool = True
    error: str | None = None


@dataclass(frozen=True)
class SearchJob:
    """The pool's job interface (server.engine.worker.PoolJob) around a `Search`."""

    search: Search
    low_priority: ClassVar[bool] = False

    def check(self) -> bool:
        return True

    def run(self, cancel: StopSignal, send: Callable[[SearchAnswer], None]) -> SearchAnswer:
        """The move, returned rather than sent: it comes back with the worker's result."""
        search = self.search
        move = choose_move_uci(search.start_fen, search.moves, search.level, search.seed, cancel)
        return SearchAnswer(move)

    @property
    def bound_seconds(self) -> float:
        return search_seconds(self.search.level)

    def final(
        self, last: SearchAnswer | None, preempted: bool, error: str | None = None
    ) -> SearchAnswer:
        return SearchAnswer(None, True, error)
