"""Judging each ply of a game from the evaluations of the positions before and after it.

`review_ply` turns two `PositionEval`s (chesscore.review.evaluate) and the move between them
into a `ReviewedPly`: the class of the move (chesscore.analysis.judgement's lichess rules on
the drop of the mover's winning chances), its accuracy, the engine's best move and line from the
position before, and for an inaccuracy, mistake or blunder the explanation
(chesscore.analysis.explain) built from the best line before the move and the opponent's best
line after it. `review_accuracy` gives each player's accuracy over the game.

What the board settles is not asked of the engine: a ply that mates is never bad (it is judged
with the evaluation before it as the evaluation after it) and its position counts as a mate
in 1 for accuracy; a stalemate counts as 0.00. A move that is the engine's own best move from
the position before is never marked either: a drop there is the difference between two
searches (one ply deeper or shallower down the same line), not a fault of the move.

Values stay in the core's form (0x88 squares, colours as ints) until `to_json`, which writes
the wire's "plies" item (docs/review.md, the review's JSON).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chesscore.analysis.explain import Claim, Explanation, explain_move
from chesscore.analysis.explain.facts import PIECE_WORDS
from chesscore.analysis.judgement import (
    Evaluation,
    Judgement,
    game_accuracy,
    judge_move,
    move_accuracy,
    win_percent,
    winning_chances,
)
from chesscore.review.evaluate import VERIFY_POINTS, PositionEval
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import BLACK, COLOR_NAMES, WHITE, Color, square_name
from chesscore.words import message_to_json

DRAW = Evaluation(cp=0)
# The marks given only once the positions around the ply were searched again, deeper.
SEARCHED_AGAIN = frozenset({Judgement.MISTAKE, Judgement.BLUNDER})


@dataclass(frozen=True)
class ReviewedPly:
    """One judged ply: what was played (`fen` is the position after it), the evaluation after
    it (None after a mate or stalemate on the board), the engine's choice in the position
    before it, its class (None for a good enough move), accuracy and explanation."""

    ply: int
    color: Color
    san: str
    uci: str
    fen: str
    evaluation: Evaluation | None
    best: Move | None
    best_san: str | None
    line_san: tuple[str, ...]
    judgement: Judgement | None
    accuracy: float | None
    explanation: Explanation | None

    def to_json(self) -> dict[str, Any]:
        """The review JSON's "plies" item: square names, classes by their lower-case name."""
        judgement = self.judgement
        return {
            "ply": self.ply,
            "color": COLOR_NAMES[self.color],
            "san": self.san,
            "uci": self.uci,
            "fen": self.fen,
            "eval": self.evaluation.to_json() if self.evaluation is not None else None,
            "best": (
                {"uci": self.best.uci(), "san": self.best_san} if self.best is not None else None
            ),
            "line": list(self.line_san),
            "class": judgement.name.lower() if judgement is not None else None,
            "symbol": judgement.symbol if judgement is not None else None,
            "nag": judgement.nag if judgement is not None else None,
            "accuracy": round(self.accuracy, 1) if self.accuracy is not None else None,
            "explanation": (
                explanation_to_json(self.explanation) if self.explanation is not None else None
            ),
        }


def explanation_to_json(explanation: Explanation) -> dict[str, Any]:
    """`{"text", "words", "names_best", "kinds", "squares", "arrows": [{"from", "to", "role"}],
    "claims": [...]}` with square names (a claim's form: `claim_to_json`): `text` in English,
    `words` the same as a message (chesscore.words) for the server to say in each reader's
    language, `names_best` whether it names the better move."""
    return {
        "text": explanation.text,
        "words": message_to_json(explanation.words),
        "names_best": explanation.names_best,
        "kinds": [kind.value for kind in explanation.kinds],
        "squares": [square_name(sq) for sq in explanation.squares],
        "arrows": [
            {"from": square_name(a.origin), "to": square_name(a.target), "role": a.role.value}
            for a in explanation.arrows
        ],
        "claims": [claim_to_json(claim) for claim in explanation.claims],
    }


