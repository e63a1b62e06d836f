"""A drill's difficulty in three levels, from things that can be counted.

A drill is harder the more pieces stand on the board (more to look at), the bigger its answer
(more to find: hanging pieces, checks, attackers) and the farther the pieces it is about stand
from their targets (a bishop attacking from the far corner is missed more often than a pawn
next door). `Measures` holds the three; `score` weighs them, and `level_of` cuts the score into
levels 1, 2 and 3 at thresholds chosen so that the shipped position set spreads over all three
(bench/train.py prints the spread).
"""

from __future__ import annotations

from dataclasses import dataclass

LEVELS = (1, 2, 3)
# Scores below the first threshold are level 1, below the second level 2, the rest level 3.
THRESHOLDS = (4.5, 7.0)
# Past this many squares or moves an answer is not felt to be harder still.
MAX_SIZE = 6


@dataclass(frozen=True, slots=True)
class Measures:
    """Pieces on the board, size of the answer, farthest attacker-to-target distance (in king
    steps, 0 to 7)."""

    pieces: int
    size: int
    distance: int


def distance(a: int, b: int) -> int:
    """King steps between two 0x88 squares."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 4) - (b >> 4)))


def score(measures: Measures) -> float:
    """Pieces count a quarter each up to 32 (8 points), the answer's size one point per item,
    the distance half a point per step."""
    return measures.pieces / 4 + min(measures.size, MAX_SIZE) + measures.distance / 2


def level_of(measures: Measures) -> int:
    """The level (1 easiest, 3 hardest) of a drill with these measures."""
    value = score(measures)
    return 1 if value < THRESHOLDS[0] else 2 if value < THRESHOLDS[1] else 3
