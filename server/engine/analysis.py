"""Analysis jobs as plain data: what to analyse, what comes back, and the worker's side.

An `AnalysisJob` (a start FEN, UCI moves, the lines wanted, a time and depth budget) goes to an
engine worker (`server.engine.pool`), which runs `chesscore.engine.analyse` on it and sends
an `AnalysisUpdate` after every finished depth and a last one with `done` set (the pool's job
interface, `server.engine.worker.PoolJob`, is its `check`, `run` and `final`). Updates carry
the lines in the wire's form (scores from White's point of view, moves in UCI and in SAN,
written in the worker so the server process spends nothing on them). `check_job` is the quick
look the server process takes before queueing a job, so a bad FEN or move is refused at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from chesscore.engine.analyse import Analysis, Line, analyse
from chesscore.engine.search import MAX_PLY, SearchLimits, StopSignal
from chesscore.rules.board import Board

MAX_MULTIPV = 10
MAX_SECONDS = 600.0


@dataclass(frozen=True)
class AnalysisJob:
    """The position (start FEN and UCI moves from it), the lines wanted and the budget."""

    start_fen: str
    moves: list[str]
    multipv: int
    seconds: float = 20.0
    depth: int = 30
    allow_impossible_checks: bool = False  # as Board.from_fen: composed positions
    low_priority: ClassVar[bool] = False

    # The pool's job interface (server.engine.worker.PoolJob).
    def check(self) -> bool:
        return bool(check_job(self).generate_legal())

    def run(self, cancel: StopSignal, send: Callable[[AnalysisUpdate], None]) -> None:
        run_analysis(self, cancel, send)

    @property
    def bound_seconds(self) -> float:
        return self.seconds  # every depth, the first too, within the budget

    def final(
        self, last: AnalysisUpdate | None, preempted: bool, error: str | None = None
    ) -> AnalysisUpdate:
        return final_update(last, preempted, error)


@dataclass(frozen=True)
class AnalysisUpdate:
    """The lines of the deepest finished depth: `[{"rank": 1, "score": {"cp": 34} or
    {"mate": -2}, "uci": [...], "san": [...]}, ...]`; `done` on the last update of a job,
    `preempted` too when a live game's search took its worker (the page may ask again), `error`
    when the job failed (its worker died, or ran past its bound and was ended)."""

    depth: int
    nodes: int
    seconds: float
    done: bool
    lines: list[dict[str, Any]]
    preempted: bool = False
    error: str | None = None


def make_board(job: AnalysisJob) -> Board:
    """The job's position; the chesscore error (a ValueError) of a bad FEN or move."""
    return replay(job.start_fen, job.moves, job.allow_impossible_checks)


def replay(start_fen: str, moves: Sequence[str], allow_impossible_checks: bool = False) -> Board:
    """The position after the UCI `moves` from `start_fen`; ValueError naming a bad one."""
    board = Board.from_fen(start_fen, allow_impossible_checks=allow_impossible_checks)
    for index, uci in enumerate(moves):
        try:
            board.push_uci(uci)
        except ValueError as error:
            raise ValueError(f"move {index + 1} of the job: {error}") from None
    return board


def check_job(job: AnalysisJob) -> Board:
    """The job's position, or ValueError saying what is wrong with the job."""
    if not 1 <= job.multipv <= MAX_MULTIPV:
        raise ValueError(f"multipv must be 1 to {MAX_MULTIPV}, got {job.multipv!r}")
    if not 0 < job.seconds <= MAX_SECONDS:
        raise ValueError(f"seconds must be above 0 and at most {MAX_SECONDS}, got {job.seconds!r}")
    if not 1 <= job.depth <= MAX_PLY:
        raise ValueError(f"depth must be 1 to {MAX_PLY}, got {job.depth!r}")
    return make_board(job)


def run_analysis(
    job: AnalysisJob, cancel: StopSignal, send: Callable[[AnalysisUpdate], None]
) -> None:
    """Analyse the job's position (in a worker), sending each update; ends with `done`."""
    board = make_board(job)
    limits = SearchLimits(depth=job.depth, movetime=job.seconds)

    def on_update(analysis: Analysis) -> None:
        send(make_update(board, analysis))

    analyse(board, limits, job.multipv, on_update=on_update, cancel=cancel)


def make_update(board: Board, analysis: Analysis) -> AnalysisUpdate:
    """The wire's form of an analysis of `board`."""
    lines = [make_wire_line(board, line) for line in analysis.lines]
    return AnalysisUpdate(
        analysis.depth, analysis.nodes, round(analysis.seconds, 3), analysis.done, lines
    )


def make_wire_line(board: Board, line: Line) -> dict[str, Any]:
    """`{"rank", "score": {"cp": n} | {"mate": n}, "uci": [...], "san": [...]}`."""
    score = {"mate": line.score.mate} if line.score.mate is not None else {"cp": line.score.cp}
    replay = board.copy()
    san = []
    for move in line.moves:
        san.append(replay.san(move))
        replay.push(move)
    return {"rank": line.rank, "score": score, "uci": [m.uci() for m in line.moves], "san": san}


def final_update(
    last: AnalysisUpdate | None, preempted: bool = False, error: str | None = None
) -> AnalysisUpdate:
    """The `done` update of a job that ended without sending one: its last lines, if any."""
    if last is None:
        return AnalysisUpdate(0, 0, 0.0, True, [], preempted, error)
    return AnalysisUpdate(last.depth, last.nodes, last.seconds, True, last.lines, preempted, error)
