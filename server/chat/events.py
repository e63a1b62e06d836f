"""The chat's Socket.IO events (docs/protocol.md, "Quick phrases"): thin handlers that parse,
ask the connection's role in the game (it must have joined it: server.games.events `join`),
and call the service.

`chat_join` `{game}` puts the connection in its audience's chat room and answers
`{ok, audience, lines}` (the recent lines); `chat_say` `{game, phrase}` says a phrase there and
answers `{ok}`, everyone in that room (the sayer too) getting a `chat` message `{phrase, by,
name}`; too many lines are `rate_limited`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask_socketio import join_room, leave_room

from chesscore import Color
from server.accounts.identity import current_account
from server.chat.phrases import PHRASES
from server.chat.requests import parse_join, parse_say
from server.chat.service import CHAT, audience_of
from server.chat.wire import AUDIENCES, chat_room
from server.edge.clients import request_client
from server.edge.connections import CONNECTIONS
from server.edge.dispatch import current_sid
from server.shared.errors import N_, RequestError


def _role(game_id: str) -> Color | None:
    """The connection's role in the game (None: a spectator), or a refusal if not joined."""
    connections = CONNECTIONS.get()
    if not connections.has_joined(current_sid(), game_id):
        raise RequestError(
            "not_found", N_("this connection has not joined game {game}"), game=repr(game_id)
        )
    return connections.role(current_sid(), game_id)


def chat_join(payload: Any) -> dict[str, Any]:
    game_id = parse_join(payload)
    role = _role(game_id)
    audience = audience_of(role)
    for other in AUDIENCES:  # a spectator who took a seat since reads the players' chat now
        if other != audience:
            leave_room(chat_room(game_id, other))
    join_room(chat_room(game_id, audience))
    return {"ok": True, "audience": audience, "lines": CHAT.get().lines(game_id, role)}


def chat_say(payload: Any) -> dict[str, Any]:
    said = parse_say(payload)
    role = _role(said.game)
    # A seat is one speaker whatever its connections; spectators are counted by address.
    speaker = f"{said.game}/{role}" if role is not None else request_client()
    account = current_account() if role is None else None
    CHAT.get().say(said.game, role, said.phrase, speaker, account)
    return {"ok": True}


def install(app: Flask) -> None:
    """The phrases' table for the game page's chat panel (templates/chat_panel.html)."""
    app.jinja_env.globals["chat_phrases"] = PHRASES


HANDLERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "chat_join": chat_join,
    "chat_say": chat_say,
}
