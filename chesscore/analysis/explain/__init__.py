"""Why a move was bad, in one or two sentences built from the threat analysis' facts.

`explain_move(board, played, judgement, ...)` says what went wrong with the legal move `played`
in `board`, what it loses and to which move, and what was better, as a coach would: "Qxe5??
loses the queen: it takes the pawn on e5, but Nxe5 takes the queen back. Better was Qd2
(+0.4)." Nothing here searches: the engine's findings come in as plain inputs, the best line
from `board` and its evaluation, and the opponent's best line after `played` and the
evaluation after it (both from White's view, chesscore.analysis.judgement). Each sentence is
checked against the board with chesscore's own facts, never assumed from the line.

The first sentence names the first of these that the position shows, one module per family:

- the game's end (`mating`): *stalemate*, *mate allowed* (told as a *back-rank mate* when the
  line ends in one);
- material lost on the spot (`material`): *losing capture*, *hanging* (and *defender moved
  away*), *trapped piece*;
- tactics (`tactics`, `defenders`): *fork allowed*, *discovered attack allowed*, *pin walked
  into*, *defender removed*, *overloaded defender*;
- pawns (`pawns`): *promotion allowed*, *passed pawn let through*;
- the line (`lines`): *material line*, the opponent's line winning material for good, told by
  its first moves; and when no material falls and no mate is near, *positional*, what the
  evaluation did;

and, when none holds, the move's class ("Kf1? is a mistake."). The second sentence (`better`)
names the best move and what it did.

The result is a value (`facts`): the text, its kinds, the squares of the pieces it names, its
arrows (a move it names, an attack, a defence, a pin line; the move played is not among them,
the board shows it as the last move), and every fact it states as data, so that a test can
check each against another chess library. Squares are 0x88 ints, positions FEN strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.better import better_sentence
from chesscore.analysis.explain.defenders import defender_removed, overloaded
from chesscore.analysis.explain.facts import (
    Arrow,
    AttackFact,
    DefendersFact,
    Explanation,
    Facts,
    Kind,
    LineFact,
    MaterialFact,
    NoAttackerFact,
    OwnPiecesFact,
    PassedPawnFact,
    PieceFact,
    PinFact,
    Role,
    TrappedFact,
    make_explanation,
)
from chesscore.analysis.explain.lines import material_line, positional
from chesscore.analysis.explain.material import hanging, losing_capture, trapped
from chesscore.analysis.explain.mating import mate_allowed, stalemate
from chesscore.analysis.explain.pawns import passed_pawn, promotion_allowed
from chesscore.analysis.explain.situation import Situation, make_situation
from chesscore.analysis.explain.tactics import discovered, fork_allowed, pin

if TYPE_CHECKING:
    from chesscore.analysis.judgement import Evaluation, Judgement
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

__all__ = [
    "Arrow",
    "AttackFact",
    "DefendersFact",
    "Explanation",
    "Kind",
    "LineFact",
    "MaterialFact",
    "NoAttackerFact",
    "OwnPiecesFact",
    "PassedPawnFact",
    "PieceFact",
    "PinFact",
    "Role",
    "TrappedFact",
    "explain_move",
]

# The clauses of the first sentence, in the order they are tried: what ends the game first,
# then material lost at once, the tactics that win it, the pawns, the line, and the evaluation.
CLAUSES: tuple[Callable[[Situation, Facts], str], ...] = (
    stalemate,
    mate_allowed,
    losing_capture,
    hanging,
    fork_allowed,
    discovered,
    pin,
    trapped,
    defender_removed,
    overloaded,
    promotion_allowed,
    material_line,
    passed_pawn,
    positional,
)


def explain_move(
    board: Board,
    played: Move,
    judgement: Judgement,
    best_line: Sequence[Move] = (),
    best_eval: Evaluation | None = None,
    reply_line: Sequence[Move] = (),
    played_eval: Evaluation | None = None,
) -> Explanation:
    """Why the legal `played` of `board` is a `judgement` (the module docstring): `best_line`
    is the engine's line from `board` (best move first) and `best_eval` its evaluation,
    `reply_line` the opponent's best line after `played` and `played_eval` the evaluation
    after it. IllegalMoveError when a move of either line is not legal where it is played.

    >>> from chesscore import Board
    >>> from chesscore.analysis.judgement import Evaluation, Judgement
    >>> board = Board.from_fen("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3")
    >>> after = board.copy(); _ = after.push_san("Qxe5+")
    >>> explanation = explain_move(
    ...     board, board.parse_san("Qxe5+"), Judgement.BLUNDER, [board.parse_san("Bc4")],
    ...     Evaluation(cp=-23), [after.parse_san("Nxe5")], Evaluation(cp=-615))
    >>> print(explanation.text)  # doctest: +NORMALIZE_WHITESPACE
    Qxe5+?? loses the queen: it takes the pawn on e5, but Nxe5 takes the queen back. Better was
    Bc4 (-0.2).
    >>> [kind.value for kind in explanation.kinds]
    ['losing_capture']
    """
    situation = make_situation(board, played, best_line, reply_line, best_eval, played_eval)
    facts = Facts()
    head = f"{situation.san}{judgement.symbol}"
    first = next((text for clause in CLAUSES if (text := clause(situation, facts))), "")
    if not first:
        article = "an" if judgement.label[0] in "AEIOU" else "a"
        first = f"is {article} {judgement.label.lower()}"
    second = better_sentence(situation, facts)
    text = f"{head} {first}." + (f" {second}." if second else "")
    return make_explanation(text, facts)
