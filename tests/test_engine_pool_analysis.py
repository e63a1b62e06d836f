"""Analysis jobs in the engine pool, on real worker processes: updates stream and deepen, a
stop or a replacement ends a job at once with its last lines, live games come first (a game
search pre-empts analysis on a 1-worker pool, analysis never holds the last lane of a bigger
one), one job per client key, bad jobs refused at the start. The same under gevent's monkey
patching, in a process of its own (the server's default mode).

The waits have generous guards against hanging, and no test measures a time: a job that only
a stop or a game's search may end is given the longest budget a job may ask (UNENDING, ten
minutes), so its ending within the guard shows who ended it, on a busy machine as when idle.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import chess
import pytest

from server.engine.pool import AnalysisJob, AnalysisUpdate, EnginePool, Search

ROOT = Path(__file__).resolve().parent.parent
START = chess.STARTING_FEN
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8"
GUARD = 60.0  # seconds: against hanging only
# The most a job may ask (ten minutes), far beyond GUARD: such a job ends only when stopped.
UNENDING = {"seconds": 600.0, "depth": 100}


class Updates:
    """What one job's callback received, with the time each update came."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.received: list[tuple[float, AnalysisUpdate]] = []
        self.thread_names: set[str] = set()

    def __call__(self, update: AnalysisUpdate) -> None:
        with self.condition:
            self.received.append((time.monotonic(), update))
            self.thread_names.add(threading.current_thread().name)
            self.condition.notify_all()

    @property
    def updates(self) -> list[AnalysisUpdate]:
        with self.condition:
            return [update for _, update in self.received]

    def wait_for(self, test: Callable[[AnalysisUpdate], bool], guard: float = GUARD) -> float:
        """The time the first update passing `test` came (waiting for it)."""
        deadline = time.monotonic() + guard
        with self.condition:
            while True:
                for when, update in self.received:
                    if test(update):
                        return when
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such update in {guard} s: {self.updates}")
                self.condition.wait(left)

    def wait_done(self) -> float:
        return self.wait_for(lambda update: update.done)


@pytest.fixture
def pool() -> Iterator[EnginePool]:
    engines = EnginePool(2)
    yield engines
    engines.close()


@pytest.fixture
def one_worker() -> Iterator[EnginePool]:
    engines = EnginePool(1)
    yield engines
    engines.close()


def job(fen: str = START, moves: list[str] | None = None, **budget: float) -> AnalysisJob:
    seconds = budget.get("seconds", 20.0)
    depth = int(budget.get("depth", 30))
    return AnalysisJob(fen, moves or [], 3, seconds=seconds, depth=depth)


def assert_legal_lines(fen: str, moves: list[str], update: AnalysisUpdate) -> None:
    for line in update.lines:
        oracle = chess.Board(fen)
        for uci in moves:
            oracle.push_uci(uci)
        sans = []
        for uci in line["uci"]:
            move = chess.Move.from_uci(uci)
            assert move in oracle.legal_moves, (uci, line)
            sans.append(oracle.san(move))
            oracle.push(move)
        assert line["san"] == sans
        assert set(line["score"]) in ({"cp"}, {"mate"})


def test_updates_stream_and_deepen(pool: EnginePool) -> None:
    updates = Updates()
    pool.start_analysis("sid-1", "10.0.0.1", job(START, ["e2e4"], depth=5), updates)
    updates.wait_done()
    received = updates.updates
    assert [update.depth for update in received] == [1, 2, 3, 4, 5, 5]
    assert [update.done for update in received] == [False] * 5 + [True]
    assert [len(update.lines) for update in received] == [3] * 6
    assert [line["rank"] for line in received[-1].lines] == [1, 2, 3]
    for update in received:
        assert_legal_lines(START, ["e2e4"], update)
    assert updates.thread_names == {"analysis-updates"}  # the one reader delivers them


def test_a_stop_ends_the_job_at_once_with_its_last_lines(pool: EnginePool) -> None:
    updates = Updates()
    pool.start_analysis("sid-1", "10.0.0.1", job(MIDDLEGAME, **UNENDING), updates)
    updates.wait_for(lambda update: update.depth >= 3)
    pool.stop_analysis("sid-1")
    updates.wait_done()  # ten minutes' budget: only the stop ends it in GUARD
    final = updates.updates[-1]
    assert final.done and final.depth >= 3 and len(final.lines) == 3
    assert final.lines == updates.updates[-2].lines  # the deepest finished depth's lines
    time.sleep(0.3)
    assert updates.updates[-1] is final  # nothing after the last update


