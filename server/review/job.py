"""A game review as a job of the engine pool: evaluated, judged and summed up in a worker.

`ReviewJob` (a `server.engine.worker.PoolJob`) carries the game (start FEN, UCI moves,
PGN headers), the setting and the evaluations of the positions already done (a review cut
short resumes from the next one). In the worker it runs `chesscore.review.evaluate_positions`
from there and judges each ply (`review_ply`) as soon as the position after it is evaluated,
sending a `ReviewUpdate` per position with the ply's wire JSON. Then the second look: the
positions around the plies that look bad are searched again with more time
(`chesscore.review.evaluate.verify_positions`), each sent as it comes (`verified`); once
every position is done it sends the summary (accuracy, counts, the reviewed PGN, and every
ply judged again from the merged evaluations, so the server pushes those whose class or
evaluation changed) with `done`. The server process only
stores and emits what comes. The job is low priority: a live game's search, or any other job
waiting for a lane, stops it (`preempted`), and the review's runner starts it again later.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from chesscore.engine.search import StopSignal
from chesscore.review.evaluate import VERIFY_FACTOR, PositionEval, ReviewSetting
from chesscore.review.judge import (
    count_judgements,
    initial_to_json,
    review_accuracy,
    review_plies,
    review_ply,
)
from chesscore.review.passes import review_positions
from chesscore.review.pgn import reviewed_pgn
from chesscore.review.phases import phases_to_json
from chesscore.rules.board import Board
from chesscore.rules.move import Move


@dataclass(frozen=True)
class ReviewUpdate:
    """One evaluated position (`position`, with the judged `ply` item after it, or the
    `initial` item for the start position; `verified` for one the second look searched
    again), or the last update (`done`): with the `summary` (`{"accuracy", "counts", "pgn",
    "plies"}`) when the review is complete, `preempted` when the job was stopped for other
    work, neither when it failed."""

    done: bool = False
    preempted: bool = False
    position: PositionEval | None = None
    verified: bool = False
    initial: dict[str, Any] | None = None
    ply: dict[str, Any] | None = None
    summary: dict[str, Any] | None = None


@dataclass(frozen=True)
class ReviewJob:
    """The game (start FEN, UCI moves, PGN headers), the setting, the positions already
    evaluated (`earlier`: indexes 0 to first - 1, in order) and those the second look has
    searched again already (`verified`)."""

    start_fen: str
    moves: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]
    setting: ReviewSetting
    earlier: tuple[PositionEval, ...] = ()
    verified: tuple[int, ...] = ()
    low_priority: ClassVar[bool] = True

    @property
    def first(self) -> int:
        return len(self.earlier)

    def game(self) -> tuple[Board, list[Move]]:
        """The start position and the moves, each checked legal (ValueError naming it)."""
        start = Board.from_fen(self.start_fen, allow_impossible_checks=True)
        board, moves = start.copy(), []
        for index, uci in enumerate(self.moves):
            try:
                moves.append(board.push_uci(uci))
            except ValueError as error:
                raise ValueError(f"move {index + 1} of the review: {error}") from None
        return start, moves

    # The pool's job interface (server.engine.worker.PoolJob).
    def check(self) -> bool:
        self.game()
        if [position.index for position in self.earlier] != list(range(self.first)):
            raise ValueError("the positions evaluated must be 0 to first - 1, in order")
        if self.first > len(self.moves) + 1:
            raise ValueError(f"{self.first} positions evaluated; the game has not that many")
        return True

    def run(self, cancel: StopSignal, send: Callable[[ReviewUpdate], None]) -> None:
        start, moves = self.game()
        judge = PlyJudge(start, moves, self.earlier, send)

        def on_verified(position: PositionEval) -> None:
            send(ReviewUpdate(position=position, verified=True))

        evals = review_positions(
            start, moves, self.setting, judge.on_position, on_verified, cancel,
            self.earlier, self.verified,
        )  # fmt: skip
        if evals is None or cancel.is_set():
            send(ReviewUpdate(done=True, preempted=True))
            return
        summary = summarise(start, moves, evals, dict(self.headers))
        send(ReviewUpdate(done=True, summary=summary))

    @property
    def bound_seconds(self) -> float:
        return self.setting.seconds * VERIFY_FACTOR  # one position, of the second look too

    def final(
        self, last: ReviewUpdate | None, preempted: bool, error: str | None = None
    ) -> ReviewUpdate:
        """Neither a summary nor `preempted`: the review failed (the runner says so)."""
        return ReviewUpdate(done=True, preempted=preempted)


class PlyJudge:
    """Judges each ply as the position after it comes in, on a board kept at the position
    before it, and sends the update."""

    def __init__(
        self,
        start: Board,
        moves: list[Move],
        earlier: tuple[PositionEval, ...],
        send: Callable[[ReviewUpdate], None],
    ) -> None:
        self.start = start
        self.moves = moves
        self.send = send
        self.previous = earlier[-1] if earlier else None
        self.board = start.copy()
        for move in moves[: max(0, len(earlier) - 1)]:
            self.board.push(move)

    def on_position(self, position: PositionEval) -> None:
        if position.index == 0:
            initial = initial_to_json(self.start, position)
            self.send(ReviewUpdate(position=position, initial=initial))
        else:
            assert self.previous is not None
            move = self.moves[position.index - 1]
            ply = review_ply(self.board, move, self.previous, position, position.index)
            self.board.push(move)
            self.send(ReviewUpdate(position=position, ply=ply.to_json()))
        self.previous = position


def summarise(
    start: Board, moves: list[Move], evals: list[PositionEval], headers: dict[str, str]
) -> dict[str, Any]:
    """`{"accuracy": {"white", "black"}, "phases", "phase_accuracy", "accuracy_so_far",
    "counts": {...}, "pgn": text, "plies": [...]}` of a whole review (every ply's wire JSON;
    the phases' items are chesscore.review.phases's `phases_to_json`)."""
    try:
        accuracy = review_accuracy(evals, start, moves)
        phases = phases_to_json(evals, start, moves)
    except ValueError:  # the start position has no legal move: nothing to judge
        accuracy = (None, None)
        phases = {"phases": None, "phase_accuracy": None, "accuracy_so_far": None}
    plies = review_plies(start, moves, evals)
    white, black = (None if value is None else round(value, 1) for value in accuracy)
    return {
        "accuracy": {"white": white, "black": black},
        **phases,
        "counts": count_judgements(plies),
        "pgn": reviewed_pgn(headers, start, plies, accuracy),
        "plies": [ply.to_json() for ply in plies],
    }
