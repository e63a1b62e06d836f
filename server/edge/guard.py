"""Guards around Engine.IO and Socket.IO: bad input is answered or cut off, never hangs or floods.

They exist for what python-engineio 4.15 does with bad input. A long-polling POST above
`max_http_buffer_size`, or with a packet type a client may not send, makes engine.io
disconnect the session with `Socket.close(wait=True)`, which waits on the session's queue that
only a later GET drains: the POST is never answered and its socket leaks (CLOSE-WAIT, an open
file each). A body that is not an Engine.IO payload logs a traceback and is answered 200.
A Socket.IO frame that does not decode (`42[`, `4299`, binary junk) logs a ~700-byte traceback
per frame, and an empty WebSocket frame escapes the WebSocket handler (a traceback from the
WSGI server, and a session left open until its ping times out). So:

- `PollingGuard`, a WSGI middleware in front of the Socket.IO one, reads every polling POST
  itself and answers a bad one at once (413 above the limit, 400 without a Content-Length,
  chunked or not an Engine.IO payload) with `{ok: false, error, code}`, `Connection: close`,
  closing that session without waiting; a good body is handed on unchanged.
- `FrameGuard` wraps engine.io's `message` handler (python-socketio's packet decoder): a frame
  that raises there is a strike, logged once per connection through a process-wide
  `LogThrottle`, and the connection is closed at `MALFORMED_FRAME_LIMIT` strikes.
- `GuardedWebSocket` stands in for engine.io's WebSocket class (the private
  `Server._async["websocket"]`) and screens each frame before engine.io decodes it: an
  oversized frame closes the connection, an undecodable one is a strike.

When engine.io answers these itself, drop this module (tests/test_server_transport.py checks
the private hooks are still where this module expects them).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import re
import urllib.parse
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any

from engineio import packet as eio_packet
from engineio import payload as eio_payload
from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI

from server.edge.security import MAX_FRAME_BYTES
from server.shared.buckets import TokenBucket
from server.shared.errors import error_reply

log = logging.getLogger(__name__)

# Undecodable frames a connection may send before it is closed (a real client sends none).
MALFORMED_FRAME_LIMIT = 3
# Process-wide: a few lines at once, then one every 6 s, however many connections misbehave.
LOG_BURST = 5
LOG_PER_SECOND = 1 / 6
# A polling body (4 KB at most) that takes longer than this to arrive is refused.
BODY_SECONDS = 2.0
# Packet types engine.io's Socket.receive accepts from a client; any other raises and hangs.
CLIENT_PACKET_TYPES = frozenset(
    {eio_packet.CLOSE, eio_packet.PONG, eio_packet.MESSAGE, eio_packet.UPGRADE}
)
# The first character of a text packet that engine.io's decoder takes without raising: an
# ASCII digit (its packet type; the rest is JSON or text, never refused), so the frame guard
# decodes only the other frames to see whether they would raise.
PACKET_TYPE_DIGITS = frozenset("0123456789")
# What python-socketio's decoder raises on a frame it cannot make sense of (JSON errors and
# the too-deep payloads of server.edge.wire are ValueErrors).
MALFORMED_ERRORS = (ValueError, TypeError, KeyError, IndexError)

# An EVENT packet's head: its namespace (if not "/") and acknowledgement id.
EVENT_HEAD = re.compile(r"2(/[^,]*)?,?([0-9]{1,15})")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class LogThrottle:
    """Warnings through a token bucket; the ones dropped are counted in the next line."""

    def __init__(self, burst: float = LOG_BURST, rate: float = LOG_PER_SECOND) -> None:
        self.bucket = TokenBucket(capacity=burst, rate=rate)
        self.suppressed = 0

    def warn(self, message: str, *args: Any) -> None:
        if not self.bucket.allow():
            self.suppressed += 1
            return
        if self.suppressed:
            message += f" ({self.suppressed} similar lines suppressed)"
            self.suppressed = 0
        log.warning(message, *args)


def describe(error: BaseException) -> str:
    """A short, one-line account of an error, for a log line."""
    text = " ".join(str(error).split())[:80]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def close_session(eio: Any, sid: str) -> None:
    """Close an engine.io session without waiting for its queue to drain (engine.io's own
    `disconnect` waits, and nothing drains a polling session's queue but its next GET)."""
    socket = eio.sockets.pop(sid, None)
    if socket is not None:
        socket.close(wait=False, abort=False, reason=eio.reason.SERVER_DISCONNECT)


class TransportRefusal(Exception):
    """A polling request refused with an HTTP `status` and an error `code`."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


STATUS_LINES = {400: "400 BAD REQUEST", 413: "413 REQUEST ENTITY TOO LARGE"}


def malformed(message: str) -> TransportRefusal:
    return TransportRefusal(400, "bad_request", message)


def read_polling_body(environ: dict[str, Any], max_bytes: int, async_mode: str) -> bytes:
    """The body of a polling POST, read only when its declared length is within `max_bytes`."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        raise malformed("chunked bodies are refused: send a Content-Length")
    declared = environ.get("CONTENT_LENGTH", "")
    if not declared:
        raise malformed("a polling POST needs a Content-Length")
    if not declared.isdigit():
        raise malformed(f"Content-Length {declared[:20]!r} is not a number")
    length = int(declared)
    if length > max_bytes:
        raise TransportRefusal(
            413, "payload_too_large", f"a body of {length} bytes is above the limit of {max_bytes}"
        )
    try:
        with read_deadline(async_mode):
            body = environ["wsgi.input"].read(length)
    except OSError:  # the client hung up, or (gevent) sent less than it said in time
        body = b""
    if len(body) != length:
        raise malformed(f"the body ended before the {length} bytes of its Content-Length")
    return bytes(body)


def read_deadline(async_mode: str) -> AbstractContextManager[Any]:
    """In gevent mode, a timeout on reading the body (TimeoutError after BODY_SECONDS), so a
    client that declares more than it sends is still answered (and its greenlet freed)."""
    if async_mode == "gevent":
        import gevent

        deadline: AbstractContextManager[Any] = gevent.Timeout(BODY_SECONDS, TimeoutError)
        return deadline
    return contextlib.nullcontext()


def check_payload(body: bytes) -> None:
    """Refuse a body that is not an Engine.IO payload of packets a client may send."""
    try:
        packets = eio_payload.Payload(encoded_payload=body.decode("utf-8")).packets
    except (ValueError, TypeError, KeyError, IndexError) as error:
        raise malformed(f"not an Engine.IO payload ({describe(error)})") from None
    for packet in packets:
        if packet.packet_type not in CLIENT_PACKET_TYPES:
            raise malformed(f"Engine.IO packet type {packet.packet_type} is not one a client sends")


class PollingGuard:
    """WSGI middleware: polling POSTs are checked here before engine.io sees them."""

    def __init__(
        self, wsgi_app: WsgiApp, eio: Any, throttle: LogThrottle, path: str = "socket.io"
    ) -> None:
        self.wsgi_app = wsgi_app
        self.eio = eio
        self.throttle = throttle
        self.prefix = f"/{path.strip('/')}/"

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST" or not environ.get("PATH_INFO", "").startswith(
            self.prefix
        ):
            return self.wsgi_app(environ, start_response)
        try:
            body = read_polling_body(environ, self.eio.max_http_buffer_size, self.eio.async_mode)
            check_payload(body)
        except TransportRefusal as refusal:
            return self.refuse(environ, start_response, refusal)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return self.wsgi_app(environ, start_response)

    def refuse(
        self, environ: dict[str, Any], start_response: StartResponse, refusal: TransportRefusal
    ) -> list[bytes]:
        query = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
        sid = query.get("sid", [""])[0]
        had_session = sid in self.eio.sockets
        if had_session:
            close_session(self.eio, sid)
        self.throttle.warn(
            "refused a polling POST from %s%s: %s",
            environ.get("REMOTE_ADDR", "?"),
            " (its session closed)" if had_session else "",
            refusal.message,
        )
        reply = {"ok": False, "error": refusal.message, "code": refusal.code}
        body = json.dumps(reply).encode()
        # The rest of an unread body would be read as the next request: end the connection.
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ]
        start_response(STATUS_LINES[refusal.status], headers)
        return [body]


