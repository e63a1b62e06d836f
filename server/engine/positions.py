"""A game's position evaluated by Stockfish, in the review's form, and the one-position job.

`evaluate_position` asks the worker's engine (server.engine.stockfish) for one position of a
game, given as the game's start FEN and the UCI moves to it (so the engine knows the
repetitions), at a node budget, and turns what it says into chesscore.review's `PositionEval`:
the evaluation from White's view (UCI scores are the side to move's), mate in moves, the best
line as moves. What the board settles is not asked: a position with no legal move has no
evaluation, and one drawn on the board (insufficient material, fivefold, the 75-move rule, and
at a game's end a claimable draw) is 0.00 whatever the engine says, as our own engine's
review does (chesscore.review.evaluate). A search stopped by its cancel signal gives None.

`StockfishEvalJob` is a pool job (server.engine.worker.PoolJob) that evaluates one position
and answers the analysis board's update form (`AnalysisUpdate`, one line): "learn from your
mistakes" judges a tried move with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from chesscore.analysis.judgement import Evaluation
from chesscore.engine.search import StopSignal
from chesscore.review.evaluate import PositionEval
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import WHITE
from server.engine.analysis import AnalysisUpdate, final_update, replay
from server.engine.stockfish import StockfishSpec, worker_engine
from server.engine.uci import START_SECONDS, EngineError, UciEngine

# A search's bound: this long, plus its nodes at this slow a speed (a niced engine on a busy
# machine); past it the engine is killed and the job fails (server.engine.uci). At 20,000 a
# second, a review's engine was killed as hung while `stress-ng --cpu 6` kept the load at 15:
# a niced Stockfish there gets a few per cent of a core.
SEARCH_SLACK_SECONDS = 30.0
SLOWEST_NPS = 5_000
MAX_NODES = 50_000_000


def search_bound(nodes: int) -> float:
    """Seconds a search of `nodes` may take before the engine is taken for hung."""
    return SEARCH_SLACK_SECONDS + nodes / SLOWEST_NPS


def check_nodes(nodes: int) -> None:
    if type(nodes) is not int or not 1 <= nodes <= MAX_NODES:
        raise ValueError(f"nodes must be a whole number 1 to {MAX_NODES}, got {nodes!r}")


def evaluate_position(
    engine: UciEngine,
    start_fen: str,
    ucis: Sequence[str],
    board: Board,
    index: int,
    nodes: int,
    cancel: StopSignal | None = None,
    final: bool = False,
) -> PositionEval | None:
    """Position `index` of a game (`board`, reached from `start_fen` by `ucis`) at `nodes`;
    None when `cancel` stopped the search; EngineError when the engine fails."""
    if not board.generate_legal():
        return PositionEval(index, None, (), 0, 0)
    engine.position(start_fen, ucis)
    stop = cancel.is_set if cancel is not None else None
    result = engine.go(nodes=nodes, timeout=search_bound(nodes), cancel=stop)
    if result.stopped:
        return None
    info = result.best_info()
    if info is None or info.score is None:
        raise EngineError(f"{engine.name} gave no score for {board.fen()!r}")
    sign = 1 if board.turn == WHITE else -1
    outcome = board.outcome(claim_draw=final)
    if outcome is not None and outcome.winner is None:
        evaluation = Evaluation(cp=0)
    elif info.score.mate is not None and info.score.mate != 0:
        evaluation = Evaluation(mate=sign * info.score.mate)
    else:
        evaluation = Evaluation(cp=sign * (info.score.cp or 0))
    line = tuple(Move.from_uci(uci) for uci in info.pv)
    return PositionEval(index, evaluation, line, info.depth or 0, info.nodes or 0)


@dataclass(frozen=True)
class StockfishEvalJob:
    """One position (start FEN and UCI moves from it) evaluated by Stockfish at `nodes`."""

    start_fen: str
    moves: tuple[str, ...]
    spec: StockfishSpec
    nodes: int
    low_priority: ClassVar[bool] = False

    def board(self) -> Board:
        return replay(self.start_fen, self.moves, allow_impossible_checks=True)

    # The pool's job interface (server.engine.worker.PoolJob).
    def check(self) -> bool:
        check_nodes(self.nodes)
        return bool(self.board().generate_legal())

    def run(self, cancel: StopSignal, send: Callable[[AnalysisUpdate], None]) -> None:
        board, began = self.board(), time.monotonic()
        engine = worker_engine(self.spec)
        found = evaluate_position(
            engine, self.start_fen, self.moves, board, 0, self.nodes, cancel, final=False
        )
        if found is None or found.evaluation is None:
            send(AnalysisUpdate(0, 0, 0.0, True, [], preempted=found is None))
            return
        san = []
        for move in found.line:
            san.append(board.san(move))
            board.push(move)
        uci = [move.uci() for move in found.line]
        line = {"rank": 1, "score": found.evaluation.to_json(), "uci": uci, "san": san}
        seconds = round(time.monotonic() - began, 3)
        send(AnalysisUpdate(found.depth, found.nodes, seconds, True, [line]))

    @property
    def bound_seconds(self) -> float:
        return START_SECONDS + search_bound(self.nodes)  # one update, at the end

    def final(
        self, last: AnalysisUpdate | None, preempted: bool, error: str | None = None
    ) -> AnalysisUpdate:
        return final_update(last, preempted, error)
