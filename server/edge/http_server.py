"""The gevent WSGI server the process listens with, closed to two cheap attacks.

gevent's `WSGIServer` waits for a client's next bytes for as long as the client likes: a
visitor who opens connections and sends half a request line, or a body shorter than its
Content-Length, holds a socket and an open file each until it hangs up (300 such connections
were all still open after 90 s). Every connection here gets a read timeout instead: a
connection that sends nothing for `IDLE_SECONDS` is closed. Engine.IO pings each WebSocket
every 25 s and its client answers, and a long-polling GET waits on the server, not on a read,
so no live client comes near it. gevent also writes a line for every malformed request
("Invalid request ... invalid literal for int()"), 2,000 lines in 2 s from one client; those
go through the process-wide log throttle of the transport guard.

gevent-websocket reads a frame's whole payload, then unmasks it byte by byte in Python, before
anyone can look at its size: one 16 MiB frame stalled every other client for 2.5 s, a 1 GiB
frame for ten minutes and 2 GB of memory. Here a WebSocket reads through `BoundedStream`, which
refuses a read that would take a message past `MAX_FRAME_BYTES` before it reads a byte of it:
the frame header's length decides, the payload is never read, and the connection is closed.

Flask-SocketIO's `run` builds the same server but cannot take a handler class of ours, so the
server is built here as `run` builds it (gevent-websocket's handler, no access log).
"""

from __future__ import annotations

import contextlib
import errno
import struct
from collections.abc import Callable
from typing import Any

import gevent
from flask import Flask
from gevent import pywsgi
from geventwebsocket.exceptions import FrameTooLargeException, WebSocketError
from geventwebsocket.handler import WebSocketHandler
from geventwebsocket.websocket import Stream, WebSocket

from server.edge.connection_limits import (
    ACCEPT_PAUSE,
    IDLE_SECONDS,
    ConnectionGate,
    Deadline,
    make_gate,
    peer_of,
)
from server.edge.guard import LogThrottle
from server.edge.security import MAX_FRAME_BYTES
from server.edge.wsgi import Edge

# A close frame's payload: RFC 6455's status 1009, "message too big", and a reason.
TOO_BIG_CLOSE_FRAME = struct.pack("!H", 1009) + b"message too big"
# One for the whole process: a flood of oversized frames is a few lines, not one per frame.
FRAME_LOG = LogThrottle()


class MessageTooBig(FrameTooLargeException):  # type: ignore[misc]
    """A WebSocket message whose frame headers announce more than the limit."""


class BoundedStream:
    """gevent-websocket's stream (`read`, `write`) with a budget of bytes per message: a read
    past it raises `MessageTooBig` before anything is read, and gevent-websocket closes the
    connection (from a header read, as a protocol error; from a payload read, as a dead
    socket). Headers count too, so a message split into many small frames is bounded as well."""

    __slots__ = ("address", "budget", "handler", "limit", "read_socket", "refused", "write")

    def __init__(self, handler: Any, limit: int) -> None:
        stream = Stream(handler)
        self.handler = handler
        self.read_socket = stream.read
        self.write = stream.write
        self.limit = limit
        self.budget = limit
        self.address = handler.client_address[0] if handler.client_address else "?"
        self.refused = False

    def read(self, size: int) -> bytes:
        if size > self.budget:
            FRAME_LOG.warn(
                "closed a WebSocket from %s: a message of more than %d bytes announced",
                self.address,
                self.limit,
            )
            self.refused = True
            raise MessageTooBig(f"a message above {self.limit} bytes")
        self.budget -= size
        return bytes(self.read_socket(size))


class BoundedWebSocket(WebSocket):  # type: ignore[misc]
    """gevent-websocket's WebSocket reading through a `BoundedStream`, its budget renewed for
    each message. The handler makes a plain WebSocket, which `bound` turns into this one in
    place: a second one would not do, as dropping the first sends a close frame (its
    `__del__`)."""

    __slots__ = ()

    @classmethod
    def bound(cls, websocket: WebSocket, handler: Any, limit: int) -> None:
        """Make `websocket`, not yet read from, a BoundedWebSocket of `limit` bytes."""
        websocket.__class__ = cls
        websocket.stream = BoundedStream(handler, limit)
        websocket.raw_read = websocket.stream.read

    def read_message(self) -> Any:
        self.stream.budget = self.stream.limit
        return super().read_message()

    def close(self, code: int = 1000, message: bytes = b"") -> None:
        """gevent-websocket's close, saying 1009 (message too big) when that is why: its own
        close frame carries no status code, so ours is sent first and its own is not."""
        if self.stream is not None and self.stream.refused:
            with contextlib.suppress(WebSocketError):
                self.send_frame(TOO_BIG_CLOSE_FRAME, self.OPCODE_CLOSE)
            self.raw_write = discard  # type: ignore[misc]  # a slot of the base class
        super().close(code, message)


def discard(data: bytes) -> None:
    """A writer that writes nothing."""


