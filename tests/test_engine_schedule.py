"""The engine pool's scheduling policy (server.engine.schedule) alone: no process, no thread, no
clock. Each scenario is a table of steps on a `Desk` (a schedule of a few lanes and a time set by
hand) and what each step decided, written as the pages of the pool would see it:

    search NAME GAME CLIENT      a game's search       +NAME      got a lane
    analysis NAME OWNER CLIENT   an analysis job       -NAME      stopped (dropped, or told)
    review NAME OWNER CLIENT     a low-priority job    !NAME      pre-empted for a job above it
    release NAME                 its worker returned   recheck S  look at the reviews in S s
    stop OWNER / cancel GAME     the owner's job ends  late NAME  past its deadline
    touch NAME / overdue / recheck                     (`at T` before a step: the time is T)
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

from server.engine.schedule import Decision, Job, Kind, Schedule

START, BOUND, GRACE, SHARE = 60.0, 10.0, 20.0, 5.0
KINDS = {"search": Kind.SEARCH, "analysis": Kind.ANALYSIS, "review": Kind.REVIEW}


class Desk:
    """A schedule of `lanes` lanes driven by the steps of a table; each job's payload is its
    name."""

    def __init__(self, lanes: int) -> None:
        self.schedule: Schedule[str] = Schedule(lanes, grace=GRACE, start=START, share=SHARE)
        self.serials = itertools.count(1)
        self.jobs: dict[str, Job[str]] = {}
        self.now = 0.0

    def do(self, step: str) -> str:
        """What `step` decided, as the table writes it."""
        verb, *words = step.split()
        if verb == "at":
            self.now = float(words[0])
            verb, *words = words[1:]
        if verb in KINDS:
            name, owner, client = words
            job = Job(next(self.serials), KINDS[verb], owner, client, BOUND, self.now, name)
            self.jobs[name] = job
            return describe(self.schedule.submit(job, self.now))
        if verb == "release":
            return describe(self.schedule.release(self.jobs[words[0]], self.now))
        if verb in ("stop", "cancel"):
            return describe(self.schedule.stop(words[0], search=verb == "cancel"))
        if verb == "recheck":
            return describe(self.schedule.recheck(self.now))
        if verb == "touch":
            self.schedule.touch(self.jobs[words[0]], self.now)
            return ""
        if verb == "overdue":
            return " ".join(f"late {job.payload}" for job in self.schedule.overdue(self.now))
        raise ValueError(f"unknown step {step!r}")


def describe(decision: Decision[str]) -> str:
    started = [f"+{job.payload}" for job in decision.started]
    stopped = [f"{'!' if job.preempted else '-'}{job.payload}" for job in decision.stopped]
    recheck = [] if decision.recheck_in is None else [f"recheck {decision.recheck_in:g}"]
    return " ".join(started + stopped + recheck)


def play(lanes: int, table: list[tuple[str, str]]) -> None:
    desk = Desk(lanes)
    decided = [(step, desk.do(step)) for step, _ in table]
    assert decided == table


FAIRNESS = {
    "another address waits for one search at most": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("search a2 g2 A", ""),
            ("search a3 g3 A", ""),
            ("search b1 h1 B", ""),
            ("release a1", "+b1"),
            ("release b1", "+a2"),
            ("release a2", "+a3"),
            ("release a3", ""),
        ],
    ),
    "one search in flight per address, whatever the free lanes": (
        2,
        [
            ("search a1 g1 A", "+a1"),
            ("search a2 g2 A", ""),
            ("search b1 h1 B", "+b1"),
            ("release a1", "+a2"),
        ],
    ),
    "addresses take turns, each to the back when its search ends": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("search a2 g2 A", ""),
            ("search b1 h1 B", ""),
            ("search c1 k1 C", ""),
            ("release a1", "+b1"),
            ("release b1", "+c1"),
            ("release c1", "+a2"),
        ],
    ),
    "an address asking again keeps its place in the turns": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("search b1 h1 B", ""),
            ("search c1 k1 C", ""),
            ("search b2 h2 B", ""),
            ("release a1", "+b1"),
            ("release b1", "+c1"),
            ("release c1", "+b2"),
        ],
    ),
}


@pytest.mark.parametrize(("lanes", "table"), FAIRNESS.values(), ids=FAIRNESS)
def test_fairness_per_address(lanes: int, table: list[tuple[str, str]]) -> None:
    play(lanes, table)


PRIORITY = {
    "analysis never holds the last lane, which a search takes": (
        2,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("analysis j2 tab2 Y", ""),
            ("search a1 g1 A", "+a1"),
            ("release a1", ""),
            ("stop tab1", "-j1"),
            ("release j1", "+j2"),
        ],
    ),
    "a search pre-empts analysis on a one-lane pool": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("search a1 g1 A", "!j1"),
            ("analysis j2 tab1 X", ""),
            ("release j1", "+a1"),
            ("release a1", "+j2"),
        ],
    ),
    "searches pre-empt reviews first, one job per waiting address": (
        2,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("review r1 review:1 R", "+r1"),
            ("search a1 g1 A", "!r1"),
            ("search b1 h1 B", "!j1"),
            ("search c1 k1 C", ""),
            ("release r1", "+a1"),
            ("release j1", "+b1"),
        ],
    ),
    "a job already stopping counts as a lane coming free": (
        2,
        [
            ("review r1 review:1 R1", "+r1"),
            ("review r2 review:2 R2", "+r2"),
            ("search a1 g1 A", "!r1"),
            ("search a2 g1 A", "-a1"),
            ("search b1 h1 B", "!r2"),
        ],
    ),
    "a search pre-empts a review within its share": (
        1,
        [
            ("review r1 review:1 R", "+r1"),
            ("at 1 search a1 g1 A", "!r1"),
        ],
    ),
}


@pytest.mark.parametrize(("lanes", "table"), PRIORITY.values(), ids=PRIORITY)
def test_game_searches_come_before_jobs(lanes: int, table: list[tuple[str, str]]) -> None:
    play(lanes, table)


PREEMPTION = {
    "analysis waits for a review's share, then pre-empts it": (
        1,
        [
            ("review r1 review:1 R", "+r1"),
            ("at 1 analysis j1 tab1 X", "recheck 4"),
            ("at 3 recheck", "recheck 2"),
            ("at 5 recheck", "!r1"),
            ("release r1", "+j1"),
        ],
    ),
    "one review pre-empted per waiting job": (
        2,
        [
            ("review r1 review:1 R1", "+r1"),
            ("review r2 review:2 R2", "+r2"),
            ("at 10 analysis j1 tab1 X", "!r1"),
            ("at 11 analysis j2 tab2 Y", "!r2"),
        ],
    ),
    "a replaced job's lane comes free: no review pre-empted for its successor": (
        2,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("review r1 review:1 R", "+r1"),
            ("at 10 analysis j2 tab1 X", "-j1"),
            ("release j1", "+j2"),
        ],
    ),
    "reviews take every lane, not held to the analysis cap": (
        2,
        [
            ("review r1 review:1 R1", "+r1"),
            ("review r2 review:2 R2", "+r2"),
        ],
    ),
    "a review waits behind analysis until it has waited its share": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("review r1 review:1 R", ""),
            ("at 1 analysis j2 tab2 Y", ""),
            ("at 2 stop tab1", "-j1"),
            ("at 2 release j1", "+j2"),
        ],
    ),
    "a review that has waited its share takes the next lane in its turn": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("review r1 review:1 R", ""),
            ("at 1 analysis j2 tab2 Y", ""),
            ("at 6 stop tab1", "-j1"),
            ("at 6 release j1", "+r1"),
        ],
    ),
}


@pytest.mark.parametrize(("lanes", "table"), PREEMPTION.values(), ids=PREEMPTION)
def test_pre_emption_and_the_reviews_share(lanes: int, table: list[tuple[str, str]]) -> None:
    play(lanes, table)


CANCELLATION = {
    "a cancelled queued search is dropped, its address out of the turns": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("search b1 h1 B", ""),
            ("cancel h1", "-b1"),
            ("release a1", ""),
        ],
    ),
    "a cancelled running search holds its address's slot until it returns": (
        2,
        [
            ("search a1 g1 A", "+a1"),
            ("cancel g1", "-a1"),
            ("search a2 g1 A", ""),
            ("release a1", "+a2"),
        ],
    ),
    "a game's new search replaces its queued one": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("search a2 g2 A", ""),
            ("search a3 g2 A", "-a2"),
            ("release a1", "+a3"),
        ],
    ),
    "a new job replaces its owner's, which holds the address's lane until it returns": (
        2,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("analysis j2 tab1 X", "-j1"),
            ("release j1", "+j2"),
        ],
    ),
    "a second owner of the same address replaces the first": (
        2,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("analysis j2 tab2 X", "-j1"),
            ("stop tab1", ""),
            ("release j1", "+j2"),
            ("stop tab2", "-j2"),
        ],
    ),
    "a queued job stopped before it ran": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("analysis j2 tab2 Y", ""),
            ("stop tab2", "-j2"),
            ("release j1", ""),
        ],
    ),
    "a game's search and a connection's job of the same name never meet": (
        2,
        [
            ("search a1 same A", "+a1"),
            ("analysis j1 same A", "+j1"),
            ("stop same", "-j1"),
            ("cancel same", "-a1"),
        ],
    ),
}


@pytest.mark.parametrize(("lanes", "table"), CANCELLATION.values(), ids=CANCELLATION)
def test_cancellation_and_replacement(lanes: int, table: list[tuple[str, str]]) -> None:
    play(lanes, table)


# Deadlines: got its lane at 0, so START + BOUND + GRACE = 90 until its first sign of life,
# BOUND + GRACE = 30 after each.
BOUNDS = {
    "a job silent past its start, bound and grace is late, once": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("at 89 overdue", ""),
            ("at 91 overdue", "late j1"),
            ("at 200 overdue", ""),
        ],
    ),
    "each sign of life starts a job's deadline again": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("at 70 touch j1", ""),
            ("at 95 overdue", ""),
            ("at 101 overdue", "late j1"),
        ],
    ),
    "a search's deadline is set when it gets its lane": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("at 5 touch a1", ""),
            ("at 89 overdue", ""),
            ("at 91 overdue", "late a1"),
        ],
    ),
    "a job's deadline counts from its lane, not its queueing": (
        1,
        [
            ("search a1 g1 A", "+a1"),
            ("analysis j1 tab1 X", ""),
            ("at 50 release a1", "+j1"),
            ("at 139 overdue", ""),
            ("at 141 overdue", "late j1"),
        ],
    ),
    "a job that let go of its lane is never late": (
        1,
        [
            ("analysis j1 tab1 X", "+j1"),
            ("at 10 release j1", ""),
            ("at 100 overdue", ""),
        ],
    ),
}


@pytest.mark.parametrize(("lanes", "table"), BOUNDS.values(), ids=BOUNDS)
def test_bounds(lanes: int, table: list[tuple[str, str]]) -> None:
    play(lanes, table)


def test_a_schedule_needs_a_lane() -> None:
    with pytest.raises(ValueError, match="at least one lane, got 0"):
        Schedule(0)


def test_the_policy_runs_no_process_thread_or_clock() -> None:
    """The module decides from what it is given: nothing in it waits, sleeps or reads time."""
    source = Path(__file__).resolve().parents[1] / "server" / "engine" / "schedule.py"
    tree = ast.parse(source.read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}  # fmt: skip
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    runtime = {"threading", "time", "multiprocessing", "concurrent.futures", "os", "subprocess"}
    assert not imported & runtime
    assert not any(name.startswith("server.") for name in imported)
