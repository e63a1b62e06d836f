"""The composition root's Socket.IO side: every feature's events on the one server.

Each feature keeps its handlers (`HANDLERS`, and `LOOKUPS` for the look-ups that change nothing
and draw from a rate bucket of their own); `register` binds them all through the edge's
dispatch (server.edge.dispatch), and runs each feature's part of a connection's opening and
closing. Registered by calls rather than Flask-SocketIO's decorators, which are untyped and
would untype them. Events named `connect`/`disconnect` can be forged by clients; neither
handler trusts them.
"""

from __future__ import annotations

from typing import Any

from flask import request
from flask_socketio import SocketIO

from server.accounts.service import ACCOUNTS
from server.accounts.sessions import COOKIE as SESSION_COOKIE
from server.analysis import engine_events
from server.analysis import events as analysis_events
from server.chat import events as chat_events
from server.edge.connections import CONNECTIONS
from server.edge.dispatch import (
    bind,
    bind_bare,
    current_sid,
    refuse_reserved,
    register_fallbacks,
)
from server.games import events as game_events
from server.i18n import select_language
from server.lobby import events as lobby_events
from server.review import events as review_events


def register(socketio: SocketIO) -> None:
    """Attach every feature's handlers to `socketio` (called once per app by the factory)."""

    def on_connect(auth: Any = None) -> dict[str, Any] | None:
        if not CONNECTIONS.get().open(current_sid()):
            return refuse_reserved("connect")
        # Who the connection is comes from its handshake's session cookie, once, never from
        # an event (server.accounts.identity).
        ACCOUNTS.get().connect(current_sid(), request.cookies.get(SESSION_COOKIE))
        # The handshake's language (account, cookie, header), for the refusals of the events
        # served without a request context.
        CONNECTIONS.get().set_language(current_sid(), select_language())
        return None

    def on_disconnect(reason: Any = None) -> dict[str, Any] | None:
        sid = current_sid()
        # A real disconnect is pending in the manager; a forged one arrives while connected.
        if socketio.server.manager.is_connected(sid, request.namespace):  # type: ignore[attr-defined]
            return refuse_reserved("disconnect")
        game_events.disconnected(sid)
        engine_events.stop_for(sid)
        lobby_events.disconnected(sid)
        ACCOUNTS.get().disconnect(sid)
        return None

    socketio.on_event("connect", on_connect)
    socketio.on_event("disconnect", on_disconnect)
    handlers = {
        **game_events.HANDLERS,
        **lobby_events.HANDLERS,
        **review_events.HANDLERS,
        **chat_events.HANDLERS,
    }
    for name, work in handlers.items():
        if name in game_events.BARE:
            # A hot event whose handler reads nothing of the request: served without one.
            bind_bare(socketio, name, work)
        else:
            socketio.on_event(name, bind(work))
    for name, work in {**game_events.LOOKUPS, **analysis_events.LOOKUPS}.items():
        socketio.on_event(name, bind(work, lookup=True))
    for name, work in engine_events.make_engine_handlers(socketio).items():
        socketio.on_event(name, bind(work))
    register_fallbacks(socketio)
