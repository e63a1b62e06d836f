"""How many connections the server holds: a few dozen per address, and never so many that it
runs out of file descriptors.

One address opening about 20,000 idle sockets used every descriptor of the process: every
other visitor's requests timed out, gevent logged an `EMFILE` traceback every second, and
memory grew by a gigabyte. lila-ws keeps a few sockets per visitor; a browser here opens one
Socket.IO connection per tab plus a few short HTTP ones, so `per_address` (CHESS_MAX_CONNECTIONS
per address, 64 by default) leaves room for a household behind one address while one visitor
can no longer take the server. The total is kept `RESERVED_DESCRIPTORS` below the process's
descriptor limit (raised to its hard limit at start), so the store, the engine workers' pipes
and the log always have descriptors of their own. A refused connection is answered with a 503
and closed, and logged once per address per minute.
"""

from __future__ import annotations

import logging
import resource
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# Descriptors kept for the server's own use: the database, engine workers, logs, imports.
RESERVED_DESCRIPTORS = 256
REFUSAL_LOG_SECONDS = 60.0
# Addresses remembered for the refusal log before old entries are dropped.
REFUSAL_LOG_SIZE = 10_000
REFUSAL_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s"
)


def raise_descriptor_limit() -> int:
    """Raise the soft limit of open files to the hard limit; the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


class RefusalLog:
    """Logs a refusal once per address per `interval` seconds."""

    def __init__(
        self, interval: float = REFUSAL_LOG_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.last: dict[str, float] = {}
        self.suppressed: dict[str, int] = {}

    def refused(self, address: str, why: str) -> None:
        now = self.clock()
        if now - self.last.get(address, -self.interval) < self.interval:
            self.suppressed[address] = self.suppressed.get(address, 0) + 1
            return
        if len(self.last) >= REFUSAL_LOG_SIZE:
            self._forget_before(now - self.interval)
        self.last[address] = now
        more = self.suppressed.pop(address, 0)
        tail = f" ({more} more refused since the last line)" if more else ""
        log.warning("refused a connection from %s: %s%s", address, why, tail)

    def _forget_before(self, moment: float) -> None:
        for address in [a for a, at in self.last.items() if at < moment]:
            del self.last[address]
            self.suppressed.pop(address, None)


class ConnectionCounter:
    """The open connections, per address and in all, within their limits."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address = per_address
        self.total = total
        self.open: dict[str, int] = {}
        self.count = 0

    def admit(self, address: str) -> str | None:
        """Count a new connection from `address`; None, or why it is refused (not counted)."""
        if self.count >= self.total:
            return f"the server holds its limit of {self.total} connections"
        held = self.open.get(address, 0)
        if held >= self.per_address:
            return f"the address holds its limit of {self.per_address} connections"
        self.open[address] = held + 1
        self.count += 1
        return None

    def release(self, address: str) -> None:
        """A connection `admit` counted has closed."""
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)
        self.count -= 1


def refusal_response(why: str) -> bytes:
    """A complete HTTP 503 response saying `why`, for a connection refused before reading it."""
    body = f"refused: {why}; close some connections and try again\n".encode()
    return REFUSAL_RESPONSE % (len(body), body)


def total_connections(limit: int) -> int:
    """The connections a process with `limit` descriptors may hold, RESERVED_DESCRIPTORS kept."""
    return max(16, limit - RESERVED_DESCRIPTORS)