def claim_to_json(claim: Claim) -> dict[str, Any]:
    """A claim of an explanation on the wire: `{"kind", "color", "fen", "line": [UCI], "at",
    "pieces", "gained": [piece names], "squares": [square names], "points", "mate", "count"}`
    (docs/review.md, "Claims")."""
    return {
        "kind": claim.kind.value,
        "color": COLOR_NAMES[claim.color],
        "fen": claim.fen,
        "line": list(claim.line),
        "at": claim.at,
        "pieces": [PIECE_WORDS[kind] for kind in claim.pieces],
        "gained": [PIECE_WORDS[kind] for kind in claim.gained],
        "squares": [square_name(sq) for sq in claim.squares],
        "points": claim.points,
        "mate": claim.mate,
        "count": claim.count,
    }


def review_ply(
    before_board: Board, move: Move, before: PositionEval, after: PositionEval, ply: int
) -> ReviewedPly:
    """The judged `ply` (from 1): the legal `move` of `before_board`, whose position `before`
    evaluates, leading to the position `after` evaluates. ValueError when the position before
    has no evaluation (it has a legal move, so only a cancelled search leaves it without)."""
    if before.evaluation is None:
        raise ValueError(f"ply {ply}: the position before it has no evaluation")
    mover = before_board.turn
    after_board = before_board.copy()
    after_board.push(move)
    played_eval = judged_evaluation(after_board, after.evaluation, before.evaluation)
    best = before.line[0] if before.line else None
    judgement = None
    if best != move:
        judgement = judge_move(before.evaluation, played_eval, mover)
    mine = _mover_percent
    accuracy = move_accuracy(mine(before.evaluation, mover), mine(played_eval, mover))
    explanation = None
    if judgement is not None:
        explanation = explain_move(
            before_board, move, judgement, before.line, before.evaluation,
            after.line, after.evaluation,
        )  # fmt: skip
    return ReviewedPly(
        ply,
        mover,
        before_board.san(move),
        move.uci(),
        after_board.fen(),
        after.evaluation,
        best,
        before_board.san(best) if best is not None else None,
        line_to_san(before_board, before.line),
        judgement,
        accuracy,
        explanation,
    )


def review_plies(
    start: Board, moves: Sequence[Move], evals: Sequence[PositionEval]
) -> list[ReviewedPly]:
    """Every ply of the game of `moves` from `start` whose positions before and after are both
    in `evals` (in order of index, from 0), judged."""
    by_index = {position.index: position for position in evals}
    board = start.copy()
    plies = []
    for ply, move in enumerate(moves, 1):
        before, after = by_index.get(ply - 1), by_index.get(ply)
        if before is not None and after is not None:
            plies.append(review_ply(board, move, before, after, ply))
        board.push(move)
    return plies


def positions_to_verify(
    start: Board,
    moves: Sequence[Move],
    evals: Sequence[PositionEval],
    points: float = VERIFY_POINTS,
) -> list[int]:
    """The positions a second look should search again (`verify_positions`): before and
    after every ply whose drop reaches `points` of winning chances, or that a mate rule marks,
    among the plies whose two positions are in `evals` (a ply that is the engine's own best
    move is left out: it is never marked)."""
    by_index = {position.index: position for position in evals}
    board = start.copy()
    wanted: set[int] = set()
    for ply, move in enumerate(moves, 1):
        before, after = by_index.get(ply - 1), by_index.get(ply)
        if before is None or after is None or before.evaluation is None:
            pass  # not judged yet
        elif before.line[:1] != (move,) and ply_drop(board, move, before, after) >= points:
            wanted.update((ply - 1, ply))
        board.push(move)
    return sorted(wanted)


def ply_drop(before_board: Board, move: Move, before: PositionEval, after: PositionEval) -> float:
    """The mover's loss of winning chances by the legal `move`, in points (hundredths of the
    [-1, +1] scale); 100 when a mate rule marks the move (a mate allowed or missed)."""
    assert before.evaluation is not None
    mover = before_board.turn
    after_board = before_board.copy()
    after_board.push(move)
    played = judged_evaluation(after_board, after.evaluation, before.evaluation)
    mine_before, mine_after = before.evaluation.for_color(mover), played.for_color(mover)
    if mine_before.cp is not None and mine_after.cp is not None:
        return 100 * (winning_chances(mine_before.cp) - winning_chances(mine_after.cp))
    return 100.0 if judge_move(before.evaluation, played, mover) is not None else 0.0


