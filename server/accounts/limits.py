"""Limits on guessing passwords and making accounts, kept in memory per process.

Sign-in (and every request that checks a password or a recovery code) fails `too_many_attempts`
with the seconds to wait once its address, or the account it names, has failed too often: a
few failures are free (`free`), then each further one doubles the wait before the next try,
up to `cap` (`Failures`). A success clears the account's count, never the address's (a
sprayer signing in to an account of its own between guesses must not reset it; a quiet
period does, in `Failures.fail`). An address's wait is checked before its request's body is
read (server.accounts.http); an account's once its name is known. The per-account
count stops a guesser who spreads over many addresses; so that it cannot also keep the owner
out (one guess per wait would), a browser that signed in to the account before carries a
known-device cookie (server.accounts.devices) that skips the account's wait, never its
address's. Chosen over counting per (account, address): a guesser with many addresses would
then need a second, global per-account threshold, and that would lock the owner out again.

Sign-ups are limited per address by a token bucket (`AddressBuckets`, as games are), and so
are all requests that check a secret, right or wrong (server.accounts.service): each costs an
Argon2id hash, and a visitor with a valid password must not be able to spend the server's
cores on sign-ins either.

The tables are per process (not in the store): a cluster of N processes lets N times the
attempts through, which still bounds a guesser to a handful of tries a minute per account.
Each table keeps at most `MAX_KEYS` keys, the least recently failed dropped first.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from server.shared.buckets import RateLimited

MAX_KEYS = 100_000

Clock = Callable[[], float]


class TooManyAttempts(RateLimited):
    """`too_many_attempts`, with the seconds after which a retry will be heard."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message, retry_after)
        self.code = "too_many_attempts"


class Failures:
    """Failed attempts per key: `free` of them, then a wait of `delay` seconds doubled with
    each further failure, at most `cap`; a key quiet for `cap` seconds past its wait starts
    afresh."""

    def __init__(self, free: int, delay: float, cap: float, clock: Clock = time.monotonic) -> None:
        self.free = free
        self.delay = delay
        self.cap = cap
        self.clock = clock
        self.failed: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> count, when
        self.lock = threading.Lock()

    def wait(self, key: str) -> float:
        """Seconds before `key` may try again (0: now)."""
        with self.lock:
            count, when = self.failed.get(key, (0, 0.0))
            if count < self.free:
                return 0.0
            return max(0.0, when + self._delay(count) - self.clock())

    def check(self, key: str, what: str) -> None:
        """Raise TooManyAttempts while `key` must wait; `what` names it in the message."""
        wait = self.wait(key)
        if wait > 0:
            raise TooManyAttempts(
                f"too many failed sign-ins {what}: try again in {math.ceil(wait)} s", wait
            )

    def fail(self, key: str) -> None:
        now = self.clock()
        with self.lock:
            count, when = self.failed.pop(key, (0, 0.0))
            if count >= self.free and now - when > self._delay(count) + self.cap:
                count = 0  # long quiet: a fresh start
            self.failed[key] = (count + 1, now)
            if len(self.failed) > MAX_KEYS:
                self.failed.popitem(last=False)

    def forget(self, key: str) -> None:
        with self.lock:
            self.failed.pop(key, None)

    def _delay(self, count: int) -> float:
        return min(self.cap, self.delay * 2.0 ** min(count - self.free, 32))
