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
and closed, and logged once per address per minute. `ConnectionGate` is this module's one entry
for both servers, gevent's (server.edge.http_server) and Werkzeug's in threading mode
(server.edge.threaded_server); `Deadline` is their one bound on a request's time.
"""

from __future__ import annotations

import contextlib
import logging
import resource
import socket
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

# Seconds a connection may stay silent, and a request's head (or body) may take in all.
IDLE_SECONDS = 60.0
# Seconds accepting pauses when the process has no descriptor left.
ACCEPT_PAUSE = 0.5
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


class ConnectionGate:
    """The connections a server holds (a `ConnectionCounter` behind a lock, for servers that
    accept on one thread and close on others), the refused ones answered and logged."""

    def __init__(self, per_address: int, total: int) -> None:
        self.counter = ConnectionCounter(per_address, total)
        self.refusals = RefusalLog()
        self.lock = threading.Lock()

    def admit(self, peer: str, sock: socket.socket) -> bool:
        """Whether the new connection `sock` from `peer` is held; if not, it was answered 503
        and closed."""
        with self.lock:
            why = self.counter.admit(peer)
            if why is not None:
                self.refusals.refused(peer, why)
        if why is None:
            return True
        with contextlib.suppress(OSError):
            sock.sendall(refusal_response(why))
        sock.close()
        return False

    def release(self, peer: str) -> None:
        """A connection `admit` held has closed."""
        with self.lock:
            self.counter.release(peer)

    def out_of_descriptors(self, error: OSError) -> None:
        """Accepting failed for want of descriptors (logged once a minute)."""
        with self.lock:
            self.refusals.refused("*", f"no file descriptor left to accept with ({error})")


def make_gate(per_address: int) -> ConnectionGate:
    """The gate of a server holding `per_address` connections per address (0: no limit per
    address), as many as the process's descriptors allow in all (raised to the hard limit)."""
    total = total_connections(raise_descriptor_limit())
    return ConnectionGate(per_address or total, total)


def peer_of(address: object) -> str:
    """The address part of a socket's peer (`("1.2.3.4", 5678)`), or "?"."""
    return str(address[0]) if isinstance(address, tuple) and address else "?"


class Deadline:
    """A bound on a request's time in all (a socket timeout restarts with every byte: one byte
    every 30 s held a connection for ever). `start` begins it; `left` is the time left, and
    raises TimeoutError once none is."""

    def __init__(self, seconds: float, what: str) -> None:
        self.seconds = seconds
        self.what = what
        self.ends: float | None = None

    def start(self) -> None:
        self.ends = time.monotonic() + self.seconds

    def stop(self) -> None:
        self.ends = None

    def left(self) -> float:
        if self.ends is None:
            self.start()
        assert self.ends is not None
        left = self.ends - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{self.what} did not arrive within {self.seconds:g} s")
        return left
