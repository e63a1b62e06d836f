"""Who gets the engine pool's next lane: the scheduling policy alone, plain data in and out.

Every piece of work the pool runs is a `Job` of one of three kinds, in order of priority: a
game's `SEARCH` (the computer's move), an `ANALYSIS` (the analysis board's lines, a tried move's
judgement: a page waits for it) and a `REVIEW` (any low-priority job, a game's review). The
`Schedule` holds the queue of every kind and the lanes (`size` worker slots), and each of its
operations (`submit`, `stop`, `release`, `recheck`) returns a `Decision`: the jobs that got a
lane now, and the jobs stopped now (dropped from the queue, or asked to stop on their lane,
whose owner is due a last update). It starts no process, no thread and reads no clock: the
caller (server.engine.pool) passes the time in, raises the lanes' flags and runs the jobs.

The rules, each a test in tests/test_engine_schedule.py:

- Searches go first, fairly between client keys (the address that made the game): free lanes go
  to the clients in turn, round-robin, one search in flight per client (a client's own games
  share that one slot, so twenty games from one address weigh like one), each client's searches
  in the order they came. A client goes to the back of the turns when its search ends.
- One live job per owner: a game has one search, a connection one job; a new one replaces it
  (the old is dropped from the queue, or stopped on its lane). A client key has one job too
  (not one search: its games each have their own).
- Jobs take the lanes the searches leave, oldest first, one lane per client (a replaced job
  still stopping on its lane holds its client's), analysis at most `size - 1` lanes (the one
  lane of a 1-lane pool), reviews any free lane.
- Pre-emption: a search that finds no free lane stops a running job, a review first (less the
  jobs already stopping, whose lanes come free in a moment). An analysis waiting for a lane stops
  a review, but only one that has held its lane `share` seconds at least, so a visitor
  restarting the analysis board in a loop cannot starve the reviews; a review waiting longer
  than `share` takes the next free lane in its turn with the analysis jobs. When a review is
  still within its share, the decision says when to look again (`recheck_in`).
- Bounds (the watchdog's bookkeeping): a job on a lane has a deadline, its `bound` plus `grace`
  from its last sign of life, and `start` more until its first (a worker spawned for it imports
  the engine first); a search sends no sign before its answer, so its deadline, set when it got
  its lane, includes that room. `overdue` names each job past its deadline once.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

# Room for a worker spawned for a job (the first, or one replacing a killed one) to import the
# engine before the job's first sign of life; a loaded machine can make that take seconds.
START_SECONDS = 60.0
# Room past a job's bound for a niced worker on a loaded machine.
GRACE_SECONDS = 20.0
# A review holds its lane against the analysis board this long at least (games still first).
REVIEW_SHARE_SECONDS = 5.0

Payload = TypeVar("Payload")


class Kind(Enum):
    """What a job is, in order of priority."""

    SEARCH = "search"  # a game's move
    ANALYSIS = "analysis"  # a job a page waits for
    REVIEW = "review"  # a low-priority job


@dataclass(eq=False)
class Job(Generic[Payload]):
    """One piece of work: queued, then on a lane until its worker returns. `owner` is the game
    of a search and the connection (or review) of a job; `client` the key fairness counts by;
    `bound` the longest it goes silent on a lane. `payload` is the runner's (what to run, where
    its updates go): the policy never looks at it."""

    serial: int
    kind: Kind
    owner: str
    client: str
    bound: float
    queued_at: float
    payload: Payload
    lane: int | None = None
    granted_at: float = 0.0
    deadline: float = math.inf
    stopped: bool = False  # replaced, cancelled or pre-empted: dropped, or told on its lane
    preempted: bool = False  # stopped for a job above it: its owner may start it again
    overran: bool = False  # silent past its deadline: its worker is to be ended

    @property
    def slot(self) -> tuple[bool, str]:
        """Its owner's one slot: a game's search and a connection's job never meet."""
        return self.kind is Kind.SEARCH, self.owner


@dataclass
class Decision(Generic[Payload]):
    """What an operation decided: `started` got a lane (clear its flag, run it); `stopped` were
    dropped from the queue (no lane) or are to stop on their lane (raise its flag), and their
    owners are due a last update; look at the reviews again in `recheck_in` seconds."""

    started: list[Job[Payload]] = field(default_factory=list)
    stopped: list[Job[Payload]] = field(default_factory=list)
    recheck_in: float | None = None