def test_a_new_start_replaces_the_owners_job(pool: EnginePool) -> None:
    first, second = Updates(), Updates()
    pool.start_analysis("sid-1", "10.0.0.1", job(MIDDLEGAME), first)
    first.wait_for(lambda update: update.depth >= 2)
    pool.start_analysis("sid-1", "10.0.0.1", job(START, ["d2d4"], depth=4), second)
    first_done = first.wait_done()
    second.wait_done()
    assert first.updates[-1].lines  # the replaced job ends with its lines
    assert [update.depth for update in second.updates] == [1, 2, 3, 4, 4]
    # One lane per client: the new job started once the old one had let go of its lane.
    assert second.received[0][0] >= first_done
    assert_legal_lines(START, ["d2d4"], second.updates[-1])


def test_a_second_owner_of_the_same_client_replaces_the_first(pool: EnginePool) -> None:
    first, second = Updates(), Updates()
    pool.start_analysis("tab-1", "10.0.0.1", job(MIDDLEGAME), first)
    first.wait_for(lambda update: update.depth >= 2)
    pool.start_analysis("tab-2", "10.0.0.1", job(START, depth=3), second)
    first_done = first.wait_done()
    second.wait_done()
    assert second.received[0][0] >= first_done
    pool.stop_analysis("tab-1")  # no longer its job: nothing happens
    time.sleep(0.2)
    assert len([u for u in first.updates if u.done]) == 1


def test_analysis_never_holds_the_last_lane(pool: EnginePool) -> None:
    """Two workers: one client's analysis runs, another client's waits for it (the other
    lane stays free for games), then runs."""
    first, second = Updates(), Updates()
    pool.start_analysis("sid-1", "10.0.0.1", job(MIDDLEGAME, **UNENDING), first)
    first.wait_for(lambda update: update.depth >= 2)
    pool.start_analysis("sid-2", "10.0.0.2", job(START, depth=3), second)
    # A game's search gets the lane left free and gives it back, and the waiting job has not
    # run meanwhile (had it taken that lane, the game would have pre-empted it: a `done`).
    move = pool.run(pool.enqueue("game-1", "10.0.0.9", Search(START, [], 4, 1)))
    assert move is not None
    assert second.updates == []
    pool.stop_analysis("sid-1")
    first_done = first.wait_done()
    second.wait_done()
    assert second.received[0][0] >= first_done
    assert [update.depth for update in second.updates] == [1, 2, 3, 3]


def test_a_game_search_preempts_analysis_on_one_worker(one_worker: EnginePool) -> None:
    updates = Updates()
    one_worker.start_analysis("sid-1", "10.0.0.1", job(MIDDLEGAME, **UNENDING), updates)
    updates.wait_for(lambda update: update.depth >= 2)
    moves: list[str | None] = []
    ticket = one_worker.enqueue("game-1", "10.0.0.9", Search(MIDDLEGAME, [], 4, 1))
    search = threading.Thread(target=lambda: moves.append(one_worker.run(ticket)), daemon=True)
    search.start()
    # The analysis has ten minutes' budget: the game's move comes only if it was pre-empted.
    search.join(GUARD)
    assert moves, f"no move within {GUARD} s: the search waited for the analysis"
    move = moves[0]
    assert move is not None and chess.Move.from_uci(move) in chess.Board(MIDDLEGAME).legal_moves
    updates.wait_done()
    assert updates.updates[-1].lines  # pre-empted with its last lines
    assert updates.updates[-1].preempted  # which says so: the page may ask again
    # Not resumed: nothing more comes, and the lane is free for the next job.
    again = Updates()
    one_worker.start_analysis("sid-1", "10.0.0.1", job(START, depth=2), again)
    again.wait_done()
    assert len([u for u in updates.updates if u.done]) == 1


def test_a_queued_job_stopped_before_it_ran_ends_with_no_lines(one_worker: EnginePool) -> None:
    """Its lane taken by a game search: stopped while queued, it still gets its last update."""
    running, queued = Updates(), Updates()
    one_worker.start_analysis("sid-1", "10.0.0.1", job(MIDDLEGAME), running)
    running.wait_for(lambda update: update.depth >= 1)
    one_worker.start_analysis("sid-2", "10.0.0.2", job(START), queued)
    time.sleep(0.3)
    assert queued.updates == []
    one_worker.stop_analysis("sid-2")
    queued.wait_done()
    assert queued.updates == [AnalysisUpdate(0, 0, 0.0, True, [])]
    one_worker.stop_analysis("sid-1")
    running.wait_done()


