"""Token buckets: the rate limits every feature and the edge share.

A `TokenBucket` allows `capacity` events at once, then `rate` a second; `AddressBuckets` keeps
one per client address (creating games, sign-ups, reviews, drills ...), forgets those idle long
enough to be full again and caps how many addresses it remembers, so a client with many
addresses cannot grow it without end. A refusal is `RateLimited`, with the seconds to wait.
Which address a request comes from is the edge's to say (server.edge.clients).
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from chesscore.words import say
from server.shared.errors import N_, RequestError

# At most this many addresses keep a bucket; the least recently seen go first.
MAX_ADDRESSES = 100_000

Clock = Callable[[], float]


class TokenBucket:
    """`capacity` tokens at once, then `rate` per second."""

    def __init__(self, capacity: float, rate: float, clock: Clock = time.monotonic) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = capacity
        self.updated = clock()
        self.lock = threading.Lock()  # a connection's events run concurrently

    def allow(self, cost: float = 1) -> bool:
        """Take `cost` tokens if there are that many."""
        with self.lock:
            now = self.clock()
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
            if self.tokens < cost:
                return False
            self.tokens -= cost
            return True

    def give_back(self, cost: float = 1) -> None:
        """Return tokens taken for what was then not done (a sign-up that made no account)."""
        with self.lock:
            self.tokens = min(self.capacity, self.tokens + cost)

    def wait_time(self) -> float:
        """Seconds until a token is there (0 if one is)."""
        with self.lock:
            tokens = min(self.capacity, self.tokens + (self.clock() - self.updated) * self.rate)
            return max(0.0, (1 - tokens) / self.rate)


class RateLimited(RequestError):
    """`rate_limited`, with the seconds after which a retry will pass (HTTP Retry-After)."""

    def __init__(self, message: str, retry_after: float, **params: object) -> None:
        super().__init__("rate_limited", message, **params)
        self.retry_after = max(1, math.ceil(retry_after))


class AddressBuckets:
    """A bucket per client address: `burst` at once, then one every `interval` seconds."""

    def __init__(
        self,
        burst: int,
        interval: float,
        clock: Clock = time.monotonic,
        max_addresses: int = MAX_ADDRESSES,
    ) -> None:
        self.burst = burst
        self.interval = interval
        self.clock = clock
        self.max_addresses = max_addresses
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()  # least recently seen first
        self.lock = threading.Lock()

    def take(self, address: str, what: str) -> None:
        """Take a token for `address`, or raise RateLimited naming `what` was limited (a
        plural noun marked `N_`: "chat lines")."""
        bucket = self._bucket(address)
        if not bucket.allow():
            self._refuse(bucket, what)

    def check(self, address: str, what: str) -> None:
        """Raise RateLimited as `take` would, but take nothing (the token is taken once what
        it pays for is sure to be done)."""
        bucket = self._bucket(address)
        if bucket.wait_time() > 0:
            self._refuse(bucket, what)

    def give_back(self, address: str) -> None:
        """Return the token `take` took for what was then not done."""
        self._bucket(address).give_back()

    def _bucket(self, address: str) -> TokenBucket:
        with self.lock:
            self._forget_idle()
            bucket = self.buckets.get(address)
            if bucket is None:
                bucket = TokenBucket(self.burst, 1 / self.interval, self.clock)
                self.buckets[address] = bucket
                if len(self.buckets) > self.max_addresses:
                    self.buckets.popitem(last=False)
            self.buckets.move_to_end(address)
        return bucket

    def _refuse(self, bucket: TokenBucket, what: str) -> None:
        # `what` is a message of its own (marked `N_` by the caller), said in the refusal's
        # language with it.
        raise RateLimited(
            N_(
                "too many {what} from your address: {burst} at once, then one every "
                "{interval} s; retry in {wait} s"
            ),
            bucket.wait_time(),
            what=say(what),
            burst=self.burst,
            interval=f"{self.interval:g}",
            wait=math.ceil(bucket.wait_time()),
        )

    def _forget_idle(self) -> None:
        """Drop buckets unused long enough to be full again: a fresh one is the same."""
        refilled = self.clock() - self.burst * self.interval
        while self.buckets:
            oldest = next(iter(self.buckets.values()))
            if oldest.updated > refilled:
                return
            self.buckets.popitem(last=False)
