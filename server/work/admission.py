"""Who may make the work pool work, decided before anything of a request is parsed.

Each address has a bucket of `BURST` work units, refilled at `UNITS_PER_SECOND`; a request
costs one unit plus one per `UNIT_BYTES` of what it makes the server read (its body, or the
stored tree it asks for), so a 1 MB PGN costs 17 units and an address sends one about every
17 s once its burst is spent, while a small request costs about one. An address also has at
most one job in flight: its next request is refused until the answer of the last one is out,
so one address holds one worker at most and never fills the pool's queue. Both refusals are
`rate_limited`, with the seconds to wait, before the body is even decoded: a flood costs the
server a socket read and a table look-up per request.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from server.shared.buckets import RateLimited, TokenBucket
from server.shared.errors import N_
from server.shared.slots import Slot

BURST = 40.0
UNITS_PER_SECOND = 1.0
UNIT_BYTES = 64 * 1024
# At most this many addresses keep a bucket; the least recently seen go first.
MAX_ADDRESSES = 100_000


def cost_of(size: int) -> float:
    """The units a request that makes the server read `size` bytes costs."""
    return 1 + size / UNIT_BYTES


class WorkAdmission:
    """The per-address buckets and jobs in flight of the work pool."""

    def __init__(self, burst: float = BURST, rate: float = UNITS_PER_SECOND) -> None:
        self.burst = burst
        self.rate = rate
        self.buckets: dict[str, TokenBucket] = {}  # insertion order: least recently seen first
        self.in_flight: set[str] = set()
        self.lock = threading.Lock()

    @contextmanager
    def admit(self, address: str, size: int) -> Iterator[None]:
        """Hold `address`'s one job in flight for a request reading `size` bytes, or raise
        RateLimited: a job of the address still running, or its bucket short of the cost."""
        cost = min(cost_of(size), self.burst)
        with self.lock:
            if address in self.in_flight:
                raise RateLimited(
                    N_(
                        "one large request at a time from your address: wait for the answer to"
                        " the last one"
                    ),
                    1,
                )
            bucket = self._bucket(address)
            if not bucket.allow(cost):
                wait = math.ceil((cost - bucket.tokens) / self.rate)
                raise RateLimited(
                    N_(
                        "too much work asked from your address: this request costs {cost} units"
                        " of {burst}, refilled at {rate} a second; retry in {wait} s"
                    ),
                    wait,
                    cost=f"{cost:.0f}",
                    burst=f"{self.burst:.0f}",
                    rate=f"{self.rate:g}",
                    wait=wait,
                )
            self.in_flight.add(address)
        try:
            yield
        finally:
            with self.lock:
                self.in_flight.discard(address)

    def _bucket(self, address: str) -> TokenBucket:
        bucket = self.buckets.pop(address, None)
        if bucket is None:
            bucket = TokenBucket(self.burst, self.rate)
            if len(self.buckets) >= MAX_ADDRESSES:
                del self.buckets[next(iter(self.buckets))]
        self.buckets[address] = bucket  # moved to the end: seen last
        return bucket


WORK_ADMISSION: Slot[WorkAdmission] = Slot("work admission")
