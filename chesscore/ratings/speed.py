"""The speed a game is rated in, from its time control, as lichess sorts them.

lichess estimates a game's duration as the initial time plus 40 increments (a game of about 40
moves each) and cuts it at 30 s, 3 min, 8 min and 25 min: under 30 s ultrabullet, under
3 min bullet, under 8 min blitz, under 25 min rapid, the rest classical. A game without a
clock between two players is correspondence. Each speed has its own rating. No control the
lobby offers is ultrabullet (the fastest, 1+0, is 60 s: bullet), so no game is rated in it
today; it is kept so a shorter control added later is sorted as lichess sorts it.
"""

from __future__ import annotations

from enum import Enum

# A game lasts about this many moves a side, each adding the increment (lichess's estimate).
ESTIMATED_MOVES = 40


class Speed(Enum):
    """The rating pools, named as on the wire and in the store."""

    ULTRABULLET = "ultraBullet"
    BULLET = "bullet"
    BLITZ = "blitz"
    RAPID = "rapid"
    CLASSICAL = "classical"
    CORRESPONDENCE = "correspondence"


# Upper bounds (exclusive) of the estimated duration in seconds, fastest first.
LIMITS: tuple[tuple[float, Speed], ...] = (
    (30, Speed.ULTRABULLET),
    (180, Speed.BULLET),
    (480, Speed.BLITZ),
    (1500, Speed.RAPID),
)


def estimated_seconds(initial_ms: int, increment_ms: int) -> float:
    return (initial_ms + ESTIMATED_MOVES * increment_ms) / 1000


def speed_of(initial_ms: int | None, increment_ms: int = 0) -> Speed:
    """The speed of a game with that clock (`initial_ms` None: no clock, correspondence)."""
    if initial_ms is None:
        return Speed.CORRESPONDENCE
    if initial_ms < 0 or increment_ms < 0:
        raise ValueError(f"a time control is never negative, not {initial_ms}+{increment_ms} ms")
    duration = estimated_seconds(initial_ms, increment_ms)
    for limit, speed in LIMITS:
        if duration < limit:
            return speed
    return Speed.CLASSICAL
