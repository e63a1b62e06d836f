"""A drill's difficulty in three levels, from things that can be counted.

A drill is harder the more pieces stand on the board (more to look at), the bigger its answer
(more to find: hanging pieces, checks, attackers) and the farther the pieces it is about stand
from their targets (a bishop attacking from the far corner is missed more often than a pawn
next door). `Measures` holds the three; `score` weighs them, and `level_of` cuts the score into
levels 1, 2 and 3 at thresholds per kind (answers differ in size from kind to kind: a position
has more captures than pins), set at the thirds of the scores of 300 positions of the shipped
set (server/training/data), so each level holds about a third of them; bench/train.py prints
the spread. For the kinds that ask to find every one of something (hanging pieces, pins,
checks, captures, threats, forks) the thirds are of the drills that have something to find:
counted with the others, the many positions with no pin or no fork would fill level 1 and
leave none of the pins there. A drill with nothing to find scores its pieces alone, at most 4
points, and is level 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from chesscore.rules.squares import file_of, rank_of

LEVELS = (1, 2, 3)
# Per kind: scores up to the first threshold are level 1, up to the second level 2, the rest 3.
THRESHOLDS = {
    "hanging": (5.375, 6.5), "checks": (6.125, 7.0), "captures": (6.625, 8.0),
    "threats": (5.75, 7.5), "count": (6.75, 8.0), "safe": (5.25, 8.0), "pins": (5.875, 6.75),
    "fork": (5.0, 6.0), "blunder": (3.75, 4.5),
}  # fmt: skip
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
    return max(abs(file_of(a) - file_of(b)), abs(rank_of(a) - rank_of(b)))


def score(measures: Measures) -> float:
    """Pieces count an eighth each (4 points for 32), the answer's size one point per item,
    the distance half a point per step."""
    return measures.pieces / 8 + min(measures.size, MAX_SIZE) + measures.distance / 2


def level_of(kind: str, measures: Measures) -> int:
    """The level (1 easiest, 3 hardest) of a drill of `kind` with these measures."""
    value = score(measures)
    first, second = THRESHOLDS[kind]
    return 1 if value <= first else 2 if value <= second else 3
