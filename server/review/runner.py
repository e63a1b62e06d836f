"""The review queue of one server process: one review at a time, in the engine pool, resumed.

`ReviewRunner` takes reviews in turn between the addresses that asked for them (its
`FairQueue`, server.review.queue, filled by the service within its drain-time bounds, and at
start and whenever idle with the reviews the store says were left: queued, or running in a
process that stopped writing them), claims each in the store, so in a cluster
exactly one process runs it, and runs it as low-priority jobs of the engine pool under owner
and client keys of its own (`review:<id>`, `review:<id>:1`...), so they neither replace nor
are replaced by anyone's analysis board: our own engine's review is one job
(server.review.job), Stockfish's one job per pool worker, each a run of the positions left
(server.review.stockfish_job), and a last one to sum up if none of them could. One review at
a time per process keeps reviews from waiting on each other's. What the worker
sends is applied to the review's `ReviewProgress` as it comes and, at most about once a
second and at the end, written to the store and then pushed to the review's watchers (write
first: a watcher that joins and reads the store then misses no push). When one of a review's jobs
ends while the others hold more positions than there are jobs, they are stopped and the
positions left split again, so no lane waits for the slowest job (or for a lane another
visitor's analysis keeps). A review stopped for a live game's search (or another job) starts
again from the positions left at once, or after `PAUSE_SECONDS` when its run made no progress;
one whose jobs fail `MAX_FAILURES` times without progress ends `failed` (an
engine that hangs is killed within its search's bound, server.engine.positions, a worker stuck in
Python by the pool's watchdog, server.engine.watchdog), and the queue
goes on.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from chesscore.errors import ChessError
from chesscore.words import say
from server.engine.pool import EnginePool
from server.engine.worker import PoolJob
from server.review.engines import ReviewEngine
from server.review.job import ReviewUpdate
from server.review.queue import FairQueue, QueuedReview
from server.review.record import ReviewProgress
from server.review.tables import ReviewTables, StoredReview

log = logging.getLogger(__name__)

PUSH_SECONDS = 1.0  # pushes and writes of a running review, at most this often
PAUSE_SECONDS = 2.0  # the wait before a pre-empted review starts again
TOUCH_SECONDS = 30.0  # a running review with nothing new is still written this often
STALE_SECONDS = 120.0  # a running review not written for this long was left by its process
POLL_SECONDS = 30.0  # an idle runner looks for reviews left by other processes this often
QUEUED_GRACE_SECONDS = 10.0  # a queued review is its own process's to take for this long
MAX_FAILURES = 3

Emit = Callable[[str, dict[str, Any]], None]


class ReviewRunner:
    def __init__(
        self,
        tables: ReviewTables,
        pool: EnginePool,
        engine: ReviewEngine,
        emit: Emit,
        spawn: Callable[..., object],
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.tables = tables
        self.pool = pool
        self.engine = engine
        self.emit = emit
        self.spawn = spawn
        self.sleep = sleep
        self.host = secrets.token_hex(8)  # this process, in the reviews it runs
        self.queue = FairQueue(engine.position_seconds(pool.size))
        self.wakeup = threading.Event()
        self.closed = False
        self.current: str | None = None
        # Called with a review's JSON once it is done (the root adds the own puzzles' one).
        self.finished_listeners: list[Callable[[dict[str, Any]], None]] = []

    def start(self) -> None:
        self.spawn(self._loop)

    def queued(self, review: StoredReview) -> QueuedReview:
        """The review as the queue weighs it: its positions (at the measured cost of each)."""
        return QueuedReview(review.id, review.address, review.total)

    def add(self, review: StoredReview) -> None:
        """Run the review in its address's turn (its bounds are the service's to check)."""
        self.queue.add(self.queued(review))
        self.wakeup.set()

    def close(self) -> None:
        self.closed = True
        self.wakeup.set()

    def _loop(self) -> None:
        self._add_left_over()
        while not self.closed:
            taken = self.queue.take()
            if taken is None:
                self.wakeup.wait(POLL_SECONDS)
                self.wakeup.clear()
                if not len(self.queue) and not self.closed:
                    self._add_left_over()
                continue
            try:
                self._run(taken.id)
            except Exception:
                log.exception("review %s failed", taken.id)
                self._give_up(taken.id)
            finally:
                self.current = None
                self.queue.finish(taken.id)

    def _add_left_over(self) -> None:
        """Queue the reviews nobody runs, without the bounds: they were admitted once."""
        for review_id in self._left_over():
            stored = self.tables.load_review(review_id)
            if stored is not None:
                self.queue.add(self.queued(stored))

    def _give_up(self, review_id: str) -> None:
        """A review that broke the runner ends `failed` (asking for it again queues it again),
        rather than being taken up again and again."""
        try:
            self.tables.save_review(
                review_id, self.host, {"status": "failed", "updated": time.time()}
            )
        except Exception:
            log.exception("review %s could not be marked failed", review_id)

    def _left_over(self) -> list[str]:
        """Reviews queued or running that nobody runs (all of them, when no other process
        shares the store: this one was just started)."""
        now = time.time()
        if not self.tables.shared:
            return self.tables.pending_reviews(math.inf, math.inf)
        return self.tables.pending_reviews(now - QUEUED_GRACE_SECONDS, now - STALE_SECONDS)

    def _run(self, review_id: str) -> None:
        now = time.time()
        stale = math.inf if not self.tables.shared else now - STALE_SECONDS
        if not self.tables.claim_review(review_id, self.host, now, stale):
            return  # done already, or another process has it
        stored = self.tables.load_review(review_id)
        if stored is None:
            return
        self.current = review_id
        progress = ReviewProgress(stored)
        progress.set_status("running")
        if not self._push(progress, write=True):
            return
        progress.pushed_at = 0.0  # the first results go out as soon as they come
        failures = 0
        started, left = time.monotonic(), self._left(progress)
        while not progress.complete and not self.closed:
            before = (len(progress.evals), len(progress.verified))
            update = self._run_jobs(progress)
            if update is None:
                return  # closed, or another process took the review
            if progress.complete:
                break
            stuck = (len(progress.evals), len(progress.verified)) == before
            failures = failures + 1 if not update.preempted and stuck else 0
            if failures >= MAX_FAILURES:
                progress.set_status("failed", say("the engine could not review this game"))
                break
            if stuck:  # a review that moved on is queued again at once
                self.sleep(PAUSE_SECONDS)
        if progress.complete:  # what the queue's estimates are made of
            self.queue.measured(left, time.monotonic() - started)
        self._push(progress, write=True)
        if progress.complete and progress.body.get("status") == "done":
            for listener in self.finished_listeners:
                listener(progress.body)

    def _jobs(self, progress: ReviewProgress) -> list[PoolJob]:
        if self.engine.stockfish is None:
            return [progress.job(self.engine.setting)]
        return list(progress.stockfish_jobs(self.engine, self.pool.size))

    def _run_jobs(self, progress: ReviewProgress) -> ReviewUpdate | None:
        """One run of the review's jobs from where it is until each has ended (done,
        pre-empted or failed), pushing what comes as it comes but at most once a second, and
        once a second when nothing comes; the last update (`preempted` if any job was), or
        None when the review was lost (closed, taken by another process)."""
        arrived = threading.Event()
        ended: list[ReviewUpdate] = []

        def on_update(update: ReviewUpdate) -> None:
            progress.apply(update)
            if update.done:
                ended.append(update)
            arrived.set()

        jobs = self._jobs(progress)
        owners = [f"review:{progress.id}" + (f":{n}" if n else "") for n in range(len(jobs))]
        try:
            for owner, job in zip(owners, jobs, strict=True):
                self.pool.start_analysis(owner, owner, job, on_update)
        except ValueError as error:
            for owner in owners:
                self.pool.stop_analysis(owner)
            reason = error.message if isinstance(error, ChessError) else str(error)
            failed = say("the game cannot be reviewed: {reason}", reason=reason)
            progress.set_status("failed", failed)
            return ReviewUpdate(done=True)
        split_again = False
        while len(ended) < len(jobs):
            arrived.wait(PUSH_SECONDS)
            arrived.clear()
            if ended and not split_again and self._left(progress) > len(jobs):
                # One job has ended (its positions done, or pre-empted) while the others still
                # hold many: they are stopped and what is left split again, so the lane that
                # came free, or the one still held, shares the rest instead of waiting for the
                # slowest job or for a lane another job keeps (each stop wastes one position).
                split_again = True
                for owner in owners:
                    self.pool.stop_analysis(owner)
            if len(ended) == len(jobs):
                break
            early = progress.pushed_at + PUSH_SECONDS - time.monotonic()
            if early > 0:
                self.sleep(early)
            if self.closed or not self._push(progress):
                for owner in owners:
                    self.pool.stop_analysis(owner)
                return None
        return ReviewUpdate(done=True, preempted=any(update.preempted for update in ended))

    @staticmethod
    def _left(progress: ReviewProgress) -> int:
        """The positions of the review not yet evaluated."""
        return progress.total - len(progress.evals)

    def _push(self, progress: ReviewProgress, write: bool = False) -> bool:
        """Write what changed (or touch the row now and then), then push it to the watchers;
        False when the review is no longer this process's."""
        now = time.time()
        changed, fields, payload = progress.take_changes()
        write = write or changed or now - progress.written_at > TOUCH_SECONDS
        if write:
            if not self.tables.save_review(progress.id, self.host, fields):
                log.warning("review %s was taken by another process", progress.id)
                return False
            progress.written_at = now
        self.emit(progress.id, payload)
        progress.pushed_at = time.monotonic()
        return True
