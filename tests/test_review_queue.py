"""The review queue's order and estimates in process (server/review/queue.py): a newcomer's
first review goes before the tenth of an address that keeps its reviews coming, addresses
served alike take turns, and the drain time is estimated from the seconds a position took the
reviews done lately, not from the engine's own guess."""

from __future__ import annotations

import pytest

from server.review.queue import RECENT, DrainLimitError, FairQueue, QueuedReview


def run_one(queue: FairQueue) -> QueuedReview:
    taken = queue.take()
    assert taken is not None
    queue.finish(taken.id)
    return taken


def test_a_newcomers_first_review_goes_before_a_flooders_tenth() -> None:
    queue = FairQueue()
    for address in ("flood-1", "flood-2"):
        for index in range(12):
            queue.add(QueuedReview(f"{address}:{index}", address, 20))
    served = [run_one(queue).address for _ in range(18)]  # nine of each, in turn
    assert served == ["flood-1", "flood-2"] * 9
    queue.add(QueuedReview("newcomer:0", "newcomer", 20))
    assert run_one(queue).id == "newcomer:0"
    assert [run_one(queue).address for _ in range(2)] == ["flood-1", "flood-2"]


def test_an_address_whose_reviews_all_ran_comes_back_as_a_newcomer() -> None:
    queue = FairQueue()
    queue.add(QueuedReview("a:0", "a", 10))
    run_one(queue)
    for index in range(3):
        queue.add(QueuedReview(f"b:{index}", "b", 10))
    run_one(queue)  # b's first
    queue.add(QueuedReview("a:1", "a", 10))
    assert run_one(queue).id == "a:1"  # a had none left: its count started again


def test_the_drain_time_is_estimated_from_the_reviews_done_lately() -> None:
    queue = FairQueue(position_seconds=0.25)  # the engine's own guess
    waiting = QueuedReview("a:0", "a", 100)
    queue.add(waiting)
    assert queue.drain_seconds() == pytest.approx(25.0)
    queue.measured(20, 60.0)  # a 20-position review took a minute: 3 s a position
    assert queue.drain_seconds() == pytest.approx(300.0)
    with pytest.raises(DrainLimitError) as refused:
        queue.check(QueuedReview("b:0", "b", 20), limit=200.0, share=1000.0)
    assert refused.value.seconds == pytest.approx(360.0)
    for _ in range(RECENT):  # the machine is quiet again: only the recent reviews count
        queue.measured(100, 10.0)
    assert queue.drain_seconds() == pytest.approx(10.0)
    queue.check(QueuedReview("b:0", "b", 20), limit=200.0, share=1000.0)