class Schedule(Generic[Payload]):
    """The queue and the lanes of a pool of `size` lanes (see the module's rules)."""

    def __init__(
        self,
        size: int,
        grace: float = GRACE_SECONDS,
        start: float = START_SECONDS,
        share: float = REVIEW_SHARE_SECONDS,
    ) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one lane, got {size}")
        self.grace, self.start, self.share = grace, start, share
        self.analysis_cap = max(1, size - 1)
        self.free_lanes = list(range(size))
        self.queued: dict[int, Job[Payload]] = {}  # serial -> job waiting, oldest first
        self.on_lanes: dict[int, Job[Payload]] = {}  # serial -> job holding a lane
        self.owners: dict[tuple[bool, str], Job[Payload]] = {}  # slot -> its live job
        self.clients: dict[str, Job[Payload]] = {}  # client -> its live job (not a search)
        # Clients with a search queued and none on a lane, in turn order.
        self.turns: OrderedDict[str, None] = OrderedDict()

    # -- operations ---------------------------------------------------------------------------

    def submit(self, job: Job[Payload], now: float) -> Decision[Payload]:
        """Queue `job`, replacing its owner's (and, not a search, its client's) job."""
        decision = self.replace(job)
        self.queued[job.serial] = job
        self.owners[job.slot] = job
        if job.kind is Kind.SEARCH:
            if not self._is_searching(job.client):
                self.turns[job.client] = None  # a client already in turn keeps its place
        else:
            self.clients[job.client] = job
        decision.started = self._grant(now)
        if job.kind is Kind.SEARCH:
            decision.stopped += self._preempt_for_searches()
        else:
            stopped, decision.recheck_in = self._preempt_reviews(now)
            decision.stopped += stopped
        return decision

    def replace(self, job: Job[Payload]) -> Decision[Payload]:
        """Stop the jobs `job` replaces (its owner's, and its client's unless it is a search)
        without queueing it: a job answered at once needs no lane."""
        replaced = [self.owners.get(job.slot)]
        if job.kind is not Kind.SEARCH:
            replaced.append(self.clients.get(job.client))
        unique = {id(old): old for old in replaced if old is not None}
        return Decision(stopped=self._stop_all(unique.values()))

    def stop(self, owner: str, search: bool = False) -> Decision[Payload]:
        """Stop the owner's job (a game's search when `search`), if it has one."""
        job = self.owners.get((search, owner))
        return Decision(stopped=self._stop_all([job] if job is not None else []))

    def release(self, job: Job[Payload], now: float) -> Decision[Payload]:
        """`job`'s worker returned: its lane goes to the next, its client to the back."""
        assert job.lane is not None
        del self.on_lanes[job.serial]
        self.free_lanes.append(job.lane)
        self._forget(job)
        if job.kind is Kind.SEARCH and self._has_queued_search(job.client):
            self.turns[job.client] = None
        return Decision(started=self._grant(now))

    def recheck(self, now: float) -> Decision[Payload]:
        """The reviews' share may be over: pre-empt those the waiting analysis needs."""
        stopped, recheck_in = self._preempt_reviews(now)
        return Decision(stopped=stopped, recheck_in=recheck_in)

    # -- bounds -------------------------------------------------------------------------------

    def touch(self, job: Job[Payload], now: float) -> None:
        """A sign of life of `job` (an update): its deadline starts again."""
        if job.kind is not Kind.SEARCH and self.on_lanes.get(job.serial) is job:
            job.deadline = now + job.bound + self.grace

    def overdue(self, now: float) -> list[Job[Payload]]:
        """The jobs on lanes past their deadline, each named once (marked `overran`)."""
        late = [job for job in self.on_lanes.values() if job.deadline < now and not job.overran]
        for job in late:
            job.overran = True
        return late

    def holding(self) -> list[Job[Payload]]:
        """The jobs on lanes, in the order they got them."""
        return list(self.on_lanes.values())

    # -- granting -----------------------------------------------------------------------------

    def _grant(self, now: float) -> list[Job[Payload]]:
        """Free lanes to the clients whose turn it is, each its oldest search, then what is
        left to the other jobs."""
        started = []
        while self.free_lanes and self.turns:
            client, _ = self.turns.popitem(last=False)
            search = next(
                job
                for job in self.queued.values()
                if job.kind is Kind.SEARCH and job.client == client
            )
            started.append(self._give_lane(search, now))
        return started + self._grant_jobs(now)

    def _grant_jobs(self, now: float) -> list[Job[Payload]]:
        """Free lanes to queued jobs, oldest first (reviews after the analysis until they have
        waited their share), one per client, analysis within its cap."""
        started = []
        running = [job for job in self.on_lanes.values() if job.kind is not Kind.SEARCH]
        busy = {job.client for job in running}
        capped = sum(job.kind is Kind.ANALYSIS for job in running)
        waiting = [job for job in self.queued.values() if job.kind is not Kind.SEARCH]
        for job in sorted(waiting, key=lambda job: self._is_behind(job, now)):
            if not self.free_lanes:
                break
            if job.client in busy or (job.kind is Kind.ANALYSIS and capped >= self.analysis_cap):
                continue
            capped += job.kind is Kind.ANALYSIS
            busy.add(job.client)
            started.append(self._give_lane(job, now))
        return started

    def _is_behind(self, job: Job[Payload], now: float) -> bool:
        """Whether a queued job comes after the others: a review that has not yet waited its
        share (then it takes the next free lane in its turn)."""
        return job.kind is Kind.REVIEW and now - job.queued_at < self.share

    def _give_lane(self, job: Job[Payload], now: float) -> Job[Payload]:
        del self.queued[job.serial]
        job.lane = self.free_lanes.pop()
        job.granted_at = now
        job.deadline = now + self.start + job.bound + self.grace
        self.on_lanes[job.serial] = job
        return job

    # -- stopping -----------------------------------------------------------------------------

    def _preempt_for_searches(self) -> list[Job[Payload]]:
        """Games first: stop as many running jobs as clients wait to search (less the jobs
        already stopping, whose lanes come free in a moment and go to the games), reviews
        first."""
        running = [job for job in self.on_lanes.values() if job.kind is not Kind.SEARCH]
        running.sort(key=lambda job: job.kind is not Kind.REVIEW)
        wanted = len(self.turns) - sum(job.stopped for job in running)
        victims = [job for job in running if not job.stopped][: max(0, wanted)]
        for job in victims:
            job.preempted = True
        return self._stop_all(victims)

    def _preempt_reviews(self, now: float) -> tuple[list[Job[Payload]], float | None]:
        """Analysis waiting for a lane stops running reviews past their share, one per waiting
        job, less the lanes of jobs replaced or stopped (not pre-empted: those lanes go to a
        game). Returns the stopped reviews and, when a review within its share was spared while
        analysis still waits, the seconds until that share is over."""
        running = list(self.on_lanes.values())
        wanted = sum(job.kind is Kind.ANALYSIS for job in self.queued.values())
        wanted -= sum(
            job.kind is Kind.ANALYSIS and job.stopped and not job.preempted for job in running
        )
        victims: list[Job[Payload]] = []
        spared: list[float] = []
        for job in running:
            if wanted <= len(victims):
                break
            if job.kind is not Kind.REVIEW or job.stopped:
                continue
            share_left = job.granted_at + self.share - now
            if share_left > 0:
                spared.append(share_left)
            else:
                victims.append(job)
        for job in victims:
            job.preempted = True
        recheck_in = min(spared) if spared and wanted > len(victims) else None
        return self._stop_all(victims), recheck_in

    def _stop_all(self, jobs: Iterable[Job[Payload]]) -> list[Job[Payload]]:
        """Stop each job not stopped already: dropped from the queue, or marked to be told on
        its lane. Returns those stopped now."""
        stopped = []
        for job in jobs:
            if job.stopped:
                continue
            job.stopped = True
            self._forget(job)
            if job.lane is None:
                del self.queued[job.serial]
                if job.kind is Kind.SEARCH and not self._has_queued_search(job.client):
                    self.turns.pop(job.client, None)
            stopped.append(job)
        return stopped

    def _forget(self, job: Job[Payload]) -> None:
        """`job` is no longer its owner's or its client's (a new one may take its place)."""
        if self.owners.get(job.slot) is job:
            del self.owners[job.slot]
        if self.clients.get(job.client) is job:
            del self.clients[job.client]

    # -- searches' turns ----------------------------------------------------------------------

    def _is_searching(self, client: str) -> bool:
        """Whether a search of `client` holds a lane (its one slot: its next waits)."""
        return any(
            job.kind is Kind.SEARCH and job.client == client for job in self.on_lanes.values()
        )

    def _has_queued_search(self, client: str) -> bool:
        return any(job.kind is Kind.SEARCH and job.client == client for job in self.queued.values())
