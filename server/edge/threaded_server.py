"""Werkzeug's threaded WSGI server (threading mode) with the bounds of the gevent one.

Flask-SocketIO's `run` serves threading mode with Werkzeug's development server as it is: no
limit of connections per address, a socket timeout only (one byte every 30 s held a request for
ever), and simple-websocket counting a WebSocket message's payload, not its header (a frame
announcing 1 GiB was refused after 64 KiB of it, the connection left open). The server here is
Werkzeug's, given the same bounds through the same code as gevent's
(server.edge.connection_limits): `ConnectionGate` holds at most CHESS_MAX_CONNECTIONS
connections per address and answers one past them 503; a request's line and headers must come
within the idle timeout in all, its body within the idle timeout of its first read (`Deadline`),
and a silent connection is closed after it; a WebSocket reads through a `MeteredSocket`
(server.edge.frame_meter), which refuses a frame by its header and shuts the connection at
once. No access log (as gevent's); Werkzeug's own error lines go through the log throttle.
"""

from __future__ import annotations

import errno
import io
import socket
import time
from typing import Any

from flask import Flask
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from server.edge.connection_limits import (
    ACCEPT_PAUSE,
    IDLE_SECONDS,
    ConnectionGate,
    Deadline,
    make_gate,
    peer_of,
)
from server.edge.frame_meter import MeteredSocket
from server.edge.guard import LogThrottle
from server.edge.security import MAX_FRAME_BYTES

ERROR_LOG = LogThrottle()


class DeadlineReader(io.RawIOBase):
    """A connection's bytes (the handler's `rfile`), each read bounded by the idle timeout and
    by the `deadline` in force, if any."""

    def __init__(self, sock: socket.socket, idle: float) -> None:
        super().__init__()
        self.sock = sock
        self.idle = idle
        self.deadline: Deadline | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = self.idle if self.deadline is None else min(self.idle, self.deadline.left())
        self.sock.settimeout(left)
        return self.sock.recv_into(buffer)


class TimedRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler, reading through a `DeadlineReader`: the head of each request within
    `idle` seconds of its start, the body within `idle` seconds of its first read; a WebSocket
    through a `MeteredSocket`."""

    idle = IDLE_SECONDS

    def setup(self) -> None:
        super().setup()
        self.reader = DeadlineReader(self.connection, self.idle)
        plain, self.rfile = self.rfile, io.BufferedReader(self.reader)
        plain.close()

    def handle_one_request(self) -> None:
        self.reader.deadline = Deadline(self.idle, "the request line and headers")
        self.reader.deadline.start()
        super().handle_one_request()

    def make_environ(self) -> Any:
        """The head is in: the body's deadline starts with its first read, and a WebSocket's
        reads are metered."""
        self.reader.deadline = Deadline(self.idle, "the request body")
        self.connection.settimeout(self.idle)
        environ = super().make_environ()
        # No permessage-deflate: a compressed frame's header gives its compressed length, so a
        # small frame could inflate to megabytes before the message limit saw it (simple-
        # websocket agrees to the extension whenever a client offers it; gevent's never does).
        environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        peer = peer_of(self.client_address)
        environ["werkzeug.socket"] = MeteredSocket(self.connection, MAX_FRAME_BYTES, peer)
        return environ

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None

    def log_error(self, format: str, *args: Any) -> None:
        ERROR_LOG.warn("%s: %s", peer_of(self.client_address), (format % args)[:300])


class LimitedThreadedServer(ThreadedWSGIServer):
    """Werkzeug's threaded server holding at most `gate`'s connections; should descriptors run
    out all the same, accepting pauses for `ACCEPT_PAUSE` seconds, logged once a minute."""

    def __init__(
        self,
        host: str,
        port: int,
        app: Flask,
        handler: type[WSGIRequestHandler],
        gate: ConnectionGate,
    ) -> None:
        self.gate = gate
        super().__init__(host, port, app, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if self.gate.admit(peer_of(client_address), request):
            super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.gate.release(peer_of(client_address))

    def get_request(self) -> tuple[Any, Any]:
        try:
            return super().get_request()
        except OSError as error:
            if error.errno in (errno.EMFILE, errno.ENFILE):
                self.gate.out_of_descriptors(error)
                time.sleep(ACCEPT_PAUSE)
            raise


def make_threaded_server(
    app: Flask, host: str, port: int, idle: float = IDLE_SECONDS, per_address: int = 64
) -> LimitedThreadedServer:
    """The threading mode's server for `app`, bound to `host`:`port` (call `serve_forever`);
    `per_address` 0: no limit per address, only in all."""
    handler = type("Handler", (TimedRequestHandler,), {"idle": idle})
    return LimitedThreadedServer(host, port, app, handler, make_gate(per_address))
