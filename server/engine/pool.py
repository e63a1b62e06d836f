"""The engine workers and the fair queue in front of them: no player can starve the others.

`EnginePool` runs the computer's searches (`chesscore.engine.levels.choose_move_uci`, plain data in
and out) in `size` worker processes, started on the first search, niced so the process answering
players keeps its CPU, and exiting on their own when the server dies. Searches do not go to the
workers in arrival order: each belongs to a game and a client key (the address that created the
game), and the queue hands a free worker to the clients in turn, round-robin, one search in
flight per client at most (a client's own games share one slot, so twenty games from one
address weigh like one), and to a client's games in the order they asked. A game has at most one
search pending or running: a new one replaces its pending one and stops its running one. Work
is handed to the executor only when a worker is free, so until then a cancel or a fairness
decision still takes effect. Each worker slot (a lane) has its own cancel flag in memory shared
with the workers; a lane is held by one search until its result is back, and its flag is
cleared only when the lane is handed to the next, so a cancel reaches its own search and no
other, however many searches wait.

The workers also run analysis jobs (`start_analysis`, the analysis board's engine lines), with
live games first: analysis holds at most `size - 1` lanes (the one lane of a 1-worker pool
when no game wants it; low-priority jobs, the reviews, may take every free lane), gets a free
lane only when no game search waits for one, and a game search that finds no free lane stops a
running job, a low-priority one first (its owner gets a last update; it is
not resumed, the page asks again). One job per owner (a Socket.IO connection) and one per
client key: a new job replaces the owner's, and the client's other owner's, which ends with a
last update. A worker streams each finished depth through its lane's pipe (one writer per
lane, as a lane runs one job at a time); one reader in the server process (a thread, or a
greenlet under gevent, where waiting on the pipes is cooperative) hands each update, tagged
with its job's serial, to that job's callback, so the stale lines of a job stopped a moment
ago never reach the job that took its lane. A stopped job's last update (its last lines) is
sent by the server at once, not when its niced worker next looks at its flag.

A job is any `server.engine.worker.PoolJob`: it carries its own worker function, and its
updates are whatever it sends (analysis lines, a review's judged plies). A low-priority job (a
game review) is the first a game's search stops, and it gives its lane to any other job that
waits for one; it ends with a `preempted` update, and its owner may start it again. So that
a visitor restarting the analysis board in a loop cannot starve the reviews, a low-priority job
keeps its lane against other jobs for `LOW_PRIORITY_SHARE_SECONDS` after it got it (a job that
waits meanwhile is looked at again when that share is over), one that has waited that long
for a lane takes the next free one in its turn with the analysis jobs, and a job replacing one still
stopping on its lane waits for that lane rather than taking a review's (a game's search stops
a review at once, as before).

Each lane is a worker process of its own (server.engine.lanes), and each lane in use is
watched (server.engine.watchdog): a search or job silent past its bound (a level's thinking
time; a job's `bound_seconds` between two updates) and a grace has its worker killed, under the
lock, so no other job can have taken the lane. Its waiter then answers: a game's search raises
`JobOverran`, a job's owner gets its last update with `OVERRUN_ERROR`, and the lane is given
back as after any search or job; only that lane's worker is started afresh.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection, wait

from server.engine.analysis import AnalysisJob, AnalysisUpdate
from server.engine.lanes import WorkerLanes
from server.engine.pool_items import (
    AnalysisRun,
    JobOverran,
    Search,
    Ticket,
    UpdateCallback,
    search_seconds,
)
from server.engine.watchdog import GRACE_SECONDS, Watchdog
from server.engine.worker import (
    JobStarted,
    PoolJob,
    PoolUpdate,
    run_job_in_worker,
    search_in_worker,
)

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

# How long the update reader waits on the pipes before it looks whether the pool was closed.
READER_POLL_SECONDS = 0.5
# A low-priority job (a review) holds its lane against other jobs this long at least: a review
# makes progress however often the analysis board asks for the lane (games still come first).
LOW_PRIORITY_SHARE_SECONDS = 5.0
# What the owner of a job the watchdog ended is told, and of a job whose worker died.
OVERRUN_ERROR = "the engine ran past its time bound and was stopped"
FAILED_ERROR = "the engine failed"


def default_size(cores: int | None = None) -> int:
    """Workers for a machine with `cores` (os.cpu_count() when None): one per core. The
    workers are niced, so the server process keeps its share, and a client's games hold one
    worker at most, so a second core serves a second player at once (README, "Performance")."""
    return max(1, cores if cores is not None else os.cpu_count() or 1)


class EnginePool:
    def __init__(self, size: int, grace: float = GRACE_SECONDS) -> None:
        """`size` workers; a job silent past its bound and `grace` seconds is ended."""
        if size < 1:
            raise ValueError(f"an engine pool needs at least one worker, got {size}")
        self.size = size
        self.lock = threading.Lock()
        self.lanes = WorkerLanes(size, self._start_reader)
        self.flags = self.lanes.flags
        self.watchdog = Watchdog(self._end_overdue, grace)
        self.free_lanes = list(range(size))
        # client key -> its games' pending tickets, oldest first.
        self.queues: dict[str, OrderedDict[str, Ticket]] = {}
        # Clients with pending tickets and no search in flight, in turn order: a client goes to
        # the back when its search ends, so a newcomer waits for one search at most.
        self.turns: OrderedDict[str, None] = OrderedDict()
        self.busy_clients: set[str] = set()
        self.running: dict[str, Ticket] = {}  # game id -> the ticket holding a lane for it
        self.waiting: dict[str, Ticket] = {}  # game id -> its ticket in the queues
        # Analysis: at most this many lanes; live games get the others, and these on demand.
        self.analysis_cap = max(1, size - 1)
        self.serials = itertools.count(1)
        self.analyses: dict[str, AnalysisRun] = {}  # owner -> its job (queued or running)
        self.analysis_clients: dict[str, AnalysisRun] = {}  # client -> its job
        self.analysis_queue: OrderedDict[int, AnalysisRun] = OrderedDict()  # serial -> queued
        self.analysis_lanes: dict[int, AnalysisRun] = {}  # serial -> job holding a lane
        self.listeners: dict[int, AnalysisRun] = {}  # serial -> job whose updates still go out
        self.recheck: threading.Timer | None = None  # when a review's share of its lane is over
        self.closed = False

    def enqueue(self, game_id: str, client: str, search: Search) -> Ticket:
        """Queue `search` for the game, replacing its pending one and stopping its running one;
        `run` the returned ticket to wait for the move."""
        with self.lock:
            self._cancel(game_id)
            ticket = Ticket(game_id, client, search)
            self.queues.setdefault(client, OrderedDict())[game_id] = ticket
            self.waiting[game_id] = ticket
            if client not in self.busy_clients:
                self.turns[client] = None
            started = self._grant()
            preempted = self._preempt_analysis()
        self._launch(started)
        self._deliver_final(preempted)
        return ticket

    def run(self, ticket: Ticket) -> str | None:
        """Wait for a lane, search, and return the move as UCI; None if the search was cancelled
        (before it started, or while it ran: its best move so far is of no use)."""
        ticket.granted.wait()
        if ticket.lane is None:
            return None  # dropped from the queue
        try:
            if ticket.cancelled:
                return None
            try:
                uci = self._search(ticket.search, ticket.lane)
            except BrokenProcessPool:
                if ticket.overran:
                    raise JobOverran(f"{OVERRUN_ERROR}: {ticket.search}") from None
                # Its worker died (out of memory, killed by hand): searched once more on a
                # fresh one, so no game is left waiting for a reply nobody will ask for again.
                uci = self._search(ticket.search, ticket.lane)
            return None if ticket.cancelled else uci
        finally:
            self._release(ticket)

    def _search(self, search: Search, lane: int) -> str:
        executor = self.lanes.executor(lane)
        try:
            future = executor.submit(
                search_in_worker, search.start_fen, search.moves, search.level, search.seed, lane
            )
            return future.result()
        except BrokenProcessPool:
            self.lanes.forget(lane, executor)
            raise

    def cancel(self, game_id: str) -> None:
        """Drop the game's pending search and stop its running one, if any."""
        with self.lock:
            self._cancel(game_id)

    def _cancel(self, game_id: str) -> None:
        running = self.running.get(game_id)
        if running is not None and running.lane is not None:
            running.cancelled = True
            self.flags[running.lane] = 1
        dropped = self.waiting.pop(game_id, None)
        if dropped is None:
            return
        dropped.cancelled = True
        dropped.granted.set()  # wakes its waiter with no lane
        games = self.queues[dropped.client]
        del games[game_id]
        if not games:
            del self.queues[dropped.client]
            self.turns.pop(dropped.client, None)

    def _grant(self) -> list[AnalysisRun]:
        """Hand free lanes to the clients whose turn it is, each its oldest pending search, then
        what is left to queued analysis jobs (returned, to be launched outside the lock)."""
        while self.free_lanes and self.turns:
            client, _ = self.turns.popitem(last=False)
            games = self.queues[client]
            _, ticket = games.popitem(last=False)
            del self.waiting[ticket.game_id]
            if not games:
                del self.queues[client]
            lane = self.free_lanes.pop()
            self.flags[lane] = 0
            ticket.lane = lane
            self.watchdog.watch(lane, ticket, search_seconds(ticket.search.level))
            self.running[ticket.game_id] = ticket
            self.busy_clients.add(client)
            ticket.granted.set()
        return self._grant_analysis()

    def _release(self, ticket: Ticket) -> None:
        """The ticket's search is over: its lane goes to the next, its client to the back."""
        with self.lock:
            if self.running.get(ticket.game_id) is ticket:
                del self.running[ticket.game_id]
            self.busy_clients.discard(ticket.client)
            if ticket.client in self.queues:
                self.turns[ticket.client] = None
            assert ticket.lane is not None
            self.watchdog.forget(ticket.lane, ticket)
            self.free_lanes.append(ticket.lane)
            started = self._grant()
        self._launch(started)

    # -- analysis jobs ----------------------------------------------------------------------

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
        run = AnalysisRun(next(self.serials), owner, client, job, on_update)
        with self.lock:
            ended = [self._stop_run(old) for old in self._runs_replaced_by(run)]
            if needs_worker:
                self.analyses[owner] = self.analysis_clients[client] = run
                self.listeners[run.serial] = run
                self.analysis_queue[run.serial] = run
                started = self._grant()
                ended += self._preempt_low_priority()
            else:  # mate or stalemate: the answer needs no worker
                run.finished, started = True, []
                ended.append(run)
        self._launch(started)
        self._deliver_final([r for r in ended if r is not None])

    def stop_analysis(self, owner: str) -> None:
        """Stop the owner's job, if any: it ends at once with a last update of its deepest
        lines (its worker lets go of the lane as soon as it looks at its flag)."""
        with self.lock:
            run = self.analyses.get(owner)
            ended = self._stop_run(run) if run is not None else None
        self._deliver_final([ended] if ended is not None else [])

    def _runs_replaced_by(self, run: AnalysisRun) -> list[AnalysisRun]:
        """The jobs a new one replaces: its owner's and its client's (one per client key)."""
        replaced = [self.analyses.get(run.owner), self.analysis_clients.get(run.client)]
        unique = {id(old): old for old in replaced if old is not None}
        return list(unique.values())

    def _stop_run(self, run: AnalysisRun) -> AnalysisRun | None:
        """Stop `run` (under the lock): dropped from the queue, or told through its lane's
        flag. Returned when its last update (the last lines it sent) is due, to be delivered
        outside the lock: at once, not when its worker next looks at the flag, which a loaded
        machine can delay (the workers are niced); what the worker sends after is dropped."""
        self._forget_run(run)
        self.analysis_queue.pop(run.serial, None)
        if run.lane is not None and not run.stopping:
            run.stopping = True
            self.flags[run.lane] = 1
        if run.finished:
            return None
        run.finished = True
        self.listeners.pop(run.serial, None)
        return run

    def _forget_run(self, run: AnalysisRun) -> None:
        """`run` is no longer its owner's or its client's job (a new one may take its place)."""
        if self.analyses.get(run.owner) is run:
            del self.analyses[run.owner]
        if self.analysis_clients.get(run.client) is run:
            del self.analysis_clients[run.client]

    def _grant_analysis(self) -> list[AnalysisRun]:
        """Free lanes for queued jobs, oldest first (low-priority ones after the others until
        they have waited `LOW_PRIORITY_SHARE_SECONDS`),
        within the cap (which low-priority jobs, the first a game's search stops, are not held
        to) and one lane per client (a replaced job still stopping on its lane holds its
        client's)."""
        started: list[AnalysisRun] = []
        busy = {run.client for run in self.analysis_lanes.values()}
        capped = sum(not run.job.low_priority for run in self.analysis_lanes.values())
        now = time.monotonic()
        queued = sorted(self.analysis_queue.values(), key=lambda run: self._is_behind(run, now))
        for run in queued:
            if not self.free_lanes:
                break
            if run.client in busy or (not run.job.low_priority and capped >= self.analysis_cap):
                continue
            capped += not run.job.low_priority
            del self.analysis_queue[run.serial]
            lane = self.free_lanes.pop()
            self.flags[lane] = 0
            run.lane = lane
            run.granted_at = time.monotonic()
            self.watchdog.watch(lane, run, run.job.bound_seconds)
            self.analysis_lanes[run.serial] = run
            busy.add(run.client)
            started.append(run)
        return started

    @staticmethod
    def _is_behind(run: AnalysisRun, now: float) -> bool:
        """Whether a queued job comes after the others: a low-priority one, unless it has
        waited its share already (then it takes the next free lane in its turn)."""
        return run.job.low_priority and now - run.queued_at < LOW_PRIORITY_SHARE_SECONDS

    def _preempt_analysis(self) -> list[AnalysisRun]:
        """Games first: stop as many running jobs as game searches wait for a lane (less those
        already stopping, whose lanes come free in a moment and go to the games); returns
        those whose last update is due."""
        waiting = len(self.turns)
        # Low-priority jobs (reviews) give way first.
        running = sorted(self.analysis_lanes.values(), key=lambda run: not run.job.low_priority)
        waiting -= sum(run.stopping for run in running)
        ended = []
        for run in running:
            if waiting <= 0:
                break
            if not run.stopping:
                run.preempted = True
                ended.append(self._stop_run(run))
                waiting -= 1
        return [run for run in ended if run is not None]

    def _preempt_low_priority(self) -> list[AnalysisRun]:
        """Jobs waiting for a lane stop running low-priority ones (a review gives way to the
        analysis board), one per waiting job, less the lanes of jobs already stopping (they
        come free in a moment), and only reviews past their share of the lane: the others are
        looked at again when it is over. Returns the stopped jobs whose last update is due."""
        lanes = self.analysis_lanes.values()
        waiting = sum(not run.job.low_priority for run in self.analysis_queue.values())
        # A job replaced or stopped (not one pre-empted: its lane goes to a game) frees its lane.
        waiting -= sum(r.stopping and not r.preempted and not r.job.low_priority for r in lanes)
        now = time.monotonic()
        ended, guarded = [], []
        for run in list(lanes):
            if waiting <= 0:
                break
            if not run.job.low_priority or run.stopping:
                continue
            share_left = run.granted_at + LOW_PRIORITY_SHARE_SECONDS - now
            if share_left > 0:
                guarded.append(share_left)
                continue
            run.preempted = True
            ended.append(self._stop_run(run))
            waiting -= 1
        if waiting > 0 and guarded:
            self._recheck_after(min(guarded))
        return [run for run in ended if run is not None]

    def _recheck_after(self, seconds: float) -> None:
        """Look at the waiting jobs again once a review's share of its lane is over (under the
        lock). One timer at a time: a pending one is due no later, as the reviews granted
        since it was set got their lanes later, and when it fires it sets the next."""
        if self.recheck is not None and self.recheck.is_alive():
            return
        self.recheck = threading.Timer(seconds + 0.05, self._recheck_low_priority)
        self.recheck.daemon = True
        self.recheck.start()

    def _recheck_low_priority(self) -> None:
        with self.lock:
            self.recheck = None
            ended = [] if self.closed else self._preempt_low_priority()
        self._deliver_final(ended)

    def _launch(self, runs: list[AnalysisRun]) -> None:
        for run in runs:
            threading.Thread(
                target=self._run_analysis, args=(run,), name="analysis", daemon=True
            ).start()

    def _run_analysis(self, run: AnalysisRun) -> None:
        """Run a job on its lane's worker until it returns (its updates come down the pipe)."""
        lane = run.lane
        assert lane is not None
        error: str | None = FAILED_ERROR
        try:
            executor = self.lanes.executor(lane)
            try:
                executor.submit(run_job_in_worker, run.serial, lane, run.job).result()
                error = None
            except BrokenProcessPool:
                self.lanes.forget(lane, executor)
                if run.overran:
                    error = OVERRUN_ERROR
        except Exception:
            log.exception("analysis job %s of %s failed", run.serial, run.owner)
        finally:
            self._release_analysis(run, error)

    def _release_analysis(self, run: AnalysisRun, error: str | None) -> None:
        """The job's worker returned: its lane goes to the next (games first). A job that
        failed (`error`) sent no `done`, so its owner gets one here, with the last lines and
        the error."""
        with self.lock:
            del self.analysis_lanes[run.serial]
            assert run.lane is not None
            self.watchdog.forget(run.lane, run)
            self.free_lanes.append(run.lane)
            self._forget_run(run)
            final = error is not None and not run.finished
            if final:
                run.finished = True
                self.listeners.pop(run.serial, None)
            started = self._grant()
        self._launch(started)
        if final:
            self._deliver(run, run.job.final(run.last, False, error))

    def _end_overdue(self, lane: int, token: object) -> None:
        """The watchdog's report: `token` (a ticket or a job) has been silent on `lane` past
        its bound and grace. If it still holds the lane, its worker is killed (under the lock,
        so no other job can have taken the lane meanwhile): its waiter answers with an error
        and gives the lane back."""
        with self.lock:
            held = (isinstance(token, Ticket) and self.running.get(token.game_id) is token) or (
                isinstance(token, AnalysisRun) and self.analysis_lanes.get(token.serial) is token
            )
            if not held or self.closed:
                return
            assert isinstance(token, Ticket | AnalysisRun)
            token.overran = True
            what = (
                f"the search of game {token.game_id} (level {token.search.level})"
                if isinstance(token, Ticket)
                else f"job {token.serial} of {token.owner} ({type(token.job).__name__})"
            )
            log.error("%s ran past its bound and grace on lane %d: its worker is ended", what, lane)
            self.lanes.kill(lane)

    def _deliver_final(self, runs: list[AnalysisRun]) -> None:
        """The last update of stopped jobs, each on a task of its own: the caller may hold its
        own lock, which the callback might want."""
        for run in runs:
            update = run.job.final(run.last, run.preempted)
            threading.Thread(target=self._deliver, args=(run, update), daemon=True).start()

    def _deliver(self, run: AnalysisRun, update: PoolUpdate) -> None:
        """One update to the owner, in order: nothing after the `done` one (a depth the reader
        was handing over while the job was stopped waits for it or is dropped)."""
        with run.delivery:
            if run.done_sent:
                return
            run.done_sent = update.done
            try:
                run.on_update(update)
            except Exception:
                log.exception("the update callback of analysis job %s failed", run.serial)

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
                    log.exception("an analysis pipe broke")
                    return
                self._dispatch(serial, update)

    def _dispatch(self, serial: int, update: PoolUpdate) -> None:
        with self.lock:
            run = self.listeners.get(serial)
            if run is None or run.finished:
                return  # a job already ended (stopped, replaced, pre-empted, or failed)
            if run.lane is not None:
                self.watchdog.touch(run.lane, run)
            if isinstance(update, JobStarted):
                return  # for the watchdog only
            run.last = update
            if update.done:
                run.finished = True
                del self.listeners[serial]
        self._deliver(run, update)

    def warm(self) -> None:
        """Start the workers now, not on the first search: a worker takes a second or more to
        start, which the analysis board's first lines should not wait for."""
        self.lanes.warm()

    def close(self) -> None:
        with self.lock:
            self.closed = True  # the update reader leaves within READER_POLL_SECONDS
            if self.recheck is not None:
                self.recheck.cancel()
            for run in self.analysis_lanes.values():
                if run.lane is not None:  # an analysis would otherwise run out its budget
                    self.flags[run.lane] = 1
        self.watchdog.close()
        self.lanes.close()
