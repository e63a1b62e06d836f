"""The end of a rated game: both players' ratings updated once, and the change shown to both.

A rated game (`GameSettings.rated`, made by the lobby between two accounts) that finishes with
a result is rated in the speed of its time control (chesscore.ratings): a win scores 1, a draw
0.5, whatever ended it (checkmate, resignation, agreement, a flag, a flag against a side that
cannot mate, which is a draw), as lichess counts it. A game that ends without a result (aborted
before both sides moved, or abandoned without a running clock), or with one before both sides
moved (`MIN_RATED_PLIES`), changes nothing. The store rates
the game once however many processes see its end (server.ratings.tables: `RatingTables.rate_game`,
given the arithmetic of chesscore.ratings by `rate_ended`); the service then
commits a "rated" change that puts the new ratings and the changes in the game's header, so
both players (and anyone watching) see them in the game's state. Times are wall-clock seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from chesscore import BLACK, WHITE, Color, Outcome
from chesscore.ratings import (
    PlayerRating,
    RatingChange,
    Speed,
    is_provisional,
    live_deviation,
    rate_game,
    speed_of,
)
from server.games.clock import ClockSettings
from server.games.play import Change, Event, Game, ShownRating, color_name
from server.games.stored import shown_to_data
from server.ratings.tables import Rate, RatedSide, RatingTables

# A game ended before both sides moved is not rated whatever ended it, as lichess counts only
# games of at least two plies (its `playedTurns >= 2`; fewer can be aborted).
MIN_RATED_PLIES = 2


def game_speed_of(clock: ClockSettings | None) -> Speed:
    """The speed a game with that clock is rated in (no clock: correspondence)."""
    return speed_of(None) if clock is None else speed_of(clock.initial_ms, clock.increment_ms)


def white_score(outcome: Outcome) -> float:
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == WHITE else 0.0


def glicko_rate(white_score: float, now: float) -> Rate:
    """The arithmetic of a game that ended at `now` with white scoring `white_score`: both
    sides' changes from their ratings before it (chesscore.ratings, Glicko-2)."""

    def rate(white: PlayerRating, black: PlayerRating) -> tuple[RatingChange, RatingChange]:
        return rate_game(white, black, white_score, now)

    return rate


def shown_rating(player: PlayerRating, now: float) -> ShownRating:
    """The rating as a player is shown at `now` ("?" by the deviation grown since the last
    game, as lichess shows it)."""
    return ShownRating(player.shown, is_provisional(live_deviation(player, now)))


def current_ratings(
    ratings: RatingTables, accounts: Mapping[Color, int], clock: ClockSettings | None, now: float
) -> tuple[ShownRating | None, ShownRating | None]:
    """The ratings of the seats' accounts (by colour; None: no account) in the speed of that
    clock, as a new game between them shows them (a rematch)."""
    speed = game_speed_of(clock)

    def shown(color: Color) -> ShownRating | None:
        account = accounts.get(color)
        if account is None:
            return None
        return shown_rating(ratings.ratings_of(account).get(speed, PlayerRating()), now)

    return shown(WHITE), shown(BLACK)


def rate_ended(ratings: RatingTables, game: Game, now: float) -> Change | None:
    """Rate `game` if it is a rated game that just finished with a result: the change that
    shows the new ratings, or None (nothing to rate, or a seat without an account)."""
    outcome = game.header.outcome
    if not game.settings.rated or outcome is None or game.header.rated is not None:
        return None
    if game.ply < MIN_RATED_PLIES:
        return None  # a resignation or a flag before both sides moved: as if aborted
    speed = game_speed_of(game.settings.clock)
    sides = ratings.rate_game(game.id, speed, glicko_rate(white_score(outcome), now), now)
    if len(sides) != 2:
        return None
    white, black = (_shown(side) for side in sides)
    shown = {color_name(side.color): shown_to_data(_shown(side)) for side in sides}
    event = Event(type="rated", ratings=shown)
    header = replace(game.header, rated=(white, black))
    return Change(event, header)


def _shown(side: RatedSide) -> ShownRating:
    return ShownRating(int(side.rating), is_provisional(side.deviation), side.diff)