def test_a_mated_position_answers_at_once_with_no_lines(pool: EnginePool) -> None:
    updates = Updates()
    mated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
    pool.start_analysis("sid-1", "10.0.0.1", job(mated), updates)
    updates.wait_done()
    assert updates.updates == [AnalysisUpdate(0, 0, 0.0, True, [])]
    assert pool.lanes.executors == [None, None]  # no worker was needed


@pytest.mark.parametrize(
    ("bad_job", "message"),
    [
        (AnalysisJob("junk", [], 3), "invalid FEN 'junk'"),
        (AnalysisJob(START, ["e2e5"], 3), "move 1 of the job: illegal move 'e2e5'"),
        (AnalysisJob(START, ["e2e4", "zz"], 3), "move 2 of the job: not a UCI move"),
        (AnalysisJob(START, [], 0), "multipv must be 1 to 10, got 0"),
        (AnalysisJob(START, [], 3, seconds=0), "seconds must be above 0"),
        (AnalysisJob(START, [], 3, depth=0), "depth must be 1 to 100"),
        (AnalysisJob("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", [], 3), "unplayable position"),
    ],
)
def test_a_bad_job_is_refused_and_changes_nothing(
    pool: EnginePool, bad_job: AnalysisJob, message: str
) -> None:
    running = Updates()
    pool.start_analysis("sid-1", "10.0.0.1", job(START, depth=40, seconds=5), running)
    running.wait_for(lambda update: update.depth >= 1)
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        pool.start_analysis("sid-1", "10.0.0.1", bad_job, Updates())
    assert not any(update.done for update in running.updates)  # the job goes on
    pool.stop_analysis("sid-1")
    running.wait_done()


def test_impossible_checks_are_analysed_when_allowed(pool: EnginePool) -> None:
    """Two checkers no move could give: refused as a game position, analysed when allowed."""
    fen = "4k3/8/8/8/8/8/3b1b2/4K3 w - - 0 1"
    with pytest.raises(ValueError):
        pool.start_analysis("sid-1", "10.0.0.1", AnalysisJob(fen, [], 3), Updates())
    updates = Updates()
    allowed = AnalysisJob(fen, [], 3, depth=3, allow_impossible_checks=True)
    pool.start_analysis("sid-1", "10.0.0.1", allowed, updates)
    updates.wait_done()
    lines = updates.updates[-1].lines
    assert len(lines) == 3  # of the king's five moves
    assert_legal_lines(fen, [], updates.updates[-1])


GEVENT_SCRIPT = """
from gevent import monkey
monkey.patch_all()
import json, sys, time, threading
import gevent
from server.engine.pool import AnalysisJob, EnginePool

def main():
    pool = EnginePool(1)
    updates, ticks = [], [0]
    def on_update(update):
        updates.append({"depth": update.depth, "done": update.done, "lines": len(update.lines),
                        "ticks": ticks[0]})
    def ticker():
        while True:
            ticks[0] += 1
            gevent.sleep(0.01)
    gevent.spawn(ticker)
    fen = sys.argv[1]
    job = AnalysisJob(fen, [], 3, seconds=600.0, depth=100)  # ended only by the stop
    pool.start_analysis("sid", "client", job, on_update)
    while not any(u["depth"] >= 4 for u in updates):
        gevent.sleep(0.01)
    pool.stop_analysis("sid")
    while not any(u["done"] for u in updates):
        gevent.sleep(0.005)
    pool.close()
    print(json.dumps({"updates": updates, "ticks": ticks[0]}))

if __name__ == "__main__":
    main()
"""


# Far more than the 3 updates in between; depths 2 to 4 of MIDDLEGAME take some 100 ms of the
# worker's time alone, 10 ticks' worth, and longer on a busy machine.
TICKS_WHILE_WAITING = 6


def test_under_gevent_the_updates_come_without_blocking_the_hub(tmp_path: Path) -> None:
    script = tmp_path / "gevent_analysis.py"
    script.write_text(GEVENT_SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), MIDDLEGAME],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    depths = [update["depth"] for update in report["updates"]]
    assert depths[:4] == [1, 2, 3, 4] and report["updates"][-1]["done"]
    assert all(update["lines"] == 3 for update in report["updates"])
    # The reader waits on the pipes cooperatively: while it waited for depths 2 to 4 the
    # ticker greenlet kept running, many times; a reader blocking the hub would have let it
    # run once per update at most.
    ticks = {u["depth"]: u["ticks"] for u in report["updates"] if not u["done"]}
    assert ticks[4] - ticks[1] > TICKS_WHILE_WAITING, report
