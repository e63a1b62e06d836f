"""The games' Socket.IO handlers: thin wrappers that parse, check the role, call the game
service, reply.

Each handler takes one JSON object and answers `{"ok": true, ...}` or raises a `RequestError`;
the edge's dispatch (server.edge.dispatch) rate-limits, checks the payload count and turns
refusals and crashes into the failure reply (docs/protocol.md). A member joins one of the
game's three rooms (white, black, spectators: `server.games.rooms`, which the service tells of
every change).
The look-ups (`preview`, `describe`) change nothing and draw from a rate bucket of their own
(server.edge.connections), so a player dragging a piece around never has the move refused.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import join_room, leave_room

from chesscore import Color
from server.accounts.identity import current_account_id, shown_name
from server.edge.clients import request_client
from server.edge.connections import CONNECTIONS
from server.edge.dispatch import current_sid
from server.games.actions import ACTIONS
from server.games.lookups import check_preview, describe_square_at
from server.games.messages import make_state
from server.games.requests import (
    parse_describe,
    parse_game_request,
    parse_join,
    parse_move,
    parse_offer,
    parse_premove,
    parse_preview,
)
from server.games.rooms import ROLES, role_name, room
from server.games.seats import cookie_name
from server.games.service import GAMES, GameService
from server.i18n import translate_refusal
from server.shared.errors import N_, RequestError
from server.shared.tokens import is_token
from server.threats.cache import cached_preview

log = logging.getLogger(__name__)


def _service() -> GameService:
    return GAMES.get()


def _member(game_id: str) -> Color | None:
    """The role of this connection in the game (None: a spectator), or a refusal."""
    connections = CONNECTIONS.get()
    if not connections.has_joined(current_sid(), game_id):
        raise RequestError(
            "not_found", N_("this connection has not joined game {game_id}"), game_id=repr(game_id)
        )
    return connections.role(current_sid(), game_id)


def _seat(game_id: str) -> Color:
    """The colour this connection holds in the game, or a refusal."""
    role = _member(game_id)
    if role is None:
        raise RequestError("forbidden", N_("spectators cannot act in the game"))
    return role


def _resolve_role(
    service: GameService, game_id: str, seat: str | None, invite: str | None
) -> tuple[Color | None, dict[str, Any]]:
    """The role a join gets (see docs/protocol.md, `join`) and extra reply fields."""
    if seat is not None:
        color = service.seat_of(game_id, seat)
        if color is None:
            raise RequestError("forbidden", N_("the seat token is not valid for this game"))
        return color, {}
    cookie = request.cookies.get(cookie_name(game_id))
    if cookie and is_token(cookie):
        color = service.seat_of(game_id, cookie)
        if color is not None:
            return color, {}
    color = _account_seat(service, game_id)
    if color is not None:
        return color, {}
    if invite is not None:
        claimed = service.claim_invite(game_id, invite, current_account_id())
        if claimed is None:
            used = N_("the invitation was already used: you are watching")
            return None, {"notice": translate_refusal(used)}
        color, token = claimed
        return color, {"seat": token}
    return None, {}


def _account_seat(service: GameService, game_id: str) -> Color | None:
    """The seat the connection's account took in the game, if any: a signed-in player plays
    its games from any browser ("My games"), the account read from the handshake's session,
    never from the event."""
    account = current_account_id()
    if account is None:
        return None
    stored = service.tables.load_game(game_id)
    seats = {} if stored is None else stored.accounts
    return next((color for color, holder in seats.items() if holder == account), None)


def join(payload: Any) -> dict[str, Any]:
    join_request = parse_join(payload)
    service = _service()
    game_id = join_request.game
    if not service.exists(game_id):
        raise RequestError("not_found", N_("no game with id {game_id}"), game_id=repr(game_id))
    role, extra = _resolve_role(service, game_id, join_request.seat, join_request.invite)
    name = shown_name(join_request.name)
    if role is not None and name is not None:
        service.name_friend(game_id, role, name)  # before the state it shows in
    sid = current_sid()
    # Join the room under the game's lock, so no change falls between the snapshot and the room.
    with service.session(game_id) as game:
        for old in ROLES:
            leave_room(room(game_id, old))
        presence_changed = CONNECTIONS.get().set_role(sid, game_id, role)
        join_room(room(game_id, role))
        connected = CONNECTIONS.get().connected_seats(game_id)
        state = make_state(game, role, service.clock(), connected)
        missed = service.changes_since(game, join_request.since)
        if presence_changed:
            service.notifier.refresh(game)
        if role is not None:
            service.premoves.queue(game_id, role, None)  # a page joining shows none
    return {"ok": True, "role": role_name(role), "state": state, "missed": missed, **extra}


def leave(payload: Any) -> dict[str, Any]:
    game_id = parse_game_request(payload).game
    joined, presence_changed = CONNECTIONS.get().drop_role(current_sid(), game_id)
    if not joined:
        raise RequestError(
            "not_found", N_("this connection has not joined game {game_id}"), game_id=repr(game_id)
        )
    for role in ROLES:
        leave_room(room(game_id, role))
    if presence_changed:
        _service().refresh(game_id)
    return {"ok": True}


def move(payload: Any) -> dict[str, Any]:
    move_request = parse_move(payload)
    done = _service().move(
        move_request.game, _seat(move_request.game), move_request.ply, move_request.move
    )
    return {"ok": True, "version": done.event["version"], "ply": done.game.ply}


def premove(payload: Any) -> dict[str, Any]:
    """Queue (or cancel) the seat's premove; on its turn already, the move is played now."""
    premove_request = parse_premove(payload)
    game_id = premove_request.game
    done = _service().premove(game_id, _seat(game_id), premove_request.move)
    if done is None:
        return {"ok": True, "played": False}
    return {"ok": True, "played": True, "version": done.event["version"], "ply": done.game.ply}


