"""A token bucket per connection: short bursts allowed, floods answered `rate_limited`.

Each connection may send `capacity` events at once, then `rate` per second. The bucket refills
continuously; it costs two floats per connection and no timer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

BURST = 20
PER_SECOND = 10.0


class TokenBucket:
    def __init__(
        self,
        capacity: float = BURST,
        rate: float = PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = capacity
        self.updated = clock()
        self.lock = threading.Lock()  # a connection's events run concurrently

    def allow(self) -> bool:
        """Take one token if there is one."""
        with self.lock:
            now = self.clock()
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
            self.updated = now
            if self.tokens < 1:
                return False
            self.tokens -= 1
            return True
