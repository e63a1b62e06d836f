"""An independent Glicko-2 for the tests: the formulas of Glickman's paper
(http://www.glicko.net/glicko/glicko2.pdf) written again from the paper, without importing
chesscore.ratings, so a test compares two readings of the paper rather than a function with
itself. It finds the new volatility by plain bisection on the paper's f(x) (a different root
finder from the Illinois method chesscore uses; f is decreasing, so its one root is found), and
applies lichess's published choices for one game (tau 0.75, no step-6 period for the game, the
deviation grown by 0.21436 periods a day since the last game, bounds 45..500, volatility at
most 0.1, rating at least 400) as the numbers docs/ratings.md names.
"""

from __future__ import annotations

import math

K = 173.7178


def paper_update(
    r: float,
    rd: float,
    vol: float,
    games: list[tuple[float, float, float]],
    tau: float,
    periods: float = 1.0,
) -> tuple[float, float, float]:
    """(r', RD', sigma') after a period of games given as (opponent r, opponent RD, score)."""
    mu, phi = (r - 1500) / K, rd / K
    gs = [1 / math.sqrt(1 + 3 * (d / K) ** 2 / math.pi**2) for _, d, _ in games]
    mus = [(o - 1500) / K for o, _, _ in games]
    es = [1 / (1 + math.exp(-gj * (mu - mu_j))) for gj, mu_j in zip(gs, mus, strict=True)]
    v = 1 / sum(gj**2 * e * (1 - e) for gj, e in zip(gs, es, strict=True))
    total = sum(gj * (s - e) for gj, e, (_, _, s) in zip(gs, es, games, strict=True))
    delta = v * total
    a = math.log(vol**2)

    def f(x: float) -> float:
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / tau**2
        )

    low, high = a - 40.0, a + 40.0  # f(low) > 0 > f(high) for any real player
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    new_vol = math.exp((low + high) / 4)
    pre = math.sqrt(phi**2 + periods * new_vol**2)
    new_phi = 1 / math.sqrt(1 / pre**2 + 1 / v)
    new_mu = mu + new_phi**2 * total
    return new_mu * K + 1500, new_phi * K, new_vol


def lichess_game(
    player: tuple[float, float, float, float | None],
    opponent: tuple[float, float, float, float | None],
    score: float,
    now: float,
) -> tuple[float, float, float]:
    """One rated game as lichess rates it; a side is (r, RD, sigma, last game time or None)."""

    def live(side: tuple[float, float, float, float | None]) -> float:
        _, rd, vol, last = side
        if last is None:
            return rd
        periods = (now - last) / 86400 * 0.21436
        return min(500.0, K * math.sqrt((rd / K) ** 2 + periods * vol**2))

    r, _, vol, _ = player
    o = opponent
    new_r, new_rd, new_vol = paper_update(r, live(player), vol, [(o[0], live(o), score)], 0.75, 0)
    new_r = r + max(-700.0, min(700.0, new_r - r))
    return max(400.0, new_r), max(45.0, min(500.0, new_rd)), min(0.1, new_vol)
