"""The notifier: a game's rooms, the roles that name them, and what is emitted to them.

Each game has three rooms (white, black, spectators), so each member gets its own state, with
the legal moves only for the seat to move. `RoomNotifier` is what the game service calls down
into after every change (`server.games.notifier.Notifier`): it builds the public state once,
for the rooms with a member (`broadcast.may_reach`), with only the overlays one of them gets,
tailors it per role, encodes each distinct state once (the mover's by writing its legal
moves into the text of the seat not to move) and sends the three as one message
(`broadcast.emit_each`, one publish across Redis in a cluster). The Socket.IO handlers use
`room` and `ROLES` to put a connection in its room.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from flask_socketio import SocketIO

from chesscore import BLACK, WHITE, Color
from server.edge.broadcast import emit_each, may_reach
from server.edge.wire import encode
from server.games.messages import (
    State,
    encode_mover_state,
    gets_overlays,
    make_public_state,
    mover_fields,
    seat_state,
)
from server.games.play import Event, Game, color_name

ROLES: tuple[Color | None, ...] = (WHITE, BLACK, None)


def room(game_id: str, role: Color | None) -> str:
    return f"{game_id}/{'watch' if role is None else color_name(role)}"


def role_name(role: Color | None) -> str:
    return "spectator" if role is None else color_name(role)


class RoomNotifier:
    """Emits a game's changes to its rooms through `socketio`; `presence(game id)` names the
    seats with a connection (server.edge.connections)."""

    def __init__(
        self,
        socketio: SocketIO,
        presence: Callable[[str], frozenset[Color]] = lambda game_id: frozenset(),
    ) -> None:
        self.socketio = socketio
        self.presence = presence

    def changed(self, game: Game, event: Event) -> None:
        self.refresh(game)

    def refresh(self, game: Game) -> None:
        """Send every room the game's state (after a change, or when a seat's connection came
        or went: the same version again, with `players.<colour>.connected` changed)."""
        # Only rooms with a member get it, so what nobody would receive (the overlays with no
        # spectator in an unassisted game, the safety labels with the mover away) is not made
        # now; a later joiner gets the state made for it, its facts cached per position.
        # The caller holds the game's lock, as a join does from entering the room to its
        # reply, so nobody joins between this look and the emit.
        roles = [role for role in ROLES if may_reach(self.socketio, room(game.id, role))]
        if not roles:
            return
        overlays = any(gets_overlays(game, role) for role in roles)
        public = make_public_state(game, time.time(), self.presence(game.id), overlays)
        # seat_state tells the two players apart from the spectators only, so both players
        # get one object (a copy without the opening's name while the game is played).
        made: dict[bool, State] = {}
        seats: list[State] = []
        for role in roles:
            player = role is not None
            if player not in made:
                made[player] = seat_state(public, game, role)
            seats.append(made[player])
        # Rooms that get the very same state (the two players, or the seat not to move and
        # the spectators) share one encoding of it; the mover's is that of the seat not to
        # move with its legal moves written in, not a second encoding of the whole state.
        texts = {id(state): encode(state) for state in seats}
        deliveries = []
        for state, role in zip(seats, roles, strict=True):
            fields = mover_fields(game, role)
            text = texts[id(state)]
            if fields is not None:
                text = encode_mover_state(text, fields)
            deliveries.append((text, room(game.id, role)))
        emit_each(self.socketio, "state", deliveries)

    def rematch_made(self, game: Game, rematch: Game, seats: dict[Color, str]) -> None:
        """Each player of `game` gets the seat of the other colour in `rematch`."""
        for old_color in (WHITE, BLACK):
            token = seats.get(1 - old_color)
            if token is not None:
                payload = {
                    "game": game.id,
                    "rematch": rematch.id,
                    "color": color_name(1 - old_color),
                    "seat": token,
                }
                self.socketio.emit("rematch", payload, to=room(game.id, old_color))

    def premove_dropped(self, game: Game, color: Color, uci: str, reason: str) -> None:
        """Tell the seat its premove was not played (docs/protocol.md, `premove`)."""
        payload = {"game": game.id, "move": None, "dropped": uci, "reason": reason}
        self.socketio.emit("premove", payload, to=room(game.id, color))
