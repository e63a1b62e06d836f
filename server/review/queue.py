"""The review queue's order and size: the least served address first, bounded by drain time.

A count of reviews says little of how long the queue takes: a hundred 200-ply games are hours
of engine time, a hundred 10-ply ones a few minutes. So each review waiting or running here is
weighed by its estimated seconds: its positions times the seconds a position actually took the
reviews done lately here (`Throughput`: the last `RECENT` reviews' wall time over their
positions, pre-emptions and a loaded machine included), or, before any was done, the engine's
own estimate (`ReviewEngine.position_seconds`). A fixed estimate was 13 times off on a loaded
machine (issue 33). The queue refuses what would take it past `limit` seconds to drain, and one
address may hold at most `share` seconds of it. Of the addresses with reviews waiting, the one
served the fewest reviews since it last had none goes first (then the one waiting longest), so
a newcomer's first review goes before an address's tenth, and addresses with as many take turns
as the engine pool hands lanes to clients (server.engine.pool). The queue is this process's
(its runner's); in a cluster each process drains its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from dataclasses import dataclass

# Reviews whose measured time makes the estimate.
RECENT = 8


@dataclass(frozen=True)
class QueuedReview:
    """One review this process will run or runs: whose it is and its positions to evaluate."""

    id: str
    address: str
    positions: int


class Throughput:
    """Seconds a position takes: measured over the last `RECENT` reviews, else `estimate`."""

    def __init__(self, estimate: float) -> None:
        self.estimate = estimate
        self.recent: deque[tuple[int, float]] = deque(maxlen=RECENT)  # positions, seconds

    def add(self, positions: int, seconds: float) -> None:
        if positions > 0 and seconds >= 0:
            self.recent.append((positions, seconds))

    def position_seconds(self) -> float:
        positions = sum(count for count, _ in self.recent)
        if not positions:
            return self.estimate
        return sum(seconds for _, seconds in self.recent) / positions


class DrainLimitError(Exception):
    """Adding a review would pass a bound: `what` is "queue" or "address"."""

    def __init__(self, what: str, seconds: float, limit: float) -> None:
        super().__init__(f"{seconds:.0f} s of reviews ({what}) past {limit:.0f} s")
        self.what = what
        self.seconds = seconds
        self.limit = limit


class FairQueue:
    """Reviews waiting (per address, oldest first) and running, with their drain times."""

    def __init__(self, position_seconds: float = 1.0) -> None:
        self.lock = threading.Lock()
        self.throughput = Throughput(position_seconds)
        # Reviews taken per address since it last had none waiting or running.
        self.served: dict[str, int] = {}
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

    def measured(self, positions: int, seconds: float) -> None:
        """A review here evaluated `positions` positions in `seconds` of wall time."""
        with self.lock:
            self.throughput.add(positions, seconds)

    def _seconds(self, address: str | None) -> float:
        queued = [*self.running.values()]
        queued += [review for reviews in self.waiting.values() for review in reviews.values()]
        positions = sum(r.positions for r in queued if address is None or r.address == address)
        return positions * self.throughput.position_seconds()

    def check(self, review: QueuedReview, limit: float, share: float) -> None:
        """DrainLimitError when adding `review` would make its address's reviews take more
        than `share` seconds, or the whole queue more than `limit`; a review that would be its
        address's only one, or the queue's, always fits (however long its game)."""
        with self.lock:
            seconds = review.positions * self.throughput.position_seconds()
            mine = self._seconds(review.address)
            if mine > 0 and mine + seconds > share:
                raise DrainLimitError("address", mine + seconds, share)
            total = self._seconds(None)
            if total > 0 and total + seconds > limit:
                raise DrainLimitError("queue", total + seconds, limit)

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
        """The next review to run (the oldest of the least served address, the longest in
        the turns among equals), now running."""
        with self.lock:
            if not self.turns:
                return None
            address = min(self.turns, key=lambda waiting: self.served.get(waiting, 0))
            del self.turns[address]
            self.served[address] = self.served.get(address, 0) + 1
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
            else:  # nothing left of it here: its next review is a newcomer's again
                self.served.pop(review.address, None)

    def _is_running(self, address: str) -> bool:
        return any(review.address == address for review in self.running.values())
