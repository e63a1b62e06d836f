"""Chess clocks kept by the server: time left per side, which clock runs, and since when.

A clock is plain immutable data, advanced by pure functions given the current wall-clock time
(seconds, as `time.time()` gives), so it can be stored, restored after a restart and tested
without waiting. Time is counted in integer milliseconds. The clocks start once each side has
moved (the abort window, as on the big sites); after that the side to move's clock runs and the
mover gets the increment after each move made on a running clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from chesscore import WHITE, Color

# Plies after which the clock of the side to move runs (both sides have moved once).
CLOCK_START_PLY = 2


@dataclass(frozen=True)
class ClockSettings:
    """The time control: initial time and increment, in milliseconds."""

    initial_ms: int
    increment_ms: int

    def to_data(self) -> dict[str, int]:
        return {"initial_ms": self.initial_ms, "increment_ms": self.increment_ms}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ClockSettings:
        return cls(int(data["initial_ms"]), int(data["increment_ms"]))


@dataclass(frozen=True)
class ClockState:
    """Time left per side as of `since`, and the colour whose clock runs (or None)."""

    white_ms: int
    black_ms: int
    running: Color | None = None
    since: float = 0.0

    @classmethod
    def start(cls, settings: ClockSettings) -> ClockState:
        return cls(settings.initial_ms, settings.initial_ms)

    def stored_ms(self, color: Color) -> int:
        return self.white_ms if color == WHITE else self.black_ms

    def remaining_ms(self, color: Color, now: float) -> int:
        """Time left for `color` at `now`, never below zero."""
        left = self.stored_ms(color)
        if self.running == color:
            left -= int((now - self.since) * 1000)
        return max(left, 0)

    def flagged(self, now: float) -> Color | None:
        """The colour whose time has run out at `now`, if any."""
        if self.running is not None and self.remaining_ms(self.running, now) <= 0:
            return self.running
        return None

    def deadline(self) -> float | None:
        """When the running clock reaches zero (wall-clock seconds), or None."""
        if self.running is None:
            return None
        return self.since + self.stored_ms(self.running) / 1000

    def _with_time(self, color: Color, ms: int) -> ClockState:
        if color == WHITE:
            return replace(self, white_ms=ms)
        return replace(self, black_ms=ms)

    def stopped(self, now: float) -> ClockState:
        """Charge the running side its time so far and stop every clock."""
        if self.running is None:
            return self
        charged = self._with_time(self.running, self.remaining_ms(self.running, now))
        return replace(charged, running=None, since=0.0)

    def after_move(
        self, mover: Color, now: float, increment_ms: int, plies_after: int
    ) -> ClockState:
        """The clocks after `mover` moved at `now`; `plies_after` counts the moves made so far."""
        was_running = self.running == mover
        clock = self.stopped(now)
        if was_running:
            clock = clock._with_time(mover, clock.stored_ms(mover) + increment_ms)
        return clock.restarted(1 - mover, now, plies_after)

    def restarted(self, to_move: Color, now: float, plies: int) -> ClockState:
        """Run the clock of `to_move` from `now` once the clocks have started."""
        clock = self.stopped(now)
        if plies < CLOCK_START_PLY:
            return clock
        return replace(clock, running=to_move, since=now)

    def to_data(self) -> dict[str, Any]:
        return {
            "white_ms": self.white_ms,
            "black_ms": self.black_ms,
            "running": self.running,
            "since": self.since,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> ClockState:
        return cls(int(data["white_ms"]), int(data["black_ms"]), data["running"], data["since"])


def control_name(clock: ClockSettings | None) -> str | None:
    """ "5+3" (minutes + increment seconds), or None without a clock."""
    if clock is None:
        return None
    return f"{clock.initial_ms / 60_000:g}+{clock.increment_ms / 1000:g}"