class FrameGuard:
    """Counts each connection's undecodable frames; logs the first, closes at the limit."""

    def __init__(
        self,
        eio: Any,
        throttle: LogThrottle,
        environs: dict[str, dict[str, Any]],
        limit: int = MALFORMED_FRAME_LIMIT,
    ) -> None:
        self.eio = eio
        self.environs = environs  # python-socketio's WSGI environ of each connection
        self.throttle = throttle
        self.limit = limit
        self.strikes: dict[str, int] = {}

    def wrap_message(self, handle: Callable[..., Any]) -> Callable[..., Any]:
        """engine.io's `message` handler, with what the decoder raises made a strike."""

        def guarded(sid: str, data: Any) -> Any:
            if sid not in self.eio.sockets:
                return None  # frames still in flight after this guard closed the session
            try:
                return handle(sid, data)
            except MALFORMED_ERRORS as error:
                if not self.strike(sid, error):
                    self.answer(sid, data, error)
                return None

        return guarded

    def answer(self, sid: str, data: Any, error: BaseException) -> None:
        """Refuse an event frame that asked for an acknowledgement (its id is readable even
        when its JSON is not), so the client learns what was wrong instead of waiting."""
        found = EVENT_HEAD.match(data) if isinstance(data, str) else None
        if found is None:
            return
        namespace, ack_id = found.groups()
        message = f"the frame is not a valid Socket.IO event ({describe(error)})"
        reply = json.dumps([error_reply("bad_request", message)])
        self.eio.send(sid, f"3{namespace + ',' if namespace else ''}{ack_id}{reply}")

    def wrap_disconnect(self, handle: Callable[..., Any]) -> Callable[..., Any]:
        def forgetting(sid: str, *args: Any) -> Any:
            self.strikes.pop(sid, None)
            return handle(sid, *args)

        return forgetting

    def strike(self, sid: str, error: BaseException) -> bool:
        """Count one bad frame; True once the connection has been closed for it."""
        if sid not in self.eio.sockets:
            return True
        count = self.strikes.get(sid, 0) + 1
        self.strikes[sid] = count
        if count == 1:
            self.throttle.warn(
                "malformed frame on connection %s from %s (%s); it is closed after %d",
                sid,
                self.environs.get(sid, {}).get("REMOTE_ADDR", "?"),
                describe(error),
                self.limit,
            )
        if count < self.limit:
            return False
        close_session(self.eio, sid)
        return True


