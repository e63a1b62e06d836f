"""The review queue holds up against its visitors (issue 26, points 6 and 7), on real servers
on 127.0.0.1 with our own engine on one worker: reviews are run in turn between addresses (a
second address's review is done before the first address's batch, by the order of the
`review_update` pushes), the queue refuses by the time it would take to drain (a long game
refused `queue_full` while a short one still fits, an address past its share `rate_limited`,
and past the store's count of ten),
and a review still completes while another visitor restarts the analysis board every few
seconds. Orders of events are asserted, never durations; the waits are generous bounds."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.test_server_engine_events import EngineClient
from tests.test_server_review import (
    DONE_SECONDS,
    TIMED,
    ReviewClient,
    post,
    random_pgn,
    wait_review,
)

pytestmark = pytest.mark.server

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# One worker: reviews and the analysis board compete for its one lane. Addresses by
# X-Forwarded-For, which the server believes behind one trusted proxy.
ONE_WORKER = {**TIMED, "CHESS_ENGINE_WORKERS": "1", "CHESS_TRUSTED_PROXIES": "1"}
STARVED_BOUND = 300.0  # seconds: the review alone takes about 8 s of the one worker


@contextmanager
def serving(tmp_path: Path, **env: str) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "instance", env={**ONE_WORKER, **env})
    live.start()
    try:
        yield live
    finally:
        live.stop()


def ask(url: str, address: str, pgn: str) -> Any:
    return post(url, {"pgn": pgn}, headers={"X-Forwarded-For": address})


def asked(url: str, address: str, pgn: str) -> str:
    response = ask(url, address, pgn)
    assert response.status_code == 201, response.text
    review_id: str = response.json()["id"]
    return review_id


def completion_order(watcher: ReviewClient, ids: list[str]) -> list[str]:
    """The reviews in the order they were done: their `done` pushes come from the one runner
    that runs them one at a time, in that order (one done before it was watched comes first)."""
    done = []
    for review_id in ids:
        reply = watcher.call("review_watch", {"id": review_id})
        assert reply["ok"], reply
        if reply["review"]["status"] == "done":
            done.append(review_id)
    deadline = time.monotonic() + DONE_SECONDS * len(ids)
    with watcher.condition:
        while len(done) < len(ids):
            for update in watcher.updates:  # a review may push `done` more than once
                if update["status"] == "done" and update["id"] not in done:
                    done.append(update["id"])
            assert time.monotonic() < deadline, f"done {done} of {ids}"
            watcher.condition.wait(1.0)
    assert all(u["status"] != "failed" for u in watcher.updates), watcher.updates[-1:]
    return done


def test_a_second_address_waits_for_one_review_not_for_a_batch(tmp_path: Path) -> None:
    """One address queues four reviews, then another one: the newcomer's review is done before
    every one of the first address's but the one it found running (FIFO had it last)."""
    with serving(tmp_path) as live:
        batch = [asked(live.url, "10.0.0.1", random_pgn(seed, 20)) for seed in range(40, 44)]
        newcomer = asked(live.url, "10.0.0.2", random_pgn(50, 20))
        watcher = ReviewClient(live.url)
        try:
            order = completion_order(watcher, [*batch, newcomer])
        finally:
            watcher.close()
        assert order.index(newcomer) < min(order.index(later) for later in batch[1:]), order


def test_the_queue_refuses_by_drain_time(tmp_path: Path) -> None:
    """0.25 s a position on one worker, the queue bounded to 40 s and an address to 30 s: a
    100-ply game (101 positions, 25.25 s) fits alone; its address's next 20-ply game would be
    30.5 s of its own (refused, `rate_limited`); another address's 80-ply game would make the
    queue 45.5 s (refused, `queue_full`, naming the plies) while its 40-ply game (35.5 s) fits.
    A refused review is not stored: asking again gets the same refusal."""
    limits = {"CHESS_REVIEW_QUEUE_SECONDS": "40", "CHESS_REVIEW_ADDRESS_SECONDS": "30"}
    with serving(tmp_path, **limits) as live:
        long_id = asked(live.url, "10.0.0.1", random_pgn(60, 100))
        message = refused(ask(live.url, "10.0.0.1", random_pgn(61, 20)), 429, "rate_limited")
        assert "your address" in message and "30 s" in message, message
        too_long = random_pgn(62, 80)
        for _ in range(2):
            message = refused(ask(live.url, "10.0.0.2", too_long), 503, "queue_full")
            assert "80 plies" in message and "40 s" in message, message
        short_id = asked(live.url, "10.0.0.2", random_pgn(63, 40))
        assert wait_review(live.url, long_id)["progress"]["total"] == 101
        assert wait_review(live.url, short_id)["progress"]["total"] == 41
        # Drained: the game refused a moment ago fits now.
        assert ask(live.url, "10.0.0.2", too_long).status_code == 201


def test_an_address_has_ten_reviews_pending_at_most(tmp_path: Path) -> None:
    """The store's count stays as a backstop behind the drain time (lifted here): ten
    reviews of one address queued or running, the eleventh refused."""
    with serving(tmp_path, CHESS_REVIEW_ADDRESS_SECONDS="1000000") as live:
        for seed in range(80, 90):
            asked(live.url, "10.0.0.3", random_pgn(seed, 40))
        message = refused(ask(live.url, "10.0.0.3", random_pgn(90, 40)), 429, "rate_limited")
        assert "10 reviews" in message, message
        asked(live.url, "10.0.0.4", random_pgn(90, 40))  # another address's still fits


def test_a_review_completes_while_the_analysis_board_restarts_in_a_loop(tmp_path: Path) -> None:
    """One visitor restarts the analysis board every 3 s on a one-worker server; another's
    30-ply review still completes (it used to stay at 0/31), and the board keeps its lines."""
    with serving(tmp_path) as live:
        review_id = asked(live.url, "10.0.0.1", random_pgn(70, 30))
        wait_review(live.url, review_id, "running")
        board = EngineClient(live.url)
        try:
            deadline = time.monotonic() + STARVED_BOUND
            jobs = []
            for index in range(10_000):
                state = wait_review_status(live.url, review_id)
                if state == "done":
                    break
                assert time.monotonic() < deadline, f"the review is still {state}"
                first = ("e2e4", "d2d4", "c2c4", "g1f3")[index % 4]
                reply = board.call("engine_start", {"fen": START, "moves": [first], "multipv": 1})
                assert reply["ok"], reply
                jobs.append(reply["job"])
                time.sleep(3)  # the attacker's pace, not an assertion
            assert len(jobs) >= 2, "the review ended before the analysis board could restart"
            assert board.wait_lines(jobs[-1])["lines"]  # the board is served too
        finally:
            board.close()
        review = wait_review(live.url, review_id)
        assert review["progress"] == {"done": 31, "total": 31}


def wait_review_status(url: str, review_id: str) -> str:
    """The review's status now (never `failed`)."""
    response = requests.get(f"{url}/api/reviews/{review_id}", timeout=15)
    assert response.status_code == 200, response.text
    status: str = response.json()["status"]
    assert status != "failed", response.text
    return status
