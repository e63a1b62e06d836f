"""A Stockfish review job continues the engine's short lines around a marked ply before its
summary (server/review/stockfish_job.py), so that the explanation reads a line long enough to
show what it wins: run in this process with the real npm build under Node, on 1.e4 e5 2.Qh5 Nc6
3.Qxe5+?? Nxe5. The first job evaluates every position; the second is given those positions
with the line after the blunder cut to its first move (as a search that stopped at a hash hit
gives it), and sums up: the line is long again, its plies went out judged again before the
summary, and the blunder still names the queen."""

from __future__ import annotations

import dataclasses
import shutil
import threading
from typing import Any

import pytest

from chesscore.review.evaluate import PositionEval
from server.engine.stockfish import NPM_BUILD, choose_stockfish, close_worker_engine
from server.review.job import ReviewUpdate
from server.review.stockfish_job import MIN_LINE, StockfishReviewJob
from tests.test_server_review_stockfish import QUEEN_LOST, QUEEN_PLY

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not NPM_BUILD.is_file(),
    reason="node or the npm Stockfish build is missing",
)

NODES = 100_000
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def run_job(job: StockfishReviewJob) -> list[ReviewUpdate]:
    updates: list[ReviewUpdate] = []
    job.run(threading.Event(), updates.append)
    return updates


@pytest.fixture(scope="module")
def positions() -> list[PositionEval]:
    spec = choose_stockfish("")
    assert spec is not None
    try:
        job = StockfishReviewJob(START_FEN, QUEEN_LOST, (), spec, NODES, tuple(range(7)))
        updates = run_job(job)
    finally:
        close_worker_engine()
    # A position searched again before a mark (server.review.look_again) is sent again, deeper:
    # the last sent of each position is the one the review keeps.
    found = {update.position.index: update.position for update in updates if update.position}
    return sorted(found.values(), key=lambda position: position.index)


def test_a_short_line_around_a_blunder_is_continued_before_the_summary(
    positions: list[PositionEval],
) -> None:
    spec = choose_stockfish("")
    assert spec is not None and len(positions) == 7
    # The position after 3.Qxe5+ (index 5): its line cut to 3... Nxe5 alone.
    cut = dataclasses.replace(positions[QUEEN_PLY], line=positions[QUEEN_PLY].line[:1])
    known = tuple(cut if p.index == QUEEN_PLY else p for p in positions)
    try:
        job = StockfishReviewJob(START_FEN, QUEEN_LOST, (), spec, NODES, (), known)
        updates = run_job(job)
    finally:
        close_worker_engine()
    summary = updates[-1].summary
    assert updates[-1].done and summary is not None
    # The line of the position after the blunder is the recapture's ply's best line.
    recapture: dict[str, Any] = summary["plies"][QUEEN_PLY]
    assert len(recapture["line"]) >= MIN_LINE, recapture["line"]
    # The blunder's ply went out judged again before the summary, with the long line cited.
    # (Other short lines around marked plies, 2.Qh5's, may be continued too.)
    before_summary = {u.ply["ply"]: u.ply for u in updates[:-1] if u.ply is not None}
    assert {QUEEN_PLY, QUEEN_PLY + 1} <= set(before_summary)
    blunder = summary["plies"][QUEEN_PLY - 1]
    assert blunder["class"] == "blunder" and "loses the queen" in blunder["explanation"]["text"]
    assert blunder == before_summary[QUEEN_PLY]
    # The stored positions are not changed by the continuation: the only positions sent are
    # those searched again before a mark (`verified`, server.review.look_again).
    assert not any(update.position is not None and not update.verified for update in updates)
