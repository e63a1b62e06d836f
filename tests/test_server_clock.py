"""Clock arithmetic: time charged to the side to move, increments, the start rule, the flag."""

from __future__ import annotations

import pytest

from server.games.clock import ClockSettings, ClockState

WHITE, BLACK = 0, 1
FIVE_PLUS_TWO = ClockSettings(initial_ms=300_000, increment_ms=2_000)


def test_clocks_start_only_after_both_sides_moved() -> None:
    clock = ClockState.start(FIVE_PLUS_TWO)
    after_white = clock.after_move(WHITE, now=100.0, increment_ms=2_000, plies_after=1)
    assert after_white.running is None
    after_black = after_white.after_move(BLACK, now=130.0, increment_ms=2_000, plies_after=2)
    assert after_black.running == WHITE and after_black.since == 130.0
    # Neither first move cost time nor earned an increment.
    assert (after_black.white_ms, after_black.black_ms) == (300_000, 300_000)


def test_the_mover_is_charged_and_gets_the_increment() -> None:
    clock = ClockState(300_000, 300_000, running=WHITE, since=1000.0)
    moved = clock.after_move(WHITE, now=1012.5, increment_ms=2_000, plies_after=3)
    assert moved.white_ms == 300_000 - 12_500 + 2_000
    assert moved.black_ms == 300_000
    assert moved.running == BLACK and moved.since == 1012.5


@pytest.mark.parametrize(
    ("now", "white_left", "flagged"),
    [(1000.0, 3_000, None), (1002.0, 1_000, None), (1003.0, 0, WHITE), (1500.0, 0, WHITE)],
)
def test_remaining_time_and_the_flag(now: float, white_left: int, flagged: int | None) -> None:
    clock = ClockState(3_000, 9_000, running=WHITE, since=1000.0)
    assert clock.remaining_ms(WHITE, now) == white_left
    assert clock.remaining_ms(BLACK, now) == 9_000
    assert clock.flagged(now) == flagged
    assert clock.deadline() == 1003.0


def test_a_stopped_clock_keeps_the_time_left_and_never_flags() -> None:
    stopped = ClockState(3_000, 9_000, running=WHITE, since=1000.0).stopped(1001.25)
    assert (stopped.white_ms, stopped.running) == (1_750, None)
    assert stopped.flagged(99_999.0) is None and stopped.deadline() is None


def test_round_trip_through_plain_data() -> None:
    clock = ClockState(1, 2, running=BLACK, since=3.5)
    assert ClockState.from_data(clock.to_data()) == clock
    assert ClockSettings.from_data(FIVE_PLUS_TWO.to_data()) == FIVE_PLUS_TWO
