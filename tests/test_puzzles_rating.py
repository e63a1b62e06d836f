"""Puzzle ratings (chesscore.puzzles.rating): the first rating estimated from a puzzle's
difficulty, and an attempt rated as a Glicko-2 game between the solver and the puzzle, checked
against an example worked by hand from Glickman's paper and against the tests' own reading of
the paper (tests/support/glicko_oracle.py)."""

from __future__ import annotations

import math

import pytest

from chesscore.puzzles.rating import (
    INITIAL_DEVIATION,
    Difficulty,
    estimate_rating,
    measure_difficulty,
    new_puzzle_rating,
    rate_attempt,
)
from chesscore.ratings.glicko2 import SCALE, Glicko
from chesscore.ratings.rated import PlayerRating
from tests.support.glicko_oracle import lichess_game

# lichess's puzzle 0000D (CC0): Qd6?? Rd8 wins the queen for a rook.
FEN = "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27"
LINE = ["d3d6", "f8d8", "d6d8", "f6d8"]


def test_the_difficulty_facts_of_a_line() -> None:
    facts = measure_difficulty(FEN, LINE, found_quickly=True)
    assert facts == Difficulty(
        solver_moves=2, first_move="quiet", found_quickly=True, legal_moves=33, mate=False, gain=4
    )


@pytest.mark.parametrize(
    ("facts", "rating"),
    [
        # 1300 - 100 (a capture) - 100 (a mate): the easiest kind.
        (Difficulty(1, "capture", True, 30, True, 0), 1100),
        # 1300 + 250 (a second move) + 200 (quiet) + 250 (deep) + 50 (10 more moves to weigh)
        # - 75 (3 pawns won beyond 2).
        (Difficulty(2, "quiet", False, 40, False, 5), 1975),
        # A long deep quiet line with many options reaches the top and is held there.
        (Difficulty(6, "quiet", False, 80, False, 2), 2800),
        (Difficulty(1, "capture", True, 2, True, 9), 850),
    ],
)
def test_the_first_rating_adds_up_what_makes_a_tactic_hard(facts: Difficulty, rating: int) -> None:
    assert estimate_rating(facts) == rating


def test_a_solve_is_a_game_the_solver_won_against_the_puzzle() -> None:
    """Worked by hand (paper's steps; one game, no period of growth, tau 0.75): solver
    1500/200/0.06, new puzzle 1700/500/0.09, solved. On the Glicko-2 scale mu = 0,
    phi = 200/173.7178 = 1.15129; the puzzle mu_j = 1.15129, phi_j = 2.87823.
    g(phi_j) = 1/sqrt(1 + 3 phi_j^2/pi^2) = 0.53315; E = 1/(1 + exp(-g (mu - mu_j))) = 0.35119;
    v = 1/(g^2 E (1-E)) = 15.4400; the volatility barely moves (0.06000);
    phi' = 1/sqrt(1/phi^2 + 1/v) = 1.10485 -> RD' = 191.93;
    mu' = mu + phi'^2 g (1 - E) = 0.42226 -> r' = 1573.35."""
    solver = PlayerRating(Glicko(1500, 200, 0.06))
    puzzle = new_puzzle_rating(1700)
    assert puzzle.glicko.deviation == INITIAL_DEVIATION == 500
    mine, its = rate_attempt(solver, puzzle, solved=True, now=1_000.0)
    assert mine.after.glicko.rating == pytest.approx(1573.35, abs=0.01)
    assert mine.after.glicko.deviation == pytest.approx(191.93, abs=0.01)
    assert mine.after.glicko.volatility == pytest.approx(0.06, abs=1e-5)
    assert (mine.after.games, its.after.games) == (1, 1)
    # The puzzle lost that game: its rating falls, far, as its deviation is the most there is.
    assert its.after.glicko.rating < 1700 - 300
    g = 1 / math.sqrt(1 + 3 * (500 / SCALE) ** 2 / math.pi**2)
    assert g == pytest.approx(0.53315, abs=1e-5)


@pytest.mark.parametrize("solved", [True, False])
def test_both_sides_move_as_the_papers_oracle_says(solved: bool) -> None:
    solver = PlayerRating(Glicko(1620, 80, 0.06), games=40, last_game=0.0)
    puzzle = PlayerRating(Glicko(1480, 120, 0.09), games=12, last_game=3 * 86_400.0)
    now = 10 * 86_400.0
    mine, its = rate_attempt(solver, puzzle, solved, now)
    score = 1.0 if solved else 0.0
    expected_mine = lichess_game((1620, 80, 0.06, 0.0), (1480, 120, 0.09, 3 * 86_400.0), score, now)
    expected_its = lichess_game(
        (1480, 120, 0.09, 3 * 86_400.0), (1620, 80, 0.06, 0.0), 1 - score, now
    )
    for change, expected in ((mine, expected_mine), (its, expected_its)):
        glicko = change.after.glicko
        assert (glicko.rating, glicko.deviation, glicko.volatility) == pytest.approx(expected)
    assert (mine.diff > 0) == solved and (its.diff < 0) == solved
