"""The work pool (server.work.pool) on its own: real worker processes, jobs from this module.

What a job returns or refuses comes back as it was; a bug in a job is answered `internal` and
its worker lives on; a job past its bound is answered `too_slow` and its worker replaced; jobs
beyond the workers and the room to wait are refused `busy` at once. Nothing is timed but the
pool's own bound, which the sleeping job exceeds many times over.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from server.shared.errors import RequestError
from server.work.pool import WorkPool

BOUND_SECONDS = 10.0


def refuse(code: str) -> None:
    raise RequestError(code, f"refused with {code}")


def fail() -> None:
    raise ValueError("a bug")


def sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
def pool() -> Iterator[WorkPool]:
    work = WorkPool(1, 1, BOUND_SECONDS)
    yield work
    work.close()


def test_a_value_or_a_refusal_comes_back_and_a_bug_leaves_the_worker_alive(pool: WorkPool) -> None:
    first = pool.run(os.getpid)
    assert first != os.getpid()
    with pytest.raises(RequestError) as refused:
        pool.run(refuse, "bad_pgn")
    assert (refused.value.code, refused.value.message) == ("bad_pgn", "refused with bad_pgn")
    with pytest.raises(RequestError) as failed:
        pool.run(fail)
    assert failed.value.code == "internal"
    assert pool.run(os.getpid) == first


def test_a_job_past_its_bound_is_stopped_and_its_worker_replaced(pool: WorkPool) -> None:
    first = pool.run(os.getpid)
    with pytest.raises(RequestError) as slow:
        pool.run(sleep_then_pid, 100 * BOUND_SECONDS)
    assert slow.value.code == "too_slow"
    assert pool.run(os.getpid) not in (first, os.getpid())


def test_jobs_beyond_the_workers_and_the_room_to_wait_are_refused_busy(pool: WorkPool) -> None:
    pool.run(os.getpid)  # the worker is up
    answers: list[object] = []

    def run_slow() -> None:
        try:
            answers.append(pool.run(sleep_then_pid, 0.5))
        except RequestError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=run_slow) for _ in range(2)]
    for thread in threads:
        thread.start()
    while pool.admitted < 2:  # one runs, one waits: the pool is full
        time.sleep(0.01)
    with pytest.raises(RequestError) as busy:
        pool.run(os.getpid)
    assert busy.value.code == "busy"
    for thread in threads:
        thread.join()
    assert all(isinstance(answer, int) for answer in answers), answers
