"""Socket.IO events answered the one way every feature's are: rate limit, one payload, reply.

Every client event takes one JSON object and is answered through its acknowledgement with
`{"ok": true, ...}` or `{"ok": false, "error", "code"}` (docs/protocol.md). `bind` wraps a
feature's handler in `answer`, which applies the connection's rate limit (a look-up draws from
a bucket of its own, server.edge.connections, so a player dragging a piece around never has
the move refused), checks there is exactly one payload, turns a `RequestError` into the
failure reply and leaves any other exception to the error handler `register_fallbacks`
installs, which logs it and answers `internal`. `bind_bare` serves a hot event (a move) the
same way without Flask-SocketIO's request context per event, for handlers that read nothing of
the request (its refusals are worded in the connection's language, kept at connect:
`bare_language`). Events named `connect`/`disconnect` can be forged by clients: `refuse_reserved`
is their answer. Knows no feature: the composition root (server.sockets) hands it each
feature's handlers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from flask import request
from flask_socketio import SocketIO, disconnect

from server.edge.connections import CONNECTIONS
from server.shared.errors import N_, RequestError, error_reply

log = logging.getLogger(__name__)

Handler = Callable[[Any], dict[str, Any]]


# The session id of an event served without a request context (`bind_bare`); each greenlet
# or thread serving an event has its own value.
_BARE_SID: ContextVar[str | None] = ContextVar("bare_sid", default=None)


def current_sid() -> str:
    """The Socket.IO session id of the event being served."""
    sid = _BARE_SID.get()
    return sid if sid is not None else request.sid  # type: ignore[attr-defined]


def bare_language() -> str | None:
    """The language of the connection whose event is served without a request context (None
    outside one): what server.i18n words that event's refusal in. Looked up only then, so an
    event that is not refused pays nothing for it."""
    sid = _BARE_SID.get()
    return None if sid is None else CONNECTIONS.get().language(sid)


def answer(args: tuple[Any, ...], work: Handler, lookup: bool = False) -> dict[str, Any]:
    """Rate-limit (a look-up from its own bucket), check there is exactly one payload, run
    `work`, reply."""
    connections = CONNECTIONS.get()
    sid = current_sid()
    if not connections.allow(sid, lookup):
        if connections.is_flooding(sid):
            disconnect(sid, namespace="/")
        return error_reply("rate_limited", N_("too many events on this connection; slow down"))
    if len(args) != 1:
        return error_reply(
            "bad_request", N_("send exactly one JSON object, got {len} arguments"), len=len(args)
        )
    try:
        return work(args[0])
    except RequestError as error:
        return error.to_json()


def bind(work: Handler, lookup: bool = False) -> Callable[..., dict[str, Any]]:
    def handler(*args: Any) -> dict[str, Any]:
        return answer(args, work, lookup)

    return handler


def bind_bare(socketio: SocketIO, name: str, work: Handler, lookup: bool = False) -> None:
    """Serve the event `name` by `work` as `bind` does, but in the app's context alone, not a
    request's: for the hot events whose handlers read nothing of the handshake's request (no
    cookie, no address). Flask-SocketIO builds a whole request context per event (the URL
    adapter, the route map matched, a Werkzeug request, its teardown), a tenth of the CPU a
    move cost; the handler is registered with python-socketio's server itself, which calls it
    with the session id, and the same `answer` applies the same checks."""
    server = socketio.server

    def handler(sid: str, *args: Any) -> dict[str, Any] | None:
        environ = server.get_environ(sid, namespace="/")
        if not environ:
            return None  # a connection already gone, as Flask-SocketIO ignores it
        token = _BARE_SID.set(sid)
        try:
            with environ["flask.app"].app_context():
                try:
                    return answer(args, work, lookup)
                except Exception as error:  # what Flask-SocketIO's error handler gets
                    return internal_error(error)
        finally:
            _BARE_SID.reset(token)

    server.on(name, handler, namespace="/")


def internal_error(error: Exception) -> dict[str, Any]:
    """A handler's crash: logged, answered `internal`."""
    log.error("unexpected error in a Socket.IO handler", exc_info=error)
    return error_reply("internal", N_("internal error: the request was not applied"))


def refuse_reserved(name: str) -> dict[str, Any]:
    """The reply to a client event named like a reserved one (rate-limited like any event)."""
    message = f"{name!r} is reserved; it cannot be sent as an event"
    return answer((None,), lambda _: error_reply("reserved_event", message))


def register_fallbacks(socketio: SocketIO) -> None:
    """An unknown event is answered `unknown_event`; a handler's crash is logged, `internal`."""

    def on_unknown(event: Any, *args: Any) -> dict[str, Any]:
        return answer(
            (None,),
            lambda _: error_reply(
                "unknown_event", N_("unknown event {shorten}"), shorten=shorten(event)
            ),
        )

    socketio.on_event("*", on_unknown)
    socketio.on_error_default(internal_error)


def shorten(value: Any, limit: int = 40) -> str:
    """`value` quoted for a refusal, cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
