"""Glicko-2 and the rated game (chesscore.ratings): Glickman's worked example, every game of
seeded random series against an independent reading of the paper (tests/support/glicko_oracle),
the bounds lichess keeps, the deviation grown by time, and the speeds from time controls."""

from __future__ import annotations

import random

import pytest

from chesscore.ratings import (
    PlayerRating,
    Speed,
    is_provisional,
    live_deviation,
    rate_game,
    speed_of,
    update,
)
from chesscore.ratings.glicko2 import Glicko, RatingError, Result
from tests.support.glicko_oracle import lichess_game, paper_update

DAY = 86_400.0


def test_glickmans_worked_example() -> None:
    """The paper's example (tau 0.5): 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    1700/300. The paper prints 1464.06 and 151.52 from rounded intermediate values; unrounded
    the rating is 1464.0507 (the paper's own note), so the tolerance is the paper's rounding."""
    opponents = [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)]
    results = [Result(Glicko(r, rd, 0.06), s) for r, rd, s in opponents]
    after = update(Glicko(1500, 200, 0.06), results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_example_matches_the_independent_reading() -> None:
    games = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]
    expected = paper_update(1500, 200, 0.06, games, 0.5)
    results = [Result(Glicko(r, rd, 0.06), s) for r, rd, s in games]
    after = update(Glicko(1500, 200, 0.06), results, tau=0.5)
    assert (after.rating, after.deviation, after.volatility) == pytest.approx(expected, rel=1e-7)


@pytest.mark.parametrize("seed", range(6))
def test_every_game_of_a_random_series_matches_the_formula(seed: int) -> None:
    """Two players play 60 rated games at random intervals with random results: after every
    game both sides equal the independent reading of the paper with lichess's choices."""
    rng = random.Random(seed)
    white, black = PlayerRating(), PlayerRating()
    now = 1.7e9
    for _ in range(60):
        now += rng.choice([60.0, 3600.0, DAY, 30 * DAY, 400 * DAY])
        score = rng.choice([1.0, 0.5, 0.0])
        w_side = (*_values(white), white.last_game)
        b_side = (*_values(black), black.last_game)
        expected_white = lichess_game(w_side, b_side, score, now)
        expected_black = lichess_game(b_side, w_side, 1 - score, now)
        change_white, change_black = rate_game(white, black, score, now)
        white, black = change_white.after, change_black.after
        assert _values(white) == pytest.approx(expected_white, rel=1e-7)
        assert _values(black) == pytest.approx(expected_black, rel=1e-7)
        assert white.last_game == black.last_game == now
    assert white.games == black.games == 60


def _values(player: PlayerRating) -> tuple[float, float, float]:
    return player.glicko.rating, player.glicko.deviation, player.glicko.volatility


def test_a_first_game_between_new_players_moves_both_equally_and_oppositely() -> None:
    win, loss = rate_game(PlayerRating(), PlayerRating(), 1.0, 1.7e9)
    gain = win.after.glicko.rating - 1500
    assert gain > 0
    assert loss.after.glicko.rating - 1500 == pytest.approx(-gain)
    assert win.after.glicko.deviation < 500
    draw_white, draw_black = rate_game(PlayerRating(), PlayerRating(), 0.5, 1.7e9)
    assert draw_white.after.glicko.rating == pytest.approx(1500)
    assert draw_white.diff == draw_black.diff == 0


def test_the_shown_change_is_the_change_of_the_shown_rating() -> None:
    before = PlayerRating(Glicko(1600.9, 60, 0.06), 100, 1.7e9)
    opponent = PlayerRating(Glicko(1500, 60, 0.06), 100, 1.7e9)
    change, _ = rate_game(before, opponent, 1.0, 1.7e9 + 60)
    assert change.diff == int(change.after.glicko.rating) - 1600
    assert 0 < change.diff < 10


def test_the_deviation_grows_with_time_and_stops_at_500() -> None:
    player = PlayerRating(Glicko(1800, 60, 0.06), 500, 0.0)
    assert live_deviation(player, 0.0) == pytest.approx(60)
    year = live_deviation(player, 365 * DAY)
    assert 60 < year < 125  # lichess: a typical 60 grows to about 110 in a year
    assert live_deviation(player, 1e5 * 365 * DAY) == 500
    assert live_deviation(PlayerRating(), 1e12) == 500  # never played: as stored


def test_the_bounds_hold_after_any_game() -> None:
    settled = PlayerRating(Glicko(2400, 45, 0.06), 3000, 1.7e9)
    change, _ = rate_game(settled, settled, 1.0, 1.7e9)
    assert change.after.glicko.deviation == 45  # never more certain than 45
    floor = PlayerRating(Glicko(400, 300, 0.09), 3, 1.7e9)
    strong = PlayerRating(Glicko(2800, 45, 0.06), 3000, 1.7e9)
    _, lost = rate_game(strong, floor, 1.0, 1.7e9)
    assert lost.after.glicko.rating == 400  # never below 400
    wild = PlayerRating(Glicko(1500, 500, 0.1), 1, 1.7e9)
    upset, _ = rate_game(wild, strong, 1.0, 1.7e9)
    assert upset.after.glicko.volatility <= 0.1


@pytest.mark.parametrize(
    ("deviation", "provisional"), [(500, True), (110.0, True), (109.99, False), (45, False)]
)
def test_provisional_while_the_deviation_is_110_or_more(
    deviation: float, provisional: bool
) -> None:
    assert is_provisional(deviation) is provisional


# (initial ms, increment ms, speed): lichess's cuts at 30 s, 3, 8 and 25 min of base + 40 x inc.
SPEEDS = [
    (15_000, 0, Speed.ULTRABULLET),
    (0, 0, Speed.ULTRABULLET),
    (30_000, 0, Speed.BULLET),
    (60_000, 0, Speed.BULLET),  # 1+0
    (120_000, 1_000, Speed.BULLET),  # 2+1: 160 s
    (180_000, 0, Speed.BLITZ),
    (180_000, 2_000, Speed.BLITZ),  # 3+2: 260 s
    (300_000, 3_000, Speed.BLITZ),  # 5+3: 420 s
    (480_000, 0, Speed.RAPID),
    (600_000, 5_000, Speed.RAPID),  # 10+5: 800 s
    (900_000, 10_000, Speed.RAPID),  # 15+10: 1300 s
    (1_500_000, 0, Speed.CLASSICAL),
    (1_800_000, 20_000, Speed.CLASSICAL),  # 30+20: 2600 s
    (None, 0, Speed.CORRESPONDENCE),
]


@pytest.mark.parametrize(("initial", "increment", "speed"), SPEEDS)
def test_the_speed_of_a_time_control(initial: int | None, increment: int, speed: Speed) -> None:
    assert speed_of(initial, increment) is speed


def test_bad_input_is_refused_with_the_input_named() -> None:
    with pytest.raises(ValueError, match="-1000"):
        speed_of(60_000, -1000)
    with pytest.raises(RatingError, match=r"0\.75"):
        Result(Glicko(1500, 100, 0.06), 0.75)
    with pytest.raises(RatingError, match="deviation=0"):
        Glicko(1500, 0, 0.06)
    with pytest.raises(RatingError, match="nan"):
        Glicko(float("nan"), 100, 0.06)
