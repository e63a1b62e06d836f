"""A review's two passes over a game, as the server's job, the command line and the benchmark
all run them: the first pass evaluates every position in order (`evaluate_positions`); the
second look (`positions_to_verify`, `verify_positions`) searches again the positions around the
plies that seem to lose and keeps the deeper numbers (`merge_positions`).

A job stopped part-way resumes from what its callbacks were given: `earlier`, the positions
0 to first - 1 already evaluated (with the second look's numbers where it has been), and
`verified`, the positions the second look has already searched again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chesscore.engine.search import StopSignal
from chesscore.review.evaluate import (
    PositionCallback,
    PositionEval,
    ReviewSetting,
    evaluate_positions,
    merge_positions,
    verify_positions,
)
from chesscore.review.judge import positions_to_verify
from chesscore.rules.board import Board
from chesscore.rules.move import Move


def review_positions(
    start: Board,
    moves: Sequence[Move],
    setting: ReviewSetting,
    on_position: PositionCallback | None = None,
    on_verified: PositionCallback | None = None,
    cancel: StopSignal | None = None,
    earlier: Sequence[PositionEval] = (),
    verified: Sequence[int] = (),
    on_second_look: Callable[[list[int]], None] | None = None,
) -> list[PositionEval] | None:
    """Every position of the game of `moves` from `start` evaluated in both passes:
    `on_position` gets each of the first pass, `on_second_look` the indexes the second look
    is about to search again, `on_verified` each of those. None when `cancel` stopped it."""
    evals = list(earlier)
    if len(evals) <= len(moves):
        evals += evaluate_positions(start, moves, setting, on_position, cancel, first=len(evals))
    if len(evals) != len(moves) + 1:
        return None
    done = set(verified)
    again = [index for index in positions_to_verify(start, moves, evals) if index not in done]
    if on_second_look is not None:
        on_second_look(again)
    looked = verify_positions(start, moves, evals, again, setting, on_verified, cancel)
    if len(looked) != len(again) or (cancel is not None and cancel.is_set()):
        return None
    return merge_positions(evals, looked)
