"""Why a move was bad, in one or two sentences grounded in the engine's lines.

`explain_move(board, played, judgement, ...)` says what the engine's line after the move shows
and what the better move's line shows, as a coach would: "Qxe5+?? loses the queen for a pawn:
it takes the pawn on e5, but Nxe5 takes the queen back. Better was Bc4 (-0.2)." Nothing here
searches: the engine's findings come in as plain inputs, the best line from `board` and its
evaluation, and the opponent's best line after `played` and the evaluation after it (both from
White's view, chesscore.analysis.judgement). Every statement is read off those lines played on
the board, and carried as a claim (`claims`) that names the line it rests on.

The first sentence (`refutation`) is the first of: a stalemate given; a mate the line ends in
("walks into mate in 3"); the material the line wins by its end, counted both ways ("loses a
knight for a pawn"), told with the idea of the line's first moves (a losing capture, a hanging
piece, a fork, a discovered attack, a pin, a trapped piece, a defender removed or overloaded,
a promotion) only when the line cashes it in; a fork further down the line and what it wins,
when the line's end shows no loss (it gives the material back for an attack: `deeper`); and
when no material falls, one named factor (`factors`: a passed pawn, king safety, activity).
When none holds, the move's class ("Kf1? is a mistake."). The second sentence (`better`)
names the best move and what its line wins or keeps. Lines in the text are at most four
plies; the board shows the rest.

Every sentence is a message kept as data (chesscore.words: whole clauses with named
placeholders, the pieces they name in the context of their place in the sentence, `nouns`),
said in English for `text` and in any language by whoever reads it (the review's server, at
read). The result is a value (`facts`): the text and its message (`words`), its kinds, the
squares of the pieces it names, its arrows (a move it names, an attack, a defence, a pin line;
the move played is not among them, the board shows it as the last move), every fact it states
about one position, and its claims about the lines, so that a test can check each against
another chess library. Squares are 0x88 ints, positions FEN strings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.better import better_sentence
from chesscore.analysis.explain.claims import CONCRETE, Claim, ClaimKind
from chesscore.analysis.explain.deeper import fork_in_line
from chesscore.analysis.explain.factors import factor_sentence
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
from chesscore.analysis.explain.mating import engine_mate, stalemate
from chesscore.analysis.explain.refutation import mate_walked_into, material_lost
from chesscore.analysis.explain.situation import Situation, make_situation
from chesscore.analysis.judgement import Judgement
from chesscore.words import ENGLISH, Message, render, say, say_in

if TYPE_CHECKING:
    from chesscore.analysis.judgement import Evaluation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

__all__ = [
    "CONCRETE",
    "Arrow",
    "AttackFact",
    "Claim",
    "ClaimKind",
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
# then the material the line wins, then a fork further down it that wins material for a
# while, then the engine's mate alone, then one named factor.
# Each says its finding as a message with the placeholder `{move}`, or None.
CLAUSES: tuple[Callable[[Situation, Facts], Message | None], ...] = (
    stalemate,
    mate_walked_into,
    material_lost,
    fork_in_line,
    engine_mate,
    factor_sentence,
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
    Qxe5+?? loses the queen for a pawn: it takes the pawn on e5, but Nxe5 takes the queen back.
    Better was Bc4 (-0.2).
    >>> [kind.value for kind in explanation.kinds]
    ['losing_capture']
    >>> [(claim.kind.value, claim.line, claim.points) for claim in explanation.claims]
    [('material', ('h5e5', 'c6e5'), 8), ('capture', ('h5e5', 'c6e5'), 0)]
    """
    situation = make_situation(board, played, best_line, reply_line, best_eval, played_eval)
    facts = Facts()
    found = (clause(situation, facts) for clause in CLAUSES)
    first = next((message for message in found if message is not None), None)
    if first is None:
        first = _class_sentence(judgement)
    first = first.with_values(move=f"{situation.san}{judgement.symbol}")
    second = better_sentence(situation, facts)
    if second is None:
        return make_explanation(_sentence(first), facts)
    both = say_in(
        "two sentences", "{first} {second}", first=_sentence(first), second=_sentence(second)
    )
    return make_explanation(both, facts, names_best=True)


def _class_sentence(judgement: Judgement) -> Message:
    """ "Kf1? is a mistake": the move's class, when nothing more is found to say."""
    if judgement is Judgement.INACCURACY:
        return say("{move} is an inaccuracy")
    if judgement is Judgement.MISTAKE:
        return say("{move} is a mistake")
    return say("{move} is a blunder")


def _sentence(words: Message) -> Message:
    """The words ended by a full stop, unless they end with a line cut short ("…", the same
    in every language: it ends a line of moves)."""
    if render(words, ENGLISH).endswith("…"):
        return words
    return say_in("a sentence's end", "{sentence}.", sentence=words)
