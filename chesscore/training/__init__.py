"""The threat trainer's core (issue 28): drills that ask for the threat picture of a position.

A drill is a position, a question about it and its exact answer, all computed by chesscore's
threat analysis (chesscore.analysis) and the rules: `facts` gathers what a position's drills
read (threat map, pin lines, exchange labels, legal moves, what each move attacks), `drills`
makes a drill of each kind from them, said through a `Translator` (chesscore.words),
`difficulty` grades it into three levels from measurable things and `judging` compares an
answer with the truth and says why in words. Pure and typed:
the server (server.training) chooses positions, keeps the answers and names squares on the wire.
"""

from chesscore.training.drills import KINDS, Drill, make_drill
from chesscore.training.facts import PositionFacts
from chesscore.training.judging import Verdict, judge
from chesscore.words import ENGLISH, Translator

__all__ = [
    "ENGLISH",
    "KINDS",
    "Drill",
    "PositionFacts",
    "Translator",
    "Verdict",
    "judge",
    "make_drill",
]
