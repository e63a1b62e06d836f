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

Flask-SocketIO's `run` builds the same server but cannot take a handler class of ours, so the
server is built here as `run` builds it (gevent-websocket's handler, no access log).
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from gevent import pywsgi
from geventwebsocket.handler import WebSocketHandler

from server.transport.guard import LogThrottle

IDLE_SECONDS = 60.0


class TimedHandler(WebSocketHandler):  # type: ignore[misc]
    """gevent-websocket's handler, whose connection is closed after `idle` silent seconds."""

    idle = IDLE_SECONDS

    def handle(self) -> None:
        self.socket.settimeout(self.idle)
        super().handle()

    def read_request(self, requestline: str) -> Any:
        """gevent's, with a request that stalls refused as invalid input (a 400 and one
        throttled line) instead of an unexpected error (a traceback)."""
        try:
            return super().read_request(requestline)
        except TimeoutError as error:
            raise ValueError(f"no complete request within {self.idle:g} s") from error


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


def make_server(app: Flask, host: str, port: int, idle: float = IDLE_SECONDS) -> Any:
    """The gevent server for `app` on `host`:`port` (call its `serve_forever`)."""
    handler = type("Handler", (TimedHandler,), {"idle": idle})
    return pywsgi.WSGIServer(
        (host, port), app, handler_class=handler, log=None, error_log=ThrottledErrorLog()
    )
