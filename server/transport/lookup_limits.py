"""The rate limit of the look-up events (preview, describe), kept apart from the actions' limit.

A player dragging a piece sends a preview each time it passes over a new target square, and a
screen-reader user moving the focus across the board sends a describe per square: bursts of
cheap read-only requests. Drawn from the connection's one bucket (20 at once, then 10 a
second), a long drag would leave the move that ends it refused as `rate_limited`. So look-ups
draw from a bucket of their own per connection, larger because they are cheap and cached, and
a move is never refused because of them. Refused look-ups still count towards closing a
connection that floods.
"""

from __future__ import annotations

import threading

from server.transport.ratelimit import TokenBucket

LOOKUP_BURST = 40
LOOKUP_PER_SECOND = 20.0


class LookupLimits:
    """One look-up bucket per connection id, made on its first look-up."""

    def __init__(self) -> None:
        self.buckets: dict[str, TokenBucket] = {}
        self.lock = threading.Lock()

    def allow(self, sid: str) -> bool:
        with self.lock:
            bucket = self.buckets.get(sid)
            if bucket is None:
                bucket = self.buckets[sid] = TokenBucket(LOOKUP_BURST, LOOKUP_PER_SECOND)
        return bucket.allow()

    def close(self, sid: str) -> None:
        with self.lock:
            self.buckets.pop(sid, None)
