"""The Socket.IO connections of this process: each one's role per joined game and rate buckets.

A connection is opened by the real `connect` and closed by the real `disconnect`; opening an
already open one is how a forged `connect` event is recognised. A role is a colour (a seat) or
None (a spectator); actions on a game look their role up here, so they need no token.

Each connection has two rate buckets. The look-up events (preview, describe) draw from a bucket
of their own, kept apart from the actions' one: a player dragging a piece sends a preview each
time it passes over a new target square, and a screen-reader user moving the focus across the
board sends a describe per square, bursts of cheap read-only requests. Drawn from the actions'
bucket (20 at once, then 10 a second), a long drag would leave the move that ends it refused as
`rate_limited`; so the look-ups' bucket is larger (they are cheap and cached), and a move is
never refused because of them. Refused look-ups still count towards closing a connection that
floods.

Each also keeps the language its handshake was served in (`set_language` at connect): a move,
served without a request context, is refused in it (`language`, read by server.i18n through
server.edge.dispatch.bare_language).

It also knows which seats of a game have a connection here (`connected_seats`), for the
state's `players.<colour>.connected`: a count per game and colour, kept as roles are set,
dropped and closed, so a state never scans the connections. `set_role`, `drop_role` and
`close` return the games whose seats' presence changed, for the caller to push their state.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from chesscore import Color
from server.edge.ratelimit import BURST, PER_SECOND
from server.shared.buckets import TokenBucket
from server.shared.slots import Slot

# Refused events (rate limit) in a burst after which the connection is closed.
FLOOD_LIMIT = 1000
# The look-ups' bucket: burst and refill per second.
LOOKUP_BURST = 40
LOOKUP_PER_SECOND = 20.0
# Moves of analysis paths replayed from scratch (about 25 microseconds each), at once and per
# second: what one connection may make the process replay for the analysis board, whose
# requests name a node by its path of up to 1,000 moves (server.analysis.events).
REPLAY_BURST = 3000
REPLAY_PER_SECOND = 1000.0


@dataclass
class Connection:
    roles: dict[str, Color | None] = field(default_factory=dict)
    bucket: TokenBucket = field(default_factory=lambda: TokenBucket(BURST, PER_SECOND))
    lookups: TokenBucket = field(
        default_factory=lambda: TokenBucket(LOOKUP_BURST, LOOKUP_PER_SECOND)
    )
    replays: TokenBucket = field(
        default_factory=lambda: TokenBucket(REPLAY_BURST, REPLAY_PER_SECOND)
    )
    # Refused events allowed before the connection is closed, refilled at the event rate.
    strikes: TokenBucket = field(default_factory=lambda: TokenBucket(FLOOD_LIMIT, PER_SECOND))
    # The language chosen from the handshake (server.i18n), for the refusals of the events
    # served without a request context (server.edge.dispatch.bind_bare).
    language: str = "en"


class Connections:
    def __init__(self) -> None:
        self.open_connections: dict[str, Connection] = {}
        self.lock = threading.Lock()
        # game id -> colour -> how many connections of this process hold that seat.
        self.seat_counts: dict[str, Counter[Color]] = {}

    def open(self, sid: str) -> bool:
        """Register a new connection; False if `sid` is open already."""
        with self.lock:
            if sid in self.open_connections:
                return False
            self.open_connections[sid] = Connection()
            return True

    def close(self, sid: str) -> list[str]:
        """Forget the connection; the games where a seat lost its last connection here."""
        with self.lock:
            connection = self.open_connections.pop(sid, None)
            if connection is None:
                return []
            return [
                game_id
                for game_id, role in connection.roles.items()
                if self._count(game_id, role, -1)
            ]

    def _count(self, game_id: str, role: Color | None, step: int) -> bool:
        """Count a connection more or less on the seat `role`; whether the seat went from no
        connection to one or back (the caller holds the lock)."""
        if role is None:
            return False
        counts = self.seat_counts.setdefault(game_id, Counter())
        counts[role] += step
        changed = counts[role] == (1 if step > 0 else 0)
        if counts[role] <= 0:
            del counts[role]
        if not counts:
            del self.seat_counts[game_id]
        return changed

    def connected_seats(self, game_id: str) -> frozenset[Color]:
        """The colours of the game with a connection of this process holding the seat."""
        with self.lock:
            return frozenset(self.seat_counts.get(game_id, ()))

    def get(self, sid: str) -> Connection:
        with self.lock:
            connection = self.open_connections.get(sid)
            if connection is None:
                # An event racing the connect handler still gets a connection to count
                # against. Made only then: a `Connection` is four buckets and their locks.
                connection = self.open_connections[sid] = Connection()
            return connection

    def set_language(self, sid: str, language: str) -> None:
        """Keep the language the connection's handshake chose (at connect, once)."""
        self.get(sid).language = language

    def language(self, sid: str) -> str | None:
        """The connection's language; None for a connection not open here. Read only when a
        refusal is worded, never on an event's way: one dict look-up, no lock (a dict's get
        is atomic, and a connection's language is set once before its first event)."""
        connection = self.open_connections.get(sid)
        return None if connection is None else connection.language

    def allow(self, sid: str, lookup: bool = False) -> bool:
        """Whether the connection may send one more event now (a look-up: from its own bucket)."""
        connection = self.get(sid)
        return (connection.lookups if lookup else connection.bucket).allow()

    def allow_replay(self, sid: str, moves: int) -> bool:
        """Whether the connection may have `moves` moves of a path replayed now."""
        return self.get(sid).replays.allow(moves)

    def is_flooding(self, sid: str) -> bool:
        """Count one refused event; True once a client keeps sending long after being told to
        slow down (each event costs the server a task even when refused), to be cut off."""
        return not self.get(sid).strikes.allow()

    def set_role(self, sid: str, game_id: str, role: Color | None) -> bool:
        """Give the connection `role` in the game; whether a seat's presence changed."""
        roles = self.get(sid).roles
        with self.lock:
            old = roles.get(game_id)
            had = game_id in roles
            roles[game_id] = role
            if had and old == role:
                return False
            left = had and self._count(game_id, old, -1)
            return self._count(game_id, role, +1) or left

    def drop_role(self, sid: str, game_id: str) -> tuple[bool, bool]:
        """Forget the connection's role in a game: whether it had joined it, and whether a
        seat's presence changed."""
        roles = self.get(sid).roles
        with self.lock:
            if game_id not in roles:
                return False, False
            return True, self._count(game_id, roles.pop(game_id), -1)

    def has_player(self, game_id: str) -> bool:
        """Whether a connection of this process holds a seat in the game (the sweep for
        abandoned games spares it)."""
        with self.lock:
            connections = list(self.open_connections.values())
        return any(connection.roles.get(game_id) is not None for connection in connections)

    def has_joined(self, sid: str, game_id: str) -> bool:
        return game_id in self.get(sid).roles

    def role(self, sid: str, game_id: str) -> Color | None:
        return self.get(sid).roles.get(game_id)


CONNECTIONS: Slot[Connections] = Slot("connections")
