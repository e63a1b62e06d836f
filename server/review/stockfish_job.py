"""A game review's positions evaluated by Stockfish, as jobs of the engine pool.

The runner (server.review.runner) splits the positions not yet evaluated into one run of
positions per pool worker (`split_positions`) and gives each to a `StockfishReviewJob`, which
walks its run backwards, as lichess's fishnet does: the engine's hash, filled by the search of
one position, holds much of the position before it (its tree one ply longer), so the same
nodes buy a better look. Each position goes out as a `ReviewUpdate` as soon as it is evaluated,
with the plies it completes (a ply is judged by chesscore.review's `review_ply` from the
positions before and after it, the same judging as our own engine's reviews, so the
evaluations only are Stockfish's). A ply whose two positions fell to two jobs is judged by the
summary: once every position is known, one job (the last run, or a job with no positions left
to evaluate) sends the summary, every ply judged again, with `done`. The jobs are low priority:
a live game's search stops one (`stop` to the engine, answered at once) and the runner starts
what is left again later; no "second look" pass, which our engine's shallow searches need.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from chesscore.engine.search import StopSignal
from chesscore.review.evaluate import PositionEval
from chesscore.review.judge import initial_to_json, review_ply
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from server.engine.positions import check_nodes, evaluate_position, search_bound
from server.engine.stockfish import StockfishSpec, worker_engine
from server.engine.uci import START_SECONDS
from server.review.job import ReviewUpdate, summarise


def split_positions(missing: Sequence[int], parts: int) -> list[tuple[int, ...]]:
    """`missing` (ascending) in at most `parts` runs of about equal length, each backwards.

    >>> split_positions([0, 1, 2, 3, 4], 2)
    [(2, 1, 0), (4, 3)]
    """
    parts = max(1, min(parts, len(missing)))
    size, extra = divmod(len(missing), parts)
    runs, at = [], 0
    for part in range(parts):
        length = size + (part < extra)
        runs.append(tuple(reversed(missing[at : at + length])))
        at += length
    return [run for run in runs if run]


@dataclass(frozen=True)
class StockfishReviewJob:
    """The game (start FEN, UCI moves, PGN headers), the engine and its node budget, the
    positions to evaluate in this order (`todo`) and those already known (`known`)."""

    start_fen: str
    moves: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]
    spec: StockfishSpec
    nodes: int
    todo: tuple[int, ...]
    known: tuple[PositionEval, ...] = ()
    low_priority: ClassVar[bool] = True

    def game(self) -> tuple[list[Board], list[Move]]:
        """The board of every position (index 0 the start) and the moves, each checked legal."""
        board = Board.from_fen(self.start_fen, allow_impossible_checks=True)
        boards, moves = [board.copy()], []
        for index, uci in enumerate(self.moves):
            try:
                moves.append(board.push_uci(uci))
            except ValueError as error:
                raise ValueError(f"move {index + 1} of the review: {error}") from None
            boards.append(board.copy())
        return boards, moves

    # The pool's job interface (server.engine.worker.PoolJob).
    def check(self) -> bool:
        check_nodes(self.nodes)
        self.game()
        positions = len(self.moves) + 1
        indexes = list(self.todo) + [position.index for position in self.known]
        if not all(0 <= index < positions for index in indexes):
            raise ValueError(f"the positions must be 0 to {positions - 1}, got {indexes!r}")
        if len(set(indexes)) != len(indexes):
            raise ValueError("a position is both to evaluate and known, or twice in a list")
        return True

    def run(self, cancel: StopSignal, send: Callable[[ReviewUpdate], None]) -> None:
        boards, moves = self.game()
        evals = {position.index: position for position in self.known}
        engine = worker_engine(self.spec) if self.todo else None
        for index in self.todo:
            assert engine is not None
            if cancel.is_set():
                send(ReviewUpdate(done=True, preempted=True))
                return
            position = evaluate_position(
                engine, self.start_fen, self.moves[:index], boards[index], index, self.nodes,
                cancel, final=index == len(moves),
            )  # fmt: skip
            if position is None:
                send(ReviewUpdate(done=True, preempted=True))
                return
            evals[index] = position
            for update in self.updates(boards, moves, evals, index):
                send(update)
        if len(evals) < len(boards):
            send(ReviewUpdate(done=True))  # another job has the rest: the runner sums up
            return
        ordered = [evals[index] for index in range(len(boards))]
        summary = summarise(boards[0], moves, ordered, dict(self.headers))
        send(ReviewUpdate(done=True, summary=summary))

    def updates(
        self,
        boards: list[Board],
        moves: list[Move],
        evals: dict[int, PositionEval],
        index: int,
    ) -> list[ReviewUpdate]:
        """Position `index` just evaluated, with the plies it completes: ply `index` (from
        the position before) and ply `index + 1` (to the position after, walking backwards)."""
        position = evals[index]
        initial = initial_to_json(boards[0], position) if index == 0 else None
        plies = [
            self.judge(boards, moves, evals, ply)
            for ply in (index, index + 1)
            if 1 <= ply <= len(moves) and ply - 1 in evals and ply in evals
        ]
        first = plies[0] if plies else None
        updates = [ReviewUpdate(position=position, initial=initial, ply=first)]
        updates += [ReviewUpdate(ply=ply) for ply in plies[1:]]
        return updates

    def judge(
        self, boards: list[Board], moves: list[Move], evals: dict[int, PositionEval], ply: int
    ) -> dict[str, Any]:
        before = boards[ply - 1].copy()
        judged = review_ply(before, moves[ply - 1], evals[ply - 1], evals[ply], ply)
        return judged.to_json()

    @property
    def bound_seconds(self) -> float:
        return START_SECONDS + search_bound(self.nodes)  # the engine started, one position

    def final(
        self, last: ReviewUpdate | None, preempted: bool, error: str | None = None
    ) -> ReviewUpdate:
        return ReviewUpdate(done=True, preempted=preempted)
