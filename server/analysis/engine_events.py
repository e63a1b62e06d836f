"""Socket.IO events of the analysis board's engine: our search's best lines, streamed.

`engine_start` names a node by its path (server.games.requests.PathRequest) and how many
lines to show; the search runs in the engine pool's worker processes (server.engine.pool,
behind the computer's moves in live games), and every finished depth is emitted to the asking
connection only, as `engine_lines` with the job's number, so the page drops the lines of a node
it has left. A connection has one job at a time: a new start replaces it, `engine_stop` ends
it, and so does leaving (`stop_for`, called on disconnect). The pool keys its fairness by the
client's address, so one visitor with many tabs analyses one position at a time.
"""

from __future__ import annotations

import itertools
from typing import Any, cast

from flask import request
from flask_socketio import SocketIO

from chesscore import Board
from server.analysis.events import board_at_path
from server.analysis.requests import parse_engine_start
from server.edge.clients import request_client
from server.engine.analysis import AnalysisJob, AnalysisUpdate
from server.engine.pool import EnginePool
from server.shared.errors import RequestError
from server.shared.slots import Slot

_jobs = itertools.count(1)
# Moves of history a job takes along: enough to see a repetition or the fifty-move rule, where
# the whole path would have the pool replay up to 1,000 moves again.
HISTORY_PLIES = 100


# The engine pool the composition root built (the computer's searches share it).
ENGINES: Slot[EnginePool] = Slot("engine pool")


def _pool() -> EnginePool:
    return ENGINES.get()


def _sid() -> str:
    return cast(str, request.sid)  # type: ignore[attr-defined]


def make_engine_handlers(socketio: SocketIO) -> dict[str, Any]:
    """The handlers of `engine_start` and `engine_stop`, emitting through `socketio`."""

    def engine_start(payload: Any) -> dict[str, Any]:
        engine_request = parse_engine_start(payload)
        board, notice = board_at_path(engine_request.path)
        sid, job = _sid(), next(_jobs)
        fen = board.fen()
        start_fen, moves = _recent_history(board)

        def deliver(update: AnalysisUpdate) -> None:
            socketio.emit("engine_lines", lines_message(job, fen, update), to=sid)

        analysis = AnalysisJob(
            start_fen=start_fen,
            moves=moves,
            multipv=engine_request.multipv,
            allow_impossible_checks=notice is not None,
        )
        try:
            _pool().start_analysis(sid, request_client(), analysis, deliver)
        except ValueError as error:
            raise RequestError("bad_request", str(error)) from error
        return {"ok": True, "job": job, "fen": fen}

    def engine_stop(payload: Any) -> dict[str, Any]:
        if payload not in ({}, None):
            raise RequestError("bad_request", "engine_stop takes an empty object")
        _pool().stop_analysis(_sid())
        return {"ok": True}

    return {"engine_start": engine_start, "engine_stop": engine_stop}


def _recent_history(board: Board) -> tuple[str, list[str]]:
    """The FEN `HISTORY_PLIES` moves back (or the root's) and the UCI moves from there."""
    taken = [board.pop() for _ in range(min(HISTORY_PLIES, board.ply))]
    start_fen = board.fen()
    for move in reversed(taken):
        board.push(move)
    return start_fen, [move.uci() for move in reversed(taken)]


def lines_message(job: int, fen: str, update: AnalysisUpdate) -> dict[str, Any]:
    return {
        "job": job,
        "fen": fen,
        "depth": update.depth,
        "nodes": update.nodes,
        "seconds": round(update.seconds, 3),
        "done": update.done,
        "preempted": update.preempted,
        "error": update.error,
        "lines": update.lines,
    }


def stop_for(sid: str) -> None:
    """Stop the connection's engine job, if any (it has gone)."""
    _pool().stop_analysis(sid)
