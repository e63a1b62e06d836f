""" "Learn from your mistakes": is a move tried in the position before a ply good enough?

A tried move is accepted when it loses less than an inaccuracy's drop of the mover's winning
chances (chesscore.analysis.judgement, the review's own rules) against the engine's best move
in that position, whose evaluation the review has. The best move and the move played answer at
once from the review (the played move's evaluation is the position after it); any other move
needs the evaluation of the position after it, which the caller gets from the engine pool.
`margin` is the drop in points of winning chances (hundredths of [-1, +1]), 0 for none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore.analysis.judgement import Evaluation, judge_move, winning_chances
from chesscore.review.judge import judged_evaluation
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from server.shared.errors import N_, RequestError


@dataclass(frozen=True)
class Puzzle:
    """The position before ply `ply`, the engine's best move there and its evaluation, and
    the move played with the evaluation of the position after it (None: mate or stalemate)."""

    ply: int
    board: Board
    best: Move
    best_san: str
    best_eval: Evaluation
    played: Move
    played_eval: Evaluation | None


def make_puzzle(review: dict[str, Any], ply: int) -> Puzzle:
    """The puzzle of `ply` (from 1) of a review's JSON: `bad_request` for a ply the game has
    not, `not_ready` until the ply is judged."""
    plies = review["plies"]
    if not 1 <= ply <= len(plies):
        raise RequestError(
            "bad_request", N_("field 'ply' must be 1 to {len}, got {ply}"), len=len(plies), ply=ply
        )
    item = plies[ply - 1]
    before = review["initial"] if ply == 1 else plies[ply - 2]
    before_eval = None if before is None else before["eval"]
    if item["best"] is None or before_eval is None:
        raise RequestError(
            "not_ready", N_("ply {ply} is not reviewed yet; try again soon"), ply=ply
        )
    fen = review["start_fen"] if ply == 1 else before["fen"]
    board = Board.from_fen(fen, allow_impossible_checks=True)
    played_eval = None if item["eval"] is None else Evaluation.from_json(item["eval"])
    return Puzzle(
        ply,
        board,
        Move.from_uci(item["best"]["uci"]),
        item["best"]["san"],
        Evaluation.from_json(before_eval),
        Move.from_uci(item["uci"]),
        played_eval,
    )


def legal_move(puzzle: Puzzle, move: Move) -> Move:
    if not puzzle.board.is_legal(move):
        raise RequestError(
            "illegal_move",
            N_("{uci} is not a legal move in the position before ply {ply}"),
            uci=move.uci(),
            ply=puzzle.ply,
        )
    return move


def known_evaluation(puzzle: Puzzle, move: Move) -> Evaluation | None:
    """The evaluation after `move` when the review has it (the best move, the move played)."""
    if move == puzzle.best:
        return puzzle.best_eval
    if move == puzzle.played:
        return after_evaluation(puzzle, move, puzzle.played_eval)
    return None


def after_evaluation(puzzle: Puzzle, move: Move, evaluation: Evaluation | None) -> Evaluation:
    """The evaluation the tried `move` is judged by: the engine's of the position after it,
    or for one without a legal move the board's (a mate is as good as the best move)."""
    board = puzzle.board.copy()
    board.push(move)
    return judged_evaluation(board, evaluation, puzzle.best_eval)


def answer(puzzle: Puzzle, move: Move, evaluation: Evaluation) -> dict[str, Any]:
    """The `review_try` reply for `move`, judged by `evaluation` (White's view)."""
    mover = puzzle.board.turn
    best = winning_chances(puzzle.best_eval.for_color(mover).capped_cp())
    tried = winning_chances(evaluation.for_color(mover).capped_cp())
    accepted = move == puzzle.best or judge_move(puzzle.best_eval, evaluation, mover) is None
    return {
        "ok": True,
        "accepted": accepted,
        "best": {"uci": puzzle.best.uci(), "san": puzzle.best_san},
        "eval": evaluation.to_json(),
        "margin": round(max(0.0, (best - tried) * 100), 1),
    }
