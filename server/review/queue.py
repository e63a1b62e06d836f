"""The review queue's order and size: round-robin between addresses, bounded by drain time.

A count of reviews says little of how long the queue takes: a hundred 200-ply games are hours
of engine time, a hundred 10-ply ones a few minutes. So each review waiting or running here is
weighed by its estimated seconds (its positions times the engine's cost a position,
`ReviewEngine.position_seconds`), the queue refuses what would take it past `limit` seconds to
drain, and one address may hold at most `share` seconds of it. Reviews are taken in turn
between addresses, as the engine pool hands lanes to clients (server.engine.pool): an address
goes to the back of the turns when its review ends, so a newcomer waits for the review running
and one of each other address waiting, not for the whole of another's batch. The queue is
this process's (its runner's); in a cluster each process drains its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass


@dataclass(frozen=True)
class QueuedReview:
    """One review this process will run or runs: whose it is and its estimated seconds."""

    id: str
    address: str
    seconds: float


class DrainLimitError(Exception):
    """Adding a review would pass a bound: `what` is "queue" or "address"."""

    def __init__(self, what: str, seconds: float, limit: float) -> None:
        super().__init__(f"{seconds:.0f} s of reviews ({what}) past {limit:.0f} s")
        self.what = what
        self.seconds = seconds
        self.limit = limit


class FairQueue:
    """Reviews waiting (per address, oldest first) and running, with their drain times."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[str, OrderedDict[str, QueuedReview]] = {}  # address -> its reviews
        # Addresses with reviews waiting and none running, next to go first: an address goes to
        # the back when its review ends, so a newcomer waits for the running review at most.
        self.turns: OrderedDict[str, None] = OrderedDict()
        self.running: dict[str, QueuedReview] = {}

    def __len__(self) -> int:
        with self.lock:
            return sum(len(reviews) for reviews in self.waiting.values())

    def drain_seconds(self, address: str | None = None) -> float:
        """The estimated seconds of what waits and runs (of `address` only, when given)."""
        with self.lock:
            return self._seconds(address)

    def _seconds(self, address: str | None) -> float:
        queued = [*self.running.values()]
        queued += [review for reviews in self.waiting.values() for review in reviews.values()]
        return sum(r.seconds for r in queued if address is None or r.address == address)

    def check(self, review: QueuedReview, limit: float, share: float) -> None:
        """DrainLimitError when adding `review` would make its address's reviews take more
        than `share` seconds, or the whole queue more than `limit`; a review that would be its
        address's only one, or the queue's, always fits (however long its game)."""
        with self.lock:
            mine = self._seconds(review.address)
            if mine > 0 and mine + review.seconds > share:
                raise DrainLimitError("address", mine + review.seconds, share)
            total = self._seconds(None)
            if total > 0 and total + review.seconds > limit:
                raise DrainLimitError("queue", total + review.seconds, limit)

    def add(self, review: QueuedReview) -> None:
        """Queue `review` behind its address's others (one queued or running already is left
        where it is)."""
        with self.lock:
            if review.id in self.running or any(review.id in r for r in self.waiting.values()):
                return
            self.waiting.setdefault(review.address, OrderedDict())[review.id] = review
            if not self._is_running(review.address):
                self.turns.setdefault(review.address, None)

    def take(self) -> QueuedReview | None:
        """The next review to run (the oldest of the address whose turn it is), now running."""
        with self.lock:
            if not self.turns:
                return None
            address, _ = self.turns.popitem(last=False)
            reviews = self.waiting[address]
            _, review = reviews.popitem(last=False)
            if not reviews:
                del self.waiting[address]
            self.running[review.id] = review
            return review

    def finish(self, review_id: str) -> None:
        """The review is no longer run here (done, failed, or taken by another process): its
        address, if it has more waiting, goes to the back of the turns."""
        with self.lock:
            review = self.running.pop(review_id, None)
            if review is None or self._is_running(review.address):
                return
            if review.address in self.waiting:
                self.turns[review.address] = None

    def _is_running(self, address: str) -> bool:
        return any(review.address == address for review in self.running.values())
