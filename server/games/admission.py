"""Admission: who may create a game, and the per-address tables that decide it.

A public server must not let one visitor fill its store or its engine workers, so every new
game, a rematch included, is admitted first (`Admission`, which the game service holds): each
client address has a bucket for creating games (`AddressBuckets`), refused `rate_limited` with
the seconds to wait, and a cap on the games against the computer it plays at once
(`ComputerGames`), refused `too_many_games`. `ComputerGames` also remembers which address owns
a computer game, the key the engine pool's fair queue shares its workers by. Both tables forget
what is idle (a full bucket; a game with no change for `FORGET_SECONDS`, which stops counting
after `IDLE_SECONDS`) and are capped in size, so a client with many addresses cannot grow them
without end. The buckets are the shared ones (server.shared.buckets).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from server.shared.buckets import AddressBuckets, Clock
from server.shared.errors import N_, RequestError

# A computer game with no change for this long stops counting against its address's cap (and
# its owner is forgotten): a game left open in a closed tab must not block the next one forever.
IDLE_SECONDS = 15 * 60
# Its owner is remembered longer, so its searches still queue as that address's (forgotten, a
# game queues as its own client): a day, when an unchanged game ends as abandoned anyway.
FORGET_SECONDS = 24 * 3600
# At most this many games are remembered; beyond it the longest unchanged are forgotten.
MAX_GAMES = 200_000


@dataclass
class Owned:
    """A computer game's creating address, when it last changed, and whether it counts."""

    address: str
    seen: float
    counted: bool = True


class ComputerGames:
    """The computer games in play per creating address, at most `limit` each. A game stops
    counting when it ends or after `idle` seconds unchanged, and counts again if it changes;
    its owner is remembered until it has been unchanged for `forget` seconds (so a rematch has
    the same owner, and a slow player's searches still queue as their address's)."""

    def __init__(
        self,
        limit: int,
        clock: Clock = time.monotonic,
        idle: float = IDLE_SECONDS,
        forget: float = FORGET_SECONDS,
    ) -> None:
        self.limit = limit
        self.clock = clock
        self.idle = idle
        self.forget = forget
        self.games: dict[str, Owned] = {}  # game id (or a reservation) -> its owner
        self.counts: dict[str, int] = {}  # address -> its games (and reservations) counted
        self.lock = threading.Lock()
        self.reservations = itertools.count()
        self.swept = clock()

    def reserve(self, address: str) -> str:
        """Hold a place for a new game of `address`, or refuse `too_many_games`; `confirm` the
        place with the game's id once it exists, or `finish` it. Held before the game is
        stored, so simultaneous requests cannot all pass the check."""
        with self.lock:
            self._sweep()
            if self.counts.get(address, 0) >= self.limit:
                raise RequestError(
                    "too_many_games",
                    N_(
                        "your address already plays {limit} games against the computer (the "
                        "limit): finish, resign or abort one of them first"
                    ),
                    limit=self.limit,
                )
            place = f"reserved:{next(self.reservations)}"
            self.games[place] = Owned(address, self.clock())
            self.counts[address] = self.counts.get(address, 0) + 1
            return place

    def confirm(self, place: str, game_id: str) -> None:
        with self.lock:
            owned = self.games.pop(place, None)
            if owned is not None:
                self.games[game_id] = owned

    def touch(self, game_id: str) -> None:
        """The game changed and goes on: it counts (again) for another `idle` seconds."""
        with self.lock:
            owned = self.games.get(game_id)
            if owned is not None:
                owned.seen = self.clock()
                if not owned.counted:
                    owned.counted = True
                    self.counts[owned.address] = self.counts.get(owned.address, 0) + 1

    def finish(self, game_id: str) -> None:
        """The game is over (or a reserved one was never made): it no longer counts."""
        with self.lock:
            owned = self.games.get(game_id)
            if owned is not None:
                owned.seen = self.clock()
                self._uncount(owned)

    def owner(self, game_id: str) -> str | None:
        """The address that created the game, while it is remembered."""
        with self.lock:
            owned = self.games.get(game_id)
            return None if owned is None else owned.address

    def _uncount(self, owned: Owned) -> None:
        if not owned.counted:
            return
        owned.counted = False
        self.counts[owned.address] -= 1
        if not self.counts[owned.address]:
            del self.counts[owned.address]

    def _sweep(self) -> None:
        """Stop counting the games idle for `idle` seconds and forget those idle for `forget`
        (a full scan, at most once a minute), and the longest idle beyond MAX_GAMES."""
        now = self.clock()
        if now - self.swept < min(60.0, self.idle) and len(self.games) <= MAX_GAMES:
            return
        self.swept = now
        for game_id, owned in list(self.games.items()):
            if now - owned.seen >= self.idle:
                self._uncount(owned)
            if now - owned.seen >= self.forget:
                del self.games[game_id]
        if len(self.games) > MAX_GAMES:
            by_age = sorted(self.games.items(), key=lambda item: item[1].seen)
            for game_id, owned in by_age[: len(self.games) - MAX_GAMES]:
                self._uncount(owned)
                del self.games[game_id]


class Admission:
    """The gate every new game passes: a creation bucket per address (`creations`) and the cap
    on each address's computer games (`computer_games`, which the service keeps told of each
    game's changes)."""

    def __init__(self, limits: Mapping[str, Any]) -> None:
        # CREATE_BURST, CREATE_INTERVAL, MAX_COMPUTER_GAMES (server.shared.config).
        burst, interval = int(limits["CREATE_BURST"]), float(limits["CREATE_INTERVAL"])
        self.creations = AddressBuckets(burst, interval)
        self.computer_games = ComputerGames(int(limits["MAX_COMPUTER_GAMES"]))

    @contextmanager
    def admitted(self, client: str | None, computer: bool) -> Iterator[str | None]:
        """Admit a new game of `client` (its address; None: no per-address limits), refusing a
        client creating games too fast (`rate_limited`) or playing too many against the
        computer (`too_many_games`). Yields the place held for a computer game while it is
        made (else None): `confirm` it once the game is stored; one never confirmed is given
        back on leaving."""
        place = self._admit(client, computer)
        try:
            yield place
        finally:
            if place is not None:
                self.computer_games.finish(place)  # the place itself; a made game holds its own

    def _admit(self, client: str | None, computer: bool) -> str | None:
        if client is None:
            return None
        self.creations.take(client, N_("new games"))
        return self.computer_games.reserve(client) if computer else None

    def confirm(self, place: str | None, game_id: str) -> None:
        """The game holding `place` is stored as `game_id`: from now on it counts itself."""
        if place is not None:
            self.computer_games.confirm(place, game_id)

    def rematch_client(self, game_id: str, client: str | None, computer: bool) -> str | None:
        """Whose new game the rematch of `game_id` is: the client asking for it, against its
        creation rate and, against the computer, its cap; else, against the computer, the first
        game's owner, if known. Admitted by an owner remembered in memory only, rematches
        escaped both after a restart."""
        if client is None and computer:
            return self.computer_games.owner(game_id)
        return client
