"""The engine pool's watchdog, on real worker processes: a job that never stops (it loops in
pure Python without looking at its flag, tests/support/stuck_job.py) is ended once silent past
its bound and the pool's grace, answered with an error, and its lane given back (the next job
on it runs on a fresh worker); a review beside it on the other lane completes; a game search
on a 1-worker pool gets its move after the stuck job was ended.

No time is measured: the stuck job would run for ever, so its ending at all (within GUARD)
shows the watchdog ended it, on a busy machine as when idle.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

from chesscore.review.evaluate import ReviewSetting
from server.engine.pool import OVERRUN_ERROR, AnalysisJob, EnginePool, Search
from server.review.job import ReviewJob
from tests.support.stuck_job import StuckJob
from tests.test_engine_pool_analysis import Updates

GRACE = 1.0  # seconds past the stuck job's bound before the watchdog ends it
GAME = ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6")


@pytest.fixture
def one_worker() -> Iterator[EnginePool]:
    engines = EnginePool(1, grace=GRACE)
    yield engines
    engines.close()


@pytest.fixture
def two_workers() -> Iterator[EnginePool]:
    engines = EnginePool(2, grace=GRACE)
    yield engines
    engines.close()


def test_a_stuck_job_is_ended_with_an_error_and_its_lane_given_back(
    one_worker: EnginePool,
) -> None:
    stuck = Updates()
    one_worker.start_analysis("sid-stuck", "10.0.0.1", StuckJob(), stuck)
    stuck.wait_for(lambda update: not update.done)  # it runs, then never speaks again
    stuck.wait_done()
    final = stuck.updates[-1]
    assert final.done and final.error == OVERRUN_ERROR
    assert not final.preempted
    after = Updates()  # the one lane, on a fresh worker
    one_worker.start_analysis(
        "sid-next", "10.0.0.2", AnalysisJob(chess.STARTING_FEN, [], 1, 1.0, 3), after
    )
    after.wait_done()
    assert after.updates[-1].error is None and after.updates[-1].lines


def test_a_game_search_waiting_behind_a_stuck_job_gets_its_move(one_worker: EnginePool) -> None:
    """The stuck job is low priority (as a review): the game's search stops it through its flag,
    which it never reads, so only the watchdog frees the lane for the search."""
    stuck = Updates()
    one_worker.start_analysis("review:x", "review:x", StuckJob(low_priority=True), stuck)
    stuck.wait_for(lambda update: not update.done)
    ticket = one_worker.enqueue("game-1", "10.0.0.3", Search(chess.STARTING_FEN, [], 3, 7))
    move = one_worker.run(ticket)
    assert move is not None and chess.Move.from_uci(move) in chess.Board().legal_moves
    assert stuck.updates[-1].done and stuck.updates[-1].preempted  # told at once, as before


def test_a_review_that_cannot_finish_fails_alone(two_workers: EnginePool) -> None:
    stuck, review = Updates(), Updates()
    two_workers.start_analysis("review:a", "review:a", StuckJob(low_priority=True), stuck)
    job = ReviewJob(chess.STARTING_FEN, GAME, (("Result", "*"),), ReviewSetting(0.1, 4))
    two_workers.start_analysis("review:b", "review:b", job, review)
    stuck.wait_done()
    assert stuck.updates[-1].error == OVERRUN_ERROR
    review.wait_done()
    last = review.updates[-1]
    assert last.summary is not None and len(last.summary["plies"]) == len(GAME)
