"""Glicko-2 as Mark Glickman states it in "Example of the Glicko-2 system"
(http://www.glicko.net/glicko/glicko2.pdf): one player's rating, deviation and volatility after
a rating period of games against opponents whose ratings are taken as they stood before it.

Ratings are kept on the Glicko scale (1500 centred, deviations in rating points); the steps
work on the Glicko-2 scale (mu, phi), converted with the paper's factor 173.7178. The step
numbers in the comments are the paper's. `update` is the whole algorithm; the choices of a site
(initial values, bounds, how time between games counts) belong to `chesscore.ratings.rated`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The paper's scale factor between the Glicko scale and the Glicko-2 scale (step 2).
SCALE = 173.7178
CENTRE = 1500.0
# Step 5.1: the volatility iteration stops when the bracket is narrower than this.
CONVERGENCE_TOLERANCE = 1e-6
# A bound on the iterations: the Illinois method converges in a few dozen on any real input;
# reaching this means an input no player can have (NaN, an infinite deviation).
MAX_ITERATIONS = 1000


class RatingError(ValueError):
    """A rating input the formulas cannot take (the message quotes it)."""


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: rating r, deviation RD, volatility sigma."""

    rating: float
    deviation: float
    volatility: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and math.isfinite(self.deviation)):
            raise RatingError(f"rating and deviation must be finite numbers, not {self}")
        if self.deviation <= 0 or not 0 < self.volatility < 1:
            raise RatingError(f"deviation must be > 0 and volatility in (0, 1), not {self}")

    @property
    def mu(self) -> float:
        return (self.rating - CENTRE) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent as rated before it, and the score (1, 0.5, 0)."""

    opponent: Glicko
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise RatingError(f"a score is 1, 0.5 or 0, not {self.score!r}")


def g(phi: float) -> float:
    """Step 3: how much an opponent's uncertainty damps the game's weight."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    """Step 3: E(mu, mu_j, phi_j), the expected score against that opponent."""
    return 1 / (1 + math.exp(-g(opponent_phi) * (mu - opponent_mu)))


def update(player: Glicko, results: Sequence[Result], tau: float, periods: float = 1.0) -> Glicko:
    """The player's rating after one rating period with `results` (steps 2 to 8).

    `periods` is how many rating periods step 6 lets the deviation grow by: 1 as the paper
    rates a period; 0 when the growth for time was applied before (lichess's one-game periods).
    A period without games only grows the deviation, as the paper says.
    """
    if not results:
        return grown(player, periods)
    mu, phi = player.mu, player.phi
    expectations = [
        (g(r.opponent.phi), expected_score(mu, r.opponent.mu, r.opponent.phi), r.score)
        for r in results
    ]
    variance = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in expectations)  # step 3: v
    improvement = sum(gj * (s - e) for gj, e, s in expectations)  # step 4: delta / v
    delta = variance * improvement
    sigma = new_volatility(phi, player.volatility, variance, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + periods * sigma * sigma)  # step 6
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / variance)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(new_mu * SCALE + CENTRE, new_phi * SCALE, sigma)  # step 8


def grown(player: Glicko, periods: float) -> Glicko:
    """Step 6 alone: the deviation after `periods` rating periods without a game."""
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Glicko(player.rating, phi * SCALE, player.volatility)


def new_volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5: sigma' by the Illinois variant of regula falsi on f(x), as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + variance + ex
        return ex * (delta * delta - spread) / (2 * spread * spread) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + variance:
        high = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= CONVERGENCE_TOLERANCE:
            return math.exp(low / 2)
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = new, f_new
    raise RatingError(f"the volatility did not converge (phi {phi}, sigma {sigma}, v {variance})")
