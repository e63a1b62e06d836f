"""Rating one game at a time as lichess does, on top of the paper's Glicko-2 (`glicko2`).

The paper rates a period of many games; a site that shows the change at the end of each game
makes every game its own period. lichess does that, and lets the deviation grow with the time
since the player's last game in that speed instead of once per period: the deviation read
before a game is step 6 applied for (days since the last game x RATING_PERIODS_PER_DAY)
periods, and the game itself adds no period (`update(..., periods=0)`). The result is then
kept inside lichess's bounds. Every constant is written down with its reason in
docs/ratings.md. Times are wall-clock seconds (as `time.time()` gives).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from chesscore.ratings.glicko2 import SCALE, Glicko, Result, update

INITIAL_RATING = 1500.0
MAX_DEVIATION = 500.0  # also the initial deviation: nothing is known of a new player
MIN_DEVIATION = 45.0  # a rating never becomes certain enough to stop moving
INITIAL_VOLATILITY = 0.09
MAX_VOLATILITY = 0.1  # lichess: past this it might never stabilise again
TAU = 0.75
PROVISIONAL_DEVIATION = 110.0  # a rating is shown with "?" while its deviation is this or more
MIN_RATING = 400.0
MAX_RATING_CHANGE = 700.0  # the most one game can move a rating
# Chosen by lichess so a typical deviation grows from 60 to 110 in a year without games.
RATING_PERIODS_PER_DAY = 0.21436
SECONDS_PER_DAY = 86_400.0

DEFAULT = Glicko(INITIAL_RATING, MAX_DEVIATION, INITIAL_VOLATILITY)


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one speed: the Glicko values, rated games so far, and when the
    last of them ended (None: never)."""

    glicko: Glicko = DEFAULT
    games: int = 0
    last_game: float | None = None

    @property
    def shown(self) -> int:
        """The rating as shown: its whole part, as lichess shows it."""
        return int(self.glicko.rating)


@dataclass(frozen=True)
class RatingChange:
    """One side's rating before and after a rated game, and the change as shown (+8 / -8)."""

    before: PlayerRating
    after: PlayerRating

    @property
    def diff(self) -> int:
        return self.after.shown - self.before.shown


def is_provisional(deviation: float) -> bool:
    return deviation >= PROVISIONAL_DEVIATION


def live_deviation(player: PlayerRating, now: float) -> float:
    """The deviation at `now`: step 6 for the rating periods since the player's last game."""
    if player.last_game is None:
        return player.glicko.deviation
    days = max(now - player.last_game, 0.0) / SECONDS_PER_DAY
    phi = player.glicko.phi
    grown = math.sqrt(phi * phi + days * RATING_PERIODS_PER_DAY * player.glicko.volatility**2)
    return min(grown * SCALE, MAX_DEVIATION)


def as_of(player: PlayerRating, now: float) -> Glicko:
    """The player's Glicko values as they stand at `now` (the deviation grown for the time)."""
    return replace(player.glicko, deviation=live_deviation(player, now))


def rate_game(
    white: PlayerRating, black: PlayerRating, white_score: float, now: float
) -> tuple[RatingChange, RatingChange]:
    """Both sides' changes after one rated game that ended at `now` with white scoring
    `white_score` (1, 0.5 or 0). Each side is rated against the other as they stood before."""
    white_now, black_now = as_of(white, now), as_of(black, now)
    white_after = _rated(white_now, Result(black_now, white_score))
    black_after = _rated(black_now, Result(white_now, 1 - white_score))
    return (
        RatingChange(white, PlayerRating(white_after, white.games + 1, now)),
        RatingChange(black, PlayerRating(black_after, black.games + 1, now)),
    )


def _rated(player: Glicko, result: Result) -> Glicko:
    after = update(player, [result], TAU, periods=0)
    return bounded(after, player.rating)


def bounded(rating: Glicko, before: float) -> Glicko:
    """The rating kept inside lichess's bounds (floor, change per game, deviation, volatility)."""
    change = max(-MAX_RATING_CHANGE, min(MAX_RATING_CHANGE, rating.rating - before))
    return Glicko(
        max(MIN_RATING, before + change),
        max(MIN_DEVIATION, min(MAX_DEVIATION, rating.deviation)),
        min(MAX_VOLATILITY, rating.volatility),
    )
