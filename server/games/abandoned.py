"""The abandoned-game sweep: games nobody changed for `ABANDON_AFTER` seconds end.

A game left open in a closed tab would stay "playing" for ever, and every restart would load
it (replaying its moves) to arm its clock and the computer's reply. The `Sweeper` ends such
games instead: when the service resumes after a start, before the rest are loaded, and then
every hour while the server runs (sooner if games may be abandoned sooner). Most end as
abandoned (`play.abandon`: no result) from their stored header alone, committed under the
game's lock without loading the game. One whose clock runs ends on time, and one in memory
ends in place so its watchers see it: both go through the service's session. A game a player
of this process is connected to is spared, however long its player thinks.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Protocol

from server.games import play
from server.games.play import Change, Event, Game
from server.games.scheduler import Scheduler
from server.games.stored import (
    IdleGame,
    StaleVersionError,
    StoredChange,
    header_from_data,
    header_to_data,
)
from server.games.tables import GameTables

log = logging.getLogger(__name__)

# Seconds between sweeps for abandoned games while the server runs (at most).
SWEEP_INTERVAL = 3600.0


class SweptGames(Protocol):
    """What the sweep needs of the game service (`server.games.service.GameService`)."""

    tables: GameTables
    scheduler: Scheduler
    clock: Callable[[], float]

    def session(self, game_id: str) -> AbstractContextManager[Game]:
        """Hold the game's lock, the game loaded and a clock that ran out settled."""

    def unloaded(self, game_id: str) -> AbstractContextManager[bool]:
        """Hold the game's lock without loading it; whether it is out of memory."""

    def commit(self, game: Game, change: Change) -> Event:
        """Store, apply and tell `change` to a game of a session."""


class Sweeper:
    """Ends the abandoned games of `games`' tables, at start-up and from then on periodically."""

    def __init__(
        self, games: SweptGames, abandon_after: float, attended: Callable[[str], bool]
    ) -> None:
        self.games = games
        # ABANDON_AFTER (server.shared.config): how long a game may go unchanged (0: for ever);
        # `attended` says whether a player of this process is connected to a game.
        self.abandon_after = abandon_after
        self.attended = attended

    def sweep(self) -> set[str]:
        """End the games nobody changed for `abandon_after` seconds, sparing those a player of
        this process is connected to; the ids it ended or loaded. Most end as abandoned (no
        result) from their header alone, without replaying their moves: with thousands of them
        that is what keeps start-up fast. One whose clock runs ends on time instead: a flag
        is a result, the one any player loading the game would have seen."""
        if self.abandon_after <= 0:
            return set()
        now = self.games.clock()
        handled = set()
        for idle in self.games.tables.idle_games(now - self.abandon_after):
            if self.attended(idle.id):
                continue
            try:
                self._end_idle(idle)
            except Exception:
                log.exception("could not end the abandoned game %s", idle.id)
            handled.add(idle.id)
        return handled

    def _end_idle(self, idle: IdleGame) -> None:
        header = header_from_data(idle.header)
        if not play.has_running_clock(header):
            with self.games.unloaded(idle.id) as unloaded:
                if unloaded:
                    self._commit_unloaded(idle, play.abandon(header))
                    return
        # A running clock's flag needs the board (a side that cannot mate does not win), and
        # a game in memory is ended in place so its watchers see it: both go through a session,
        # whose loading settles a flag that is due.
        with self.games.session(idle.id) as game:
            unchanged = game.version == idle.version and game.is_playing
            if unchanged and not play.has_running_clock(game.header):
                self.games.commit(game, play.abandon(game.header))

    def _commit_unloaded(self, idle: IdleGame, change: Change) -> None:
        """Store `change` to a game that is not in memory, so nobody here watches it; the
        caller holds its lock. A game changed meanwhile keeps playing (a newer version)."""
        version = idle.version + 1
        stored = StoredChange(
            version=version,
            header=header_to_data(change.header),
            event={"version": version, **change.event},
            active=change.header.status == "playing",
            added=[],
        )
        try:
            self.games.tables.commit(idle.id, stored)
        except StaleVersionError:
            log.info("game %s changed as it was found abandoned: it goes on", idle.id)

    def schedule(self) -> None:
        """Sweep every hour, or as often as games may be abandoned if that is sooner."""
        if self.abandon_after > 0:
            delay = min(SWEEP_INTERVAL, self.abandon_after)
            self.games.scheduler.schedule(self.games.clock() + delay, self._sweep_again)

    def _sweep_again(self) -> None:
        try:
            self.sweep()
        finally:
            self.schedule()