def is_marked_mistake(
    before_board: Board, move: Move, before: PositionEval, after: PositionEval
) -> bool:
    """Whether `review_ply` would mark the legal `move` a mistake or a blunder on these two
    evaluations: the marks a deeper look must confirm before they are given."""
    if before.evaluation is None or before.line[:1] == (move,):
        return False
    after_board = before_board.copy()
    after_board.push(move)
    played = judged_evaluation(after_board, after.evaluation, before.evaluation)
    return judge_move(before.evaluation, played, before_board.turn) in SEARCHED_AGAIN


def initial_to_json(start: Board, position: PositionEval) -> dict[str, Any]:
    """The review JSON's "initial" item: the start position's evaluation, best move, line."""
    best = position.line[0] if position.line else None
    return {
        "eval": position.evaluation.to_json() if position.evaluation is not None else None,
        "best": {"uci": best.uci(), "san": start.san(best)} if best is not None else None,
        "line": list(line_to_san(start, position.line)),
    }


def judged_evaluation(
    board: Board, evaluation: Evaluation | None, before: Evaluation
) -> Evaluation:
    """The evaluation a ply is judged by, of the position `board` after it: the engine's, or
    for a position without a legal move what the board says (a mate keeps `before`, the
    evaluation of the position before the mating move, so the mate is never bad; 0.00 for a
    stalemate)."""
    if evaluation is not None:
        return evaluation
    return before if board.is_check() else DRAW


def line_to_san(board: Board, line: Sequence[Move]) -> tuple[str, ...]:
    """The moves of `line`, legal in turn from `board` (left unchanged), in SAN."""
    replay = board.copy()
    sans = []
    for move in line:
        sans.append(replay.san(move))
        replay.push(move)
    return tuple(sans)


def review_accuracy(
    evals: Sequence[PositionEval], start: Board, moves: Sequence[Move]
) -> tuple[float | None, float | None]:
    """(White's, Black's) accuracy over the game of `moves` from `start`, from the evaluations
    of all its positions (index 0 to len(moves), in order). A mate on the board counts as a
    mate in 1 for the side that gave it, a stalemate as 0.00. ValueError when an evaluation is
    missing."""
    after_plies, initial = accuracy_evaluations(evals, start, moves)
    return game_accuracy(after_plies, start.turn, initial)


def accuracy_evaluations(
    evals: Sequence[PositionEval], start: Board, moves: Sequence[Move]
) -> tuple[list[Evaluation], Evaluation]:
    """The evaluations accuracy is computed from (`review_accuracy`'s arguments): the one
    after each ply, and the start position's. ValueError when one is missing."""
    if [e.index for e in evals] != list(range(len(moves) + 1)):
        raise ValueError(f"accuracy needs the evaluations of positions 0 to {len(moves)}")
    board = start.copy()
    after_plies: list[Evaluation] = []
    for move, position in zip(moves, evals[1:], strict=True):
        mover = board.turn
        board.push(move)
        after_plies.append(_accuracy_evaluation(board, position.evaluation, mover))
    initial = evals[0].evaluation
    if initial is None:
        raise ValueError("the start position has no legal move: there is nothing to judge")
    return after_plies, initial


def count_judgements(plies: Sequence[ReviewedPly]) -> dict[str, dict[str, int]]:
    """`{"white": {"inaccuracy": n, "mistake": n, "blunder": n}, "black": {...}}`."""
    counts = {
        COLOR_NAMES[color]: {judgement.name.lower(): 0 for judgement in Judgement}
        for color in (WHITE, BLACK)
    }
    for ply in plies:
        if ply.judgement is not None:
            counts[COLOR_NAMES[ply.color]][ply.judgement.name.lower()] += 1
    return counts


def _accuracy_evaluation(board: Board, evaluation: Evaluation | None, mover: Color) -> Evaluation:
    if evaluation is not None:
        return evaluation
    if board.is_check():
        return Evaluation(mate=1 if mover == WHITE else -1)
    return DRAW


def _mover_percent(evaluation: Evaluation, mover: Color) -> float:
    """The mover's win percent (0 to 100) for an evaluation from White's view."""
    return win_percent(evaluation.for_color(mover))
