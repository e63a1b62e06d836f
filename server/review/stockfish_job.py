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
what is left again later. Before a ply is marked `?` or `??`, its two positions are searched
again deeper on the job's engine (server.review.look_again); the summary's job does it for the
plies between two runs.

The explanations read the engine's lines (chesscore.analysis.explain), and Stockfish's
principal variation often stops short at a hash hit ("Nc5 e5" and no more), more so here
where one hash serves a run of positions. So before the summary, the job that sums up
continues each line shorter than `MIN_LINE` plies of the positions around a marked ply (an
inaccuracy or worse): the position at the line's end is searched with a quarter of the nodes
and its line appended, at most `CONTINUE_ROUNDS` times (`continue_lines`). The plies of a
continued position go out judged again at once (and in the summary); the stored evaluations
keep the engine's lines as the first search gave them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from chesscore.analysis.judgement import Judgement
from chesscore.engine.search import StopSignal
from chesscore.review.evaluate import PositionEval
from chesscore.review.judge import initial_to_json, positions_to_verify, review_ply
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from server.engine.positions import MAX_NODES, check_nodes, evaluate_position, search_bound
from server.engine.stockfish import StockfishSpec, worker_engine
from server.engine.uci import START_SECONDS, UciEngine
from server.review.job import ReviewUpdate, summarise
from server.review.look_again import AGAIN_FACTOR, LookAgain

MIN_LINE = 12  # a line around a marked ply shorter than this is continued before the summary
CONTINUE_ROUNDS = 3  # searches at most to continue one line


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
    verified: tuple[int, ...] = ()  # the known positions already searched again
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
        look = self.look_again(boards, moves, evals, cancel, send)
        for index in self.todo:
            if cancel.is_set():
                send(ReviewUpdate(done=True, preempted=True))
                return
            position = self.evaluate(boards, index, self.nodes, cancel)
            if position is None:
                send(ReviewUpdate(done=True, preempted=True))
                return
            evals[index] = position
            initial = initial_to_json(boards[0], position) if index == 0 else None
            send(ReviewUpdate(position=position, initial=initial))
            plies = look.settle([index])  # the plies it completes, looked at again if marked
            if plies is None:
                send(ReviewUpdate(done=True, preempted=True))
                return
            for ply in plies:
                send(ReviewUpdate(ply=self.judge(boards, moves, evals, ply)))
        if len(evals) < len(boards):
            send(ReviewUpdate(done=True))  # another job has the rest: the runner sums up
            return
        if look.settle(range(len(boards))) is None:  # the plies between two jobs' runs
            send(ReviewUpdate(done=True, preempted=True))
            return
        if not self.continue_lines(boards, moves, evals, cancel, send):
            send(ReviewUpdate(done=True, preempted=True))
            return
        ordered = [evals[index] for index in range(len(boards))]
        summary = summarise(boards[0], moves, ordered, dict(self.headers))
        send(ReviewUpdate(done=True, summary=summary))

    def continue_lines(
        self,
        boards: list[Board],
        moves: list[Move],
        evals: dict[int, PositionEval],
        cancel: StopSignal,
        send: Callable[[ReviewUpdate], None],
    ) -> bool:
        """The short lines of the positions around the marked plies continued (the module
        docstring), in `evals` and sent with their plies judged again; False when `cancel`
        stopped it."""
        ordered = [evals[index] for index in range(len(boards))]
        marked = positions_to_verify(boards[0], moves, ordered, Judgement.INACCURACY.threshold)
        for index in marked:
            position = evals[index]
            if not position.line or len(position.line) >= MIN_LINE:
                continue
            line = self.continued(
                worker_engine(self.spec), boards[index], index, position.line, cancel
            )
            if line is None:
                return False
            if len(line) > len(position.line):
                evals[index] = replace(position, line=line)
                for ply in (index, index + 1):
                    if 1 <= ply <= len(moves):
                        send(ReviewUpdate(ply=self.judge(boards, moves, evals, ply)))
        return True

    def continued(
        self,
        engine: UciEngine,
        board: Board,
        index: int,
        line: tuple[Move, ...],
        cancel: StopSignal,
    ) -> tuple[Move, ...] | None:
        """`line` (of position `index`, `board`) continued from its end by searches of a
        quarter of the nodes until `MIN_LINE` long, the game over, or `CONTINUE_ROUNDS`
        searches; None when `cancel` stopped a search."""
        end = board.copy()
        for move in line:
            end.push(move)
        nodes = max(1, self.nodes // 4)
        for _ in range(CONTINUE_ROUNDS):
            if len(line) >= MIN_LINE or not end.generate_legal():
                break
            engine.position(self.start_fen, [*self.moves[:index], *(m.uci() for m in line)])
            result = engine.go(nodes=nodes, timeout=search_bound(nodes), cancel=cancel.is_set)
            if result.stopped:
                return None
            info = result.best_info()
            more = info.pv[: MIN_LINE - len(line)] if info is not None else ()
            if not more:
                break
            for uci in more:
                move = end.parse_uci(uci)
                end.push(move)
                line = (*line, move)
        return line

    @property
    def again_nodes(self) -> int:
        """The nodes of a position searched again before a mark (server.review.look_again)."""
        return min(MAX_NODES, AGAIN_FACTOR * self.nodes)

    def evaluate(
        self, boards: list[Board], index: int, nodes: int, cancel: StopSignal
    ) -> PositionEval | None:
        """Position `index` searched by the worker's engine at `nodes` (None: cancelled)."""
        engine = worker_engine(self.spec)
        final = index == len(self.moves)
        ucis = self.moves[:index]
        return evaluate_position(
            engine, self.start_fen, ucis, boards[index], index, nodes, cancel, final
        )

    def look_again(
        self,
        boards: list[Board],
        moves: list[Move],
        evals: dict[int, PositionEval],
        cancel: StopSignal,
        send: Callable[[ReviewUpdate], None],
    ) -> LookAgain:
        """The deeper look of this job: each position searched again is sent (`verified`),
        and a ply about to be looked at goes out at once with its mark held back."""

        def search(index: int) -> PositionEval | None:
            found = self.evaluate(boards, index, self.again_nodes, cancel)
            if found is not None:
                send(ReviewUpdate(position=found, verified=True))
            return found

        def on_look(ply: int) -> None:
            send(ReviewUpdate(ply=self.judge(boards, moves, evals, ply, held_back=True)))

        return LookAgain(boards, moves, evals, self.verified, search, on_look)

    def judge(
        self,
        boards: list[Board],
        moves: list[Move],
        evals: dict[int, PositionEval],
        ply: int,
        held_back: bool = False,
    ) -> dict[str, Any]:
        before = boards[ply - 1].copy()
        judged = review_ply(before, moves[ply - 1], evals[ply - 1], evals[ply], ply)
        if held_back:  # not marked until its positions are searched again
            judged = replace(judged, judgement=None, explanation=None)
        return judged.to_json()

    @property
    def bound_seconds(self) -> float:
        return START_SECONDS + search_bound(self.again_nodes)  # the engine started, a position

    def final(
        self, last: ReviewUpdate | None, preempted: bool, error: str | None = None
    ) -> ReviewUpdate:
        return ReviewUpdate(done=True, preempted=preempted)
