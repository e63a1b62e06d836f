"""The lobby's transport: its Socket.IO handlers, its rooms and messages, and `GET /api/lobby`.

Everyone on the lobby page is in the `lobby` room (after `lobby_enter`) and hears every seek
added or removed and, at most once a second, the list of games to watch. A seat in a game the
lobby made goes to its holder only: the taker's in the acknowledgement, the waiting side's in a
`paired` message to its own connection (across Redis in a cluster, like every emit). The
handlers are bound by `server.games.events.register` (rate limit, one payload, refusals
as acknowledgements); `install` builds the `LobbyService` once the game service exists.
Events and fields are documented in docs/protocol.md, "Lobby".
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, jsonify, request
from flask_socketio import SocketIO, join_room, leave_room

from chesscore import Color
from server.accounts.identity import current_account, shown_name
from server.edge.broadcast import may_reach
from server.edge.clients import request_client
from server.games.clock import control_name
from server.games.notifier import Notifier
from server.games.play import Event, Game, color_name
from server.games.rating import game_speed_of
from server.lobby.requests import (
    parse_accept,
    parse_cancel,
    parse_nothing,
    parse_pair,
    parse_seek,
)
from server.lobby.seeks import Seat, Seek, clock_of
from server.lobby.service import LOBBY, LobbyService
from server.lobby.watch import WatchedGame, choose_tv

LOBBY_ROOM = "lobby"
# The watch list goes out at most this often (seconds): every change of every game asks for it.
WATCH_INTERVAL = 1.0

blueprint = Blueprint("lobby", __name__, url_prefix="/api")


def _lobby() -> LobbyService:
    return LOBBY.get()


def _sid() -> str:
    return request.sid  # type: ignore[attr-defined, no-any-return]


# -- the wire form ---------------------------------------------------------------------------


def seek_json(seek: Seek) -> dict[str, Any]:
    return {
        "id": seek.id,
        "name": seek.name,
        "control": seek.control,
        "color": "random" if seek.color is None else color_name(seek.color),
        "assisted": seek.assisted,
        "rated": seek.rated,
        "rating": None if seek.rating is None else seek.rating.rating,
        "provisional": None if seek.rating is None else seek.rating.provisional,
        "rating_range": None if seek.rating_range is None else list(seek.rating_range),
        # The ratings' speed of its control: the lobby greys a challenge whose range leaves
        # out the visitor's own rating in it.
        "speed": game_speed_of(clock_of(seek.control)).value,
    }


def seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "game": seat.game,
        "color": color_name(seat.color),
        "seat": seat.token,
        "opponent": seat.opponent,
    }


def watched_json(game: WatchedGame) -> dict[str, Any]:
    players = {}
    for color in (0, 1):
        computer = color == game.computer
        players[color_name(color)] = {
            "kind": "computer" if computer else "human",
            "name": game.names[color],
        }
    return {
        "game": game.id,
        "players": players,
        "level": game.level,
        "control": control_name(game.clock),
        "plies": game.plies,
        "quiet": game.quiet,
    }


def watch_json(games: list[WatchedGame]) -> dict[str, Any]:
    tv = choose_tv(games)
    return {"games": [watched_json(game) for game in games], "tv": None if tv is None else tv.id}


# -- what the lobby service tells -------------------------------------------------------------


class LobbyRooms:
    """The lobby's `LobbyNotifier`: the lobby room, and private messages to a connection."""

    def __init__(self, socketio: SocketIO, watch: Callable[[], list[WatchedGame]]) -> None:
        self.socketio = socketio
        self.watch = watch
        self.lock = threading.Lock()
        self.pending = False

    def seek_added(self, seek: Seek) -> None:
        self.socketio.emit("seek_added", {"seek": seek_json(seek)}, to=LOBBY_ROOM)

    def seeks_removed(self, ids: list[str]) -> None:
        self.socketio.emit("seeks_removed", {"ids": ids}, to=LOBBY_ROOM)

    def paired(self, owner: str, seat: Seat) -> None:
        self.socketio.emit("paired", seat_json(seat), to=owner)

    def games_changed(self) -> None:
        """Send the watch list within WATCH_INTERVAL, once for every change until then; not
        at all with nobody in the lobby, who gets the list on entering (`lobby_enter`)."""
        if not may_reach(self.socketio, LOBBY_ROOM):
            return
        with self.lock:
            if self.pending:
                return
            self.pending = True
        self.socketio.start_background_task(self._send_watch_list)

    def _send_watch_list(self) -> None:
        self.socketio.sleep(WATCH_INTERVAL)
        with self.lock:
            self.pending = False
        # Everyone may have left meanwhile.
        if may_reach(self.socketio, LOBBY_ROOM):
            self.socketio.emit("lobby_games", watch_json(self.watch()), to=LOBBY_ROOM)


