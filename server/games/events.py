"""Socket.IO handlers: thin wrappers that parse, check the role, call the game service, reply.

Every client event takes one JSON object and is answered through its acknowledgement with
`{"ok": true, ...}` or `{"ok": false, "error", "code"}` (docs/protocol.md). Each handler runs
`_answer`, which applies the connection's rate limit, turns a `RequestError` into the failure
reply, and leaves any other exception to the error handler registered for every namespace,
which logs it and answers `internal`. A member joins one of the game's three rooms (white,
black, spectators: `server.games.rooms`, which the service tells of every change).
The look-ups (`preview`, `describe`) change nothing and draw from a rate bucket of their own
(server.edge.connections), so a player dragging a piece around never has the move refused.
Events named `connect`/`disconnect` can be forged by clients; neither handler trusts them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from flask import current_app, request
from flask_socketio import SocketIO, disconnect, join_room, leave_room

from chesscore import Color
from server.accounts.identity import current_account_id, shown_name
from server.accounts.service import Accounts
from server.accounts.sessions import COOKIE as SESSION_COOKIE
from server.analysis.engine_events import make_engine_handlers
from server.analysis.engine_events import stop_for as stop_engine_for
from server.analysis.events import LOOKUPS as ANALYSIS_LOOKUPS
from server.edge.clients import request_client
from server.edge.connections import Connections
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
    shorten,
)
from server.games.rooms import ROLES, role_name, room
from server.games.seats import cookie_name, is_token
from server.games.service import GameService
from server.lobby.events import HANDLERS as LOBBY_HANDLERS
from server.lobby.events import disconnected as lobby_disconnected
from server.review.events import HANDLERS as REVIEW_HANDLERS
from server.shared.errors import RequestError, error_reply
from server.threats.cache import cached_preview

log = logging.getLogger(__name__)


def _service() -> GameService:
    return cast(GameService, current_app.extensions["chess"])


def _accounts() -> Accounts:
    return cast(Accounts, current_app.extensions["chess_accounts"])


def _connections() -> Connections:
    return cast(Connections, current_app.extensions["chess_connections"])


def _sid() -> str:
    return request.sid  # type: ignore[attr-defined, no-any-return]


def _answer(
    args: tuple[Any, ...], work: Callable[[Any], dict[str, Any]], lookup: bool = False
) -> dict[str, Any]:
    """Rate-limit (a look-up from its own bucket), check there is exactly one payload, run
    `work`, reply."""
    connections = _connections()
    if not connections.allow(_sid(), lookup):
        if connections.is_flooding(_sid()):
            disconnect()
        return error_reply("rate_limited", "too many events on this connection; slow down")
    if len(args) != 1:
        return error_reply(
            "bad_request", f"send exactly one JSON object, got {len(args)} arguments"
        )
    try:
        return work(args[0])
    except RequestError as error:
        return error.to_json()


def _member(game_id: str) -> Color | None:
    """The role of this connection in the game (None: a spectator), or a refusal."""
    connections = _connections()
    if not connections.has_joined(_sid(), game_id):
        raise RequestError("not_found", f"this connection has not joined game {game_id!r}")
    return connections.role(_sid(), game_id)


def _seat(game_id: str) -> Color:
    """The colour this connection holds in the game, or a refusal."""
    role = _member(game_id)
    if role is None:
        raise RequestError("forbidden", "spectators cannot act in the game")
    return role


def _resolve_role(
    service: GameService, game_id: str, seat: str | None, invite: str | None
) -> tuple[Color | None, dict[str, Any]]:
    """The role a join gets (see docs/protocol.md, `join`) and extra reply fields."""
    if seat is not None:
        color = service.seat_of(game_id, seat)
        if color is None:
            raise RequestError("forbidden", "the seat token is not valid for this game")
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
            return None, {"notice": "the invitation was already used: you are watching"}
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
        raise RequestError("not_found", f"no game with id {game_id!r}")
    role, extra = _resolve_role(service, game_id, join_request.seat, join_request.invite)
    name = shown_name(join_request.name)
    if role is not None and name is not None:
        service.name_friend(game_id, role, name)  # before the state it shows in
    sid = _sid()
    # Join the room under the game's lock, so no change falls between the snapshot and the room.
    with service.session(game_id) as game:
        for old in ROLES:
            leave_room(room(game_id, old))
        presence_changed = _connections().set_role(sid, game_id, role)
        join_room(room(game_id, role))
        connected = _connections().connected_seats(game_id)
        state = make_state(game, role, service.clock(), connected)
        missed = service.changes_since(game, join_request.since)
        if presence_changed:
            service.notifier.refresh(game)
        if role is not None:
            service.premoves.queue(game_id, role, None)  # a page joining shows none
    return {"ok": True, "role": role_name(role), "state": state, "missed": missed, **extra}


def leave(payload: Any) -> dict[str, Any]:
    game_id = parse_game_request(payload).game
    joined, presence_changed = _connections().drop_role(_sid(), game_id)
    if not joined:
        raise RequestError("not_found", f"this connection has not joined game {game_id!r}")
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


def register(socketio: SocketIO) -> None:
    """Attach the handlers to `socketio` (called once per app by the factory). Registered by
    calls rather than Flask-SocketIO's decorators, which are untyped and would untype them."""

    def on_connect(auth: Any = None) -> dict[str, Any] | None:
        if not _connections().open(_sid()):
            return _refuse_reserved("connect")
        # Who the connection is comes from its handshake's session cookie, once, never from
        # an event (server.accounts.identity).
        _accounts().connect(_sid(), request.cookies.get(SESSION_COOKIE))
        return None

    def on_disconnect(reason: Any = None) -> dict[str, Any] | None:
        # A real disconnect is pending in the manager; a forged one arrives while still connected.
        if socketio.server.manager.is_connected(_sid(), request.namespace):  # type: ignore[attr-defined]
            return _refuse_reserved("disconnect")
        for game_id in _connections().close(_sid()):
            _service().refresh(game_id)  # the seat's last connection here is gone
        stop_engine_for(_sid())
        lobby_disconnected(_sid())
        _accounts().disconnect(_sid())
        return None

    socketio.on_event("connect", on_connect)
    socketio.on_event("disconnect", on_disconnect)
    for name, work in {**HANDLERS, **LOBBY_HANDLERS, **REVIEW_HANDLERS}.items():
        socketio.on_event(name, _bind(work))
    for name, work in {**LOOKUPS, **ANALYSIS_LOOKUPS}.items():
        socketio.on_event(name, _bind(work, lookup=True))
    for name, work in make_engine_handlers(socketio).items():
        socketio.on_event(name, _bind(work))

    def on_unknown(event: Any, *args: Any) -> dict[str, Any]:
        return _answer(
            (None,), lambda _: error_reply("unknown_event", f"unknown event {shorten(event)}")
        )

    def on_error(error: Exception) -> dict[str, Any]:
        log.error("unexpected error in a Socket.IO handler", exc_info=error)
        return error_reply("internal", "internal error: the request was not applied")

    socketio.on_event("*", on_unknown)
    socketio.on_error_default(on_error)


def _refuse_reserved(name: str) -> dict[str, Any]:
    """The reply to a client event named like a reserved one (rate-limited like any event)."""
    message = f"{name!r} is reserved; it cannot be sent as an event"
    return _answer((None,), lambda _: error_reply("reserved_event", message))


def _bind(
    work: Callable[[Any], dict[str, Any]], lookup: bool = False
) -> Callable[..., dict[str, Any]]:
    def handler(*args: Any) -> dict[str, Any]:
        return _answer(args, work, lookup)

    return handler
