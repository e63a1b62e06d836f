"""Socket.IO events answered the one way every feature's are: rate limit, one payload, reply.

Every client event takes one JSON object and is answered through its acknowledgement with
`{"ok": true, ...}` or `{"ok": false, "error", "code"}` (docs/protocol.md). `bind` wraps a
feature's handler in `answer`, which applies the connection's rate limit (a look-up draws from
a bucket of its own, server.edge.connections, so a player dragging a piece around never has
the move refused), checks there is exactly one payload, turns a `RequestError` into the
failure reply and leaves any other exception to the error handler `register_fallbacks`
installs, which logs it and answers `internal`. Events named `connect`/`disconnect` can be
forged by clients: `refuse_reserved` is their answer. Knows no feature: the composition root
(server.sockets) hands it each feature's handlers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import SocketIO, disconnect

from server.edge.connections import CONNECTIONS
from server.shared.errors import N_, RequestError, error_reply

log = logging.getLogger(__name__)

Handler = Callable[[Any], dict[str, Any]]


def current_sid() -> str:
    """The Socket.IO session id of the event being served."""
    return request.sid  # type: ignore[attr-defined, no-any-return]


def answer(args: tuple[Any, ...], work: Handler, lookup: bool = False) -> dict[str, Any]:
    """Rate-limit (a look-up from its own bucket), check there is exactly one payload, run
    `work`, reply."""
    connections = CONNECTIONS.get()
    sid = current_sid()
    if not connections.allow(sid, lookup):
        if connections.is_flooding(sid):
            disconnect()
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

    def on_error(error: Exception) -> dict[str, Any]:
        log.error("unexpected error in a Socket.IO handler", exc_info=error)
        return error_reply("internal", N_("internal error: the request was not applied"))

    socketio.on_event("*", on_unknown)
    socketio.on_error_default(on_error)


def shorten(value: Any, limit: int = 40) -> str:
    """`value` quoted for a refusal, cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