class WatchingNotifier:
    """The game service's notifier with the lobby told of every change (the watch list)."""

    def __init__(self, inner: Notifier, changed: Callable[[], None]) -> None:
        self.inner = inner
        self.on_change = changed

    def changed(self, game: Game, event: Event) -> None:
        self.inner.changed(game, event)
        self.on_change()

    def rematch_made(self, game: Game, rematch: Game, seats: dict[Color, str]) -> None:
        self.inner.rematch_made(game, rematch, seats)
        self.on_change()

    def refresh(self, game: Game) -> None:
        self.inner.refresh(game)  # who is connected: nothing the watch list shows

    def premove_dropped(self, game: Game, color: Color, uci: str, reason: str) -> None:
        self.inner.premove_dropped(game, color, uci, reason)


# -- the handlers ----------------------------------------------------------------------------


def lobby_enter(payload: Any) -> dict[str, Any]:
    parse_nothing(payload)
    join_room(LOBBY_ROOM)  # first: a seek added meanwhile arrives as a message, not lost
    lobby = _lobby()
    seeks = [seek_json(seek) for seek in lobby.seeks()]
    return {"ok": True, "seeks": seeks, **watch_json(lobby.watch_list())}


def lobby_leave(payload: Any) -> dict[str, Any]:
    parse_nothing(payload)
    leave_room(LOBBY_ROOM)
    return {"ok": True, "removed": _lobby().cancel(_sid())}


def lobby_games(payload: Any) -> dict[str, Any]:
    parse_nothing(payload)
    return {"ok": True, **watch_json(_lobby().watch_list())}


def seek(payload: Any) -> dict[str, Any]:
    request_ = parse_seek(payload)
    request_ = replace(request_, name=shown_name(request_.name))
    created, replaced = _lobby().create_seek(_sid(), request_client(), request_, current_account())
    return {"ok": True, "seek": seek_json(created), "replaced": replaced}


def seek_cancel(payload: Any) -> dict[str, Any]:
    return {"ok": True, "removed": _lobby().cancel(_sid(), parse_cancel(payload))}


def seek_accept(payload: Any) -> dict[str, Any]:
    request_ = parse_accept(payload)
    seat = _lobby().accept(
        _sid(), request_client(), request_.seek, shown_name(request_.name), current_account()
    )
    return {"ok": True, **seat_json(seat)}


def pair(payload: Any) -> dict[str, Any]:
    request_ = parse_pair(payload)
    request_ = replace(request_, name=shown_name(request_.name))
    seat, replaced = _lobby().pair(_sid(), request_client(), request_, current_account())
    if seat is None:
        return {"ok": True, "paired": False, "replaced": replaced}
    return {"ok": True, "paired": True, "replaced": replaced, **seat_json(seat)}


def pair_cancel(payload: Any) -> dict[str, Any]:
    parse_nothing(payload)
    return {"ok": True, "removed": _lobby().cancel(_sid())}


HANDLERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "lobby_enter": lobby_enter,
    "lobby_leave": lobby_leave,
    "lobby_games": lobby_games,
    "seek": seek,
    "seek_cancel": seek_cancel,
    "seek_accept": seek_accept,
    "pair": pair,
    "pair_cancel": pair_cancel,
}


def disconnected(sid: str) -> None:
    """A connection closed: what it held in the lobby is withdrawn."""
    LOBBY.get().leave(sid)


@blueprint.get("/lobby")
def lobby_snapshot() -> Response:
    """The open challenges and the games to watch, for scripts (the page uses `lobby_enter`)."""
    lobby = _lobby()
    seeks = [seek_json(seek) for seek in lobby.seeks()]
    return jsonify({"ok": True, "seeks": seeks, **watch_json(lobby.watch_list())})