class TimedHandler(WebSocketHandler):  # type: ignore[misc]
    """gevent-websocket's handler, whose connection is closed after `idle` silent seconds, and
    whose request line and headers must arrive within `idle` seconds in all (a socket timeout
    alone restarts with every byte: one byte every 30 s held a connection for ever), its body
    within `idle` seconds of its first read."""

    idle = IDLE_SECONDS
    head_deadline: gevent.Timeout | None = None

    def handle(self) -> None:
        self.socket.settimeout(self.idle)
        super().handle()

    def handle_one_request(self) -> Any:
        try:
            return super().handle_one_request()
        finally:
            self._end_head_deadline()

    def read_requestline(self) -> str:
        self.head_deadline = gevent.Timeout(self.idle, TimeoutError)
        self.head_deadline.start()
        return str(super().read_requestline())

    def _end_head_deadline(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.close()
            self.head_deadline = None

    def get_environ(self) -> dict[str, Any]:
        environ: dict[str, Any] = super().get_environ()
        environ["wsgi.input"] = DeadlineInput(environ["wsgi.input"], self.idle)
        return environ

    def upgrade_websocket(self) -> Any:
        """gevent-websocket's upgrade, its WebSocket made a `BoundedWebSocket` before anything
        is read from it. It answers before the app sees the request, so a Host the site does
        not answer to (server.edge.wsgi) is not upgraded here but refused by the app."""
        edge = getattr(self.application, "wsgi_app", None)
        if isinstance(edge, Edge) and not edge.allows(self.environ):
            return None  # not upgraded: the app answers it, refusing the host (a 400)
        refused = super().upgrade_websocket()
        if refused is None and getattr(self, "websocket", None) is not None:
            BoundedWebSocket.bound(self.websocket, self, MAX_FRAME_BYTES)
        return refused

    def read_request(self, requestline: str) -> Any:
        """gevent's, with a request that stalls refused as invalid input (a 400 and one
        throttled line) instead of an unexpected error (a traceback)."""
        try:
            return super().read_request(requestline)
        except TimeoutError as error:
            raise ValueError(f"no complete request within {self.idle:g} s") from error
        finally:
            self._end_head_deadline()


class DeadlineInput:
    """A request body (`wsgi.input`) that must arrive within `seconds` of its first read:
    past that, a read raises TimeoutError (a slow-loris body is cut off, not waited for)."""

    def __init__(self, body: Any, seconds: float) -> None:
        self.body = body
        self.deadline = Deadline(seconds, "the request body")

    def _within(self, read: Callable[..., Any], *args: Any) -> Any:
        with gevent.Timeout(self.deadline.left(), TimeoutError):
            return read(*args)

    def read(self, *args: Any) -> bytes:
        return bytes(self._within(self.body.read, *args))

    def readline(self, *args: Any) -> bytes:
        return bytes(self._within(self.body.readline, *args))

    def readlines(self, *args: Any) -> list[bytes]:
        return list(self._within(self.body.readlines, *args))

    def __iter__(self) -> Any:
        return iter(self.readline, b"")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.body, name)


class ThrottledErrorLog:
    """The WSGI server's error log (a file-like `write`) through the log throttle."""

    def __init__(self) -> None:
        self.throttle = LogThrottle()

    def write(self, text: str) -> None:
        line = text.strip()
        if line:
            self.throttle.warn("%s", line[:300])

    def flush(self) -> None:
        return None


class LimitedServer(pywsgi.WSGIServer):  # type: ignore[misc]
    """gevent's WSGI server holding at most `gate`'s connections (per address and in all,
    server.edge.connection_limits); one past them is answered 503 and closed. Should
    descriptors run out all the same, accepting pauses for `ACCEPT_PAUSE` seconds, logged once
    a minute, instead of a traceback on every attempt."""

    def __init__(self, *args: Any, gate: ConnectionGate, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = gate

    def handle(self, sock: Any, address: Any) -> None:
        peer = peer_of(address)
        if not self.gate.admit(peer, sock):
            return
        try:
            super().handle(sock, address)
        finally:
            self.gate.release(peer)

    def do_read(self) -> Any:
        try:
            return super().do_read()
        except OSError as error:
            if error.errno not in (errno.EMFILE, errno.ENFILE):
                raise
            self.gate.out_of_descriptors(error)
            self.stop_accepting()
            gevent.spawn_later(ACCEPT_PAUSE, self.start_accepting)
            return None


def make_server(
    app: Flask, host: str, port: int, idle: float = IDLE_SECONDS, per_address: int = 64
) -> Any:
    """The gevent server for `app` on `host`:`port` (call its `serve_forever`); `per_address`
    0: no limit per address, only in all."""
    handler = type("Handler", (TimedHandler,), {"idle": idle})
    return LimitedServer(
        (host, port),
        app,
        handler_class=handler,
        log=None,
        error_log=ThrottledErrorLog(),
        gate=make_gate(per_address),
    )
