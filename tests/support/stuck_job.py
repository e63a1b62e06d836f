"""A test-only engine pool job that cannot stop: it sends one update, then loops in pure Python
without ever looking at its stop flag, as a search bug would (for the pool's watchdog tests).
It lives in a module of its own so the pool's spawned workers can import it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.engine.analysis import AnalysisUpdate, final_update


@dataclass(frozen=True)
class StuckJob:
    """Says it needs at most `bound_seconds` between updates, then never sends another."""

    bound_seconds: float = 0.5
    low_priority: bool = False

    def check(self) -> bool:
        return True

    def run(self, cancel: Any, send: Callable[[AnalysisUpdate], None]) -> None:
        send(AnalysisUpdate(1, 1, 0.0, False, []))
        spins = 0
        while True:  # the flag is never read: only the watchdog ends this
            spins += 1

    def final(
        self, last: AnalysisUpdate | None, preempted: bool, error: str | None = None
    ) -> AnalysisUpdate:
        return final_update(last, preempted, error)