def make_action_handler(name: str) -> Callable[[Any], dict[str, Any]]:
    """The handler of one of `ACTIONS`: the payload names the game, and a kind if it takes one."""
    takes_kind = ACTIONS[name].takes_kind

    def handle(payload: Any) -> dict[str, Any]:
        if takes_kind:
            offer_request = parse_offer(payload)
            game_id, kind = offer_request.game, offer_request.kind
        else:
            game_id, kind = parse_game_request(payload).game, None
        done = _service().act(game_id, _seat(game_id), name, kind, request_client())
        reply: dict[str, Any] = {"ok": True, "version": done.event["version"]}
        if done.game.header.rematch is not None and kind == "rematch":
            reply["rematch"] = done.game.header.rematch
        return reply

    return handle


def preview(payload: Any) -> dict[str, Any]:
    request_ = parse_preview(payload)
    role = _member(request_.game)
    with _service().session(request_.game) as game:
        check_preview(game, role, request_.ply)
        found = cached_preview(game.board, request_.move)
    return {"ok": True, "preview": found}


def describe(payload: Any) -> dict[str, Any]:
    request_ = parse_describe(payload)
    role = _member(request_.game)
    with _service().session(request_.game) as game:
        text = describe_square_at(game, role, request_.ply, request_.square)
    return {"ok": True, "text": text}


LOOKUPS: dict[str, Callable[[Any], dict[str, Any]]] = {"preview": preview, "describe": describe}

HANDLERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "join": join,
    "leave": leave,
    "move": move,
    "premove": premove,
    **{name: make_action_handler(name) for name in ACTIONS},
}


# The events whose handlers read nothing of the handshake's request (no cookie, no client
# address): the composition root serves them without a request context (server.edge.dispatch,
# `bind_bare`). A move is most of what a server receives.
BARE = ("move", "premove")


def disconnected(sid: str) -> None:
    """A connection closed: the games it had joined hear that its seat may be empty."""
    for game_id in CONNECTIONS.get().close(sid):
        GAMES.get().refresh(game_id)  # the seat's last connection here is gone