class GuardedFrames:
    """A WebSocket as engine.io's handler sees it, with each received frame screened first."""

    # What `wait` returns to end the handler: None ends its reading loop; during an upgrade a
    # NOOP fails the upgrade (engine.io expects a probe), leaving the polling session as it was.
    NOOP = str(eio_packet.NOOP)

    def __init__(self, ws: Any, socket: Any, guard: FrameGuard) -> None:
        self._ws = ws
        self._socket = socket
        self._guard = guard
        self._ended = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)  # _sock, socket, send, close ... as they are

    def wait(self) -> Any:
        while not self._ended:
            data = self._ws.wait()
            if data is None or self.is_acceptable(data):
                return data
        return self.NOOP if getattr(self._socket, "upgrading", False) else None

    def is_acceptable(self, data: Any) -> bool:
        limit = self._guard.eio.max_http_buffer_size
        if len(data) > limit:
            self._guard.throttle.warn(
                "closed connection %s: a frame of %d bytes is above the limit of %d",
                self._socket.sid,
                len(data),
                limit,
            )
            self._ended = True
            return False
        if type(data) is str and data[:1] in PACKET_TYPE_DIGITS:
            return True  # what every client sends: a text packet engine.io decodes as it is
        try:
            eio_packet.Packet(encoded_packet=data)
        except MALFORMED_ERRORS as error:
            self._ended = self._guard.strike(self._socket.sid, error)
            return False
        return True


def guarded_websocket(websocket_class: Any, guard: FrameGuard) -> Callable[[Any, Any], Any]:
    """A stand-in for engine.io's WebSocket class, handing its handler `GuardedFrames`.

    In threading mode that class is simple-websocket's, told here to close a connection whose
    message passes MAX_FRAME_BYTES as it arrives (gevent mode bounds its messages in
    server.edge.http_server), instead of gathering it whole first."""
    options = (
        {"max_message_size": MAX_FRAME_BYTES} if websocket_class is SimpleWebSocketWSGI else {}
    )

    def make(handler: Callable[[Any], Any], server: Any) -> Any:
        socket = handler.__self__  # type: ignore[attr-defined]  # the bound Socket._websocket_handler

        def screened(ws: Any) -> Any:
            return handler(GuardedFrames(ws, socket, guard))

        return websocket_class(screened, server, **options)

    return make


def install(app: Any, sio: Any) -> None:
    """Put the guards around `sio` (python-socketio's server) and `app.wsgi_app` (Flask-SocketIO's
    middleware, which must be installed already)."""
    eio = sio.eio
    throttle = LogThrottle()
    guard = FrameGuard(eio, throttle, sio.environ)
    eio.handlers["message"] = guard.wrap_message(eio.handlers["message"])
    eio.handlers["disconnect"] = guard.wrap_disconnect(eio.handlers["disconnect"])
    if eio._async.get("websocket") is not None:
        # A copy: the driver's table is shared by every engine.io server in the process.
        eio._async = {**eio._async, "websocket": guarded_websocket(eio._async["websocket"], guard)}
    app.wsgi_app = PollingGuard(app.wsgi_app, eio, throttle)
