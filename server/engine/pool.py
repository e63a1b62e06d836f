"""The engine pool: worker processes that run the schedule's jobs, and the pipes that bring
their updates back.

`EnginePool` runs every engine job of the server in `size` worker processes (lanes,
server.engine.lanes), started on the first job, niced so the process answering players keeps its
CPU, and exiting on their own when the server dies. A job is a game's search (`enqueue`, then
`run` its ticket for the move), or any `server.engine.worker.PoolJob` (`start_analysis`: the
analysis board's lines, a game review). Who gets a lane, who waits, who is stopped for whom, is
not decided here but by the policy, server.engine.schedule (fairness per address, games first,
reviews' share of a lane, the watchdog's deadlines); this module holds the one lock over it and
carries its decisions out: a started job's lane flag is cleared and the job run on a thread of
its own (a greenlet under gevent; a game's search on the thread waiting for its move), a stopped
one's flag raised (memory shared with the workers, one flag per lane, cleared only when the
lane is handed to the next, so a cancel reaches its own job and no other however many wait).

A worker streams each update of its job through its lane's pipe (one writer per lane, as a lane
runs one job at a time); one reader in the server process hands each update, tagged with its
job's serial, to that job's callback, so the stale lines of a job stopped a moment ago never
reach the job that took its lane (a search's one update, its move, comes back as its worker's
result instead: one thread fewer on the way). A stopped job's last update (from the last it
sent) is sent by the server at once, not when its niced worker next looks at its flag; a game's
search stopped (cancelled, replaced) answers None. A job whose worker died ends with
`FAILED_ERROR` (a search is first tried once more on a fresh worker, so no game waits for a
reply nobody will ask for again), one the watchdog ended with `OVERRUN_ERROR` (a search's waiter
raises `JobOverran`); only that lane's worker is started afresh.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from server.engine.analysis import AnalysisJob, AnalysisUpdate
from server.engine.game_search import JobOverran, Search, SearchAnswer, SearchJob
from server.engine.lanes import WorkerLanes
from server.engine.schedule import GRACE_SECONDS, Decision, Job, Kind, Schedule
from server.engine.watchdog import Watchdog
from server.engine.worker import JobStarted, PoolJob, PoolUpdate, run_job_in_worker

__all__ = [
    "AnalysisJob",
    "AnalysisUpdate",
    "EnginePool",
    "JobOverran",
    "PoolJob",
    "Search",
    "default_size",
]

log = logging.getLogger(__name__)

UpdateCallback = Callable[[Any], None]

# How long the update reader waits on the pipes before it looks whether the pool was closed.
READER_POLL_SECONDS = 0.5
# What the owner of a job the watchdog ended is told, and of a job whose worker died.
OVERRUN_ERROR = "the engine ran past its time bound and was stopped"
FAILED_ERROR = "the engine failed"


def default_size(cores: int | None = None) -> int:
    """Workers for a machine with `cores` (os.cpu_count() when None): one per core. The
    workers are niced, so the server process keeps its share, and a client's games hold one
    worker at most, so a second core serves a second player at once (README, "Performance")."""
    return max(1, cores if cores is not None else os.cpu_count() or 1)


@dataclass(eq=False)
class Run:
    """The runner's side of a job (its `Job.payload`): what runs in the worker, where its
    updates go, and what went out already."""

    task: PoolJob
    on_update: UpdateCallback  # a job's updates are of its own type
    # Who runs it once it holds a lane: a thread of its own when None; a search's waiter, which
    # runs it on its own thread (one thread fewer on the way of a game's move), when set.
    on_lane: Callable[[], None] | None = None
    last: Any = None  # its last update (a stopped job's last one is made from it)
    finished: bool = False  # its `done` update is due: nothing else goes to its owner
    done_sent: bool = False
    delivery: threading.Lock = field(default_factory=threading.Lock)  # one update at a time


@dataclass(eq=False)
class Ticket:
    """A game's search in the pool, for `EnginePool.run`: `ready` once it holds a lane (its
    waiter runs it) or is answered, `answered` once its answer came."""

    search: Search
    job: Job[Run] | None = None
    answer: SearchAnswer | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    answered: threading.Event = field(default_factory=threading.Event)

    def take(self, update: SearchAnswer) -> None:
        self.answer = update
        self.answered.set()
        self.ready.set()


class EnginePool:
    """`size` worker lanes serving games' searches and jobs, in the order the schedule says."""

    def __init__(self, size: int, grace: float = GRACE_SECONDS) -> None:
        """`size` workers; a job silent past its bound and `grace` seconds is ended."""
        if size < 1:
            raise ValueError(f"an engine pool needs at least one worker, got {size}")
        self.size = size
        self.lock = threading.Lock()
        self.schedule: Schedule[Run] = Schedule(size, grace)
        self.lanes = WorkerLanes(size, self._start_reader)
        self.flags = self.lanes.flags
        self.watchdog = Watchdog(self._end_overdue)
        self.serials = itertools.count(1)
        self.listeners: dict[int, Job[Run]] = {}  # serial -> job whose updates still go out
        self.recheck: threading.Timer | None = None  # when a review's share of its lane is over
        self.closed = False

    # -- games' searches ----------------------------------------------------------------------

    def enqueue(self, game_id: str, client: str, search: Search) -> Ticket:
        """Queue `search` for the game, replacing its pending one and stopping its running one;
        `run` the returned ticket to wait for the move."""
        ticket = Ticket(search)
        run = Run(SearchJob(search), ticket.take, ticket.ready.set)
        ticket.job = self._submit(Kind.SEARCH, game_id, client, run)
        return ticket

    def run(self, ticket: Ticket) -> str | None:
        """Wait for the search's move as UCI; None if it was cancelled (before it started, or
        while it ran: its best move so far is of no use). JobOverran when the watchdog ended it;
        RuntimeError when its worker died twice."""
        ticket.ready.wait()
        assert ticket.job is not None
        if ticket.job.lane is not None:  # it holds a lane (it may have been stopped since)
            self._execute(ticket.job)
        ticket.answered.wait()
        answer = ticket.answer
        assert answer is not None
        if answer.error == OVERRUN_ERROR:
            raise JobOverran(f"{OVERRUN_ERROR}: {ticket.search}")
        if answer.error is not None:
            raise RuntimeError(f"{answer.error}: {ticket.search}")
        return answer.move

    def cancel(self, game_id: str) -> None:
        """Drop the game's pending search and stop its running one, if any."""
        with self.lock:
            finals = self._carry_out(self.schedule.stop(game_id, search=True))
        self._deliver_finals(finals)

    # -- jobs -----------------------------------------------------------------------------------

    def start_analysis(
        self, owner: str, client: str, job: PoolJob, on_update: UpdateCallback
    ) -> None:
        """Run `job` (an `AnalysisJob`, or any `PoolJob`) for `owner`, replacing the owner's job
        and the client's other one; `on_update` gets each update (an analysis: each finished
        depth) and a last one with `done` (also when the job is stopped, replaced or
        pre-empted: then at once, from its last update), on the update reader's thread (a
        greenlet under gevent) or a task of its own, never the caller's. Raises ValueError (a
        bad FEN, move, multipv or budget) before anything changes."""
        needs_worker = job.check()
        kind = Kind.REVIEW if job.low_priority else Kind.ANALYSIS
        if needs_worker:
            self._submit(kind, owner, client, Run(job, on_update))
            return
        # Mate or stalemate: the answer needs no worker, only the jobs it replaces stopped.
        record = self._make_job(kind, owner, client, Run(job, on_update, finished=True))
        with self.lock:
            finals = self._carry_out(self.schedule.replace(record))
        self._deliver_finals([*finals, record])

    def stop_analysis(self, owner: str) -> None:
        """Stop the owner's job, if any: it ends at once with a last update of its deepest
        lines (its worker lets go of the lane as soon as it looks at its flag)."""
        with self.lock:
            finals = self._carry_out(self.schedule.stop(owner))
        self._deliver_finals(finals)

    # -- carrying out the schedule's decisions ------------------------------------------------

    def _make_job(self, kind: Kind, owner: str, client: str, run: Run) -> Job[Run]:
        bound = run.task.bound_seconds
        return Job(next(self.serials), kind, owner, client, bound, time.monotonic(), run)

    def _submit(self, kind: Kind, owner: str, client: str, run: Run) -> Job[Run]:
        job = self._make_job(kind, owner, client, run)
        with self.lock:
            self.listeners[job.serial] = job
            decision = self.schedule.submit(job, time.monotonic())
            finals = self._carry_out(decision)
        self._launch(decision.started)
        self._deliver_finals(finals)
        return job

    def _carry_out(self, decision: Decision[Run]) -> list[Job[Run]]:
        """Under the lock: the started jobs' flags cleared, the stopped ones' raised; returns
        the stopped jobs whose last update is due (delivered outside the lock: at once, not
        when the worker next looks at its flag; what the worker sends after is dropped)."""
        for job in decision.started:
            assert job.lane is not None
            self.flags[job.lane] = 0
        finals = []
        for job in decision.stopped:
            if job.lane is not None:
                self.flags[job.lane] = 1
            if not job.payload.finished:
                job.payload.finished = True
                self.listeners.pop(job.serial, None)
                finals.append(job)
        if decision.recheck_in is not None:
            self._recheck_after(decision.recheck_in)
        return finals

    def _recheck_after(self, seconds: float) -> None:
        """Look at the waiting jobs again once a review's share of its lane is over (under the
        lock). One timer at a time: a pending one is due no later, as the reviews granted
        since it was set got their lanes later, and when it fires it sets the next."""
        if self.recheck is not None and self.recheck.is_alive():
            return
        self.recheck = threading.Timer(seconds + 0.05, self._recheck_reviews)
        self.recheck.daemon = True
        self.recheck.start()

    def _recheck_reviews(self) -> None:
        with self.lock:
            self.recheck = None
            if self.closed:
                return
            finals = self._carry_out(self.schedule.recheck(time.monotonic()))
        self._deliver_finals(finals)

    def _launch(self, jobs: list[Job[Run]]) -> None:
        if jobs:
            self.watchdog.start()
        for job in jobs:
            if job.payload.on_lane is not None:
                job.payload.on_lane()
            else:
                threading.Thread(
                    target=self._execute, args=(job,), name="engine-job", daemon=True
                ).start()

    def _execute(self, job: Job[Run]) -> None:
        """Run a job on its lane's worker until it returns (its updates come down the pipe),
        then give the lane back."""
        error: str | None = FAILED_ERROR
        try:
            error = self._run_on_lane(job)
        except Exception:
            log.exception("%s job %s of %s failed", job.kind.value, job.serial, job.owner)
        finally:
            self._release(job, error)

    def _run_on_lane(self, job: Job[Run]) -> str | None:
        """None once the job's worker returned (what it returned handed over as an update);
        the error its owner is told if it died."""
        lane = job.lane
        assert lane is not None
        if job.stopped:
            return None  # stopped before it started: no worker needed to look at its flag
        # A search whose worker died (out of memory, killed by hand) is tried once more on a
        # fresh one: a game waits for its reply, which nobody will ask for again.
        attempts = 2 if job.kind is Kind.SEARCH else 1
        for _ in range(attempts):
            executor = self.lanes.executor(lane)
            try:
                future = executor.submit(run_job_in_worker, job.serial, lane, job.payload.task)
                returned = future.result()
            except BrokenProcessPool:
                self.lanes.forget(lane, executor)
                if job.overran:
                    return OVERRUN_ERROR
                continue
            if returned is not None:
                self._dispatch(job.serial, returned)
            return None
        return FAILED_ERROR

    def _release(self, job: Job[Run], error: str | None) -> None:
        """The job's worker returned: its lane goes to the next. A job that failed (`error`)
        sent no `done`, so its owner gets one here, with the last update and the error."""
        run = job.payload
        with self.lock:
            decision = self.schedule.release(job, time.monotonic())
            final = error is not None and not run.finished
            if final:
                run.finished = True
                self.listeners.pop(job.serial, None)
            finals = self._carry_out(decision)
        self._launch(decision.started)
        self._deliver_finals(finals)
        if final:
            self._deliver(job, run.task.final(run.last, False, error))

    def _end_overdue(self) -> None:
        """The watchdog's round: each job silent past its deadline has its worker killed, under
        the lock, so no other job can have taken the lane meanwhile; its waiter then answers
        with an error and gives the lane back."""
        with self.lock:
            if self.closed:
                return
            for job in self.schedule.overdue(time.monotonic()):
                assert job.lane is not None
                task = type(job.payload.task).__name__
                log.error(
                    "%s job %s of %s (%s) ran past its bound and grace on lane %d: its worker is"
                    " ended",
                    *(job.kind.value, job.serial, job.owner, task, job.lane),
                )
                self.lanes.kill(job.lane)

    # -- updates ------------------------------------------------------------------------------

    def _deliver_finals(self, jobs: list[Job[Run]]) -> None:
        """The last update of stopped jobs, each on a task of its own: the caller may hold its
        own lock, which the callback might want."""
        for job in jobs:
            update = job.payload.task.final(job.payload.last, job.preempted)
            threading.Thread(target=self._deliver, args=(job, update), daemon=True).start()

    def _deliver(self, job: Job[Run], update: PoolUpdate) -> None:
        """One update to the owner, in order: nothing after the `done` one (an update the reader
        was handing over while the job was stopped waits for it or is dropped)."""
        run = job.payload
        with run.delivery:
            if run.done_sent:
                return
            run.done_sent = update.done
            try:
                run.on_update(update)
            except Exception:
                log.exception("the update callback of %s job %s failed", job.kind.value, job.serial)

    def _start_reader(self, readers: list[Connection]) -> None:
        threading.Thread(
            target=self._read_updates, args=(readers,), name="analysis-updates", daemon=True
        ).start()

    def _read_updates(self, readers: list[Connection]) -> None:
        """The one reader of the lanes' pipes: each update to its job's owner, in order."""
        while not self.closed:
            for reader in wait(readers, timeout=READER_POLL_SECONDS):
                assert isinstance(reader, Connection)
                try:
                    serial, update = reader.recv()
                except (EOFError, OSError):  # pragma: no cover - the pipes live as long as we do
                    log.exception("an engine pipe broke")
                    return
                self._dispatch(serial, update)

    def _dispatch(self, serial: int, update: PoolUpdate) -> None:
        with self.lock:
            job = self.listeners.get(serial)
            if job is None or job.payload.finished:
                return  # a job already ended (stopped, replaced, pre-empted, or failed)
            self.schedule.touch(job, time.monotonic())
            if isinstance(update, JobStarted):
                return  # for the watchdog only
            job.payload.last = update
            if update.done:
                job.payload.finished = True
                del self.listeners[serial]
        self._deliver(job, update)

    # -- life ---------------------------------------------------------------------------------

    def warm(self) -> None:
        """Start the workers now, not on the first search: a worker takes a second or more to
        start, which the analysis board's first lines should not wait for."""
        self.lanes.warm()

    def close(self) -> None:
        with self.lock:
            self.closed = True  # the update reader leaves within READER_POLL_SECONDS
            if self.recheck is not None:
                self.recheck.cancel()
            for job in self.schedule.holding():
                if job.kind is not Kind.SEARCH:  # a job would otherwise run out its budget
                    assert job.lane is not None
                    self.flags[job.lane] = 1
        self.watchdog.close()
        self.lanes.close()
