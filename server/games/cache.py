"""The games this process holds in memory, each with its lock.

A game is loaded from its tables into the cache once and used from there while the tables hold
no newer version (another process sharing PostgreSQL may have changed it: then only the moves
it lacks are played, `_catch_up`). The least recently used games beyond `size` are dropped:
a dropped game is only read again from the tables, which hold every committed change, so a
thread still working on the dropped copy under its lock stays correct. Each game's actions are
serialised by its lock; a lock is forgotten with its game unless it is in use, so made-up ids
cannot pile locks up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from server.games.play import Game
from server.games.stored import StoredGame, game_from_stored, header_from_data
from server.games.tables import GameTables
from server.shared.errors import RequestError


class GameCache:
    """Games by id, most recently used last, with their locks and invitation hashes."""

    def __init__(self, tables: GameTables, size: int, on_drop: Callable[[str], None]) -> None:
        self.tables = tables
        self.size = size
        self.on_drop = on_drop  # told of each game dropped for room (its premoves go too)
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.invite_hashes: dict[str, str | None] = {}
        self.locks: dict[str, threading.Lock] = {}
        self.registry = threading.Lock()

    def lock(self, game_id: str) -> threading.Lock:
        with self.registry:
            return self.locks.setdefault(game_id, threading.Lock())

    def holds(self, game_id: str) -> bool:
        return game_id in self.games

    def load(self, game_id: str) -> tuple[Game, bool]:
        """The game, from the cache if the tables have no newer version (another server process
        sharing them may have changed it), else from the tables; and whether it was read from
        the tables."""
        cached = self.games.get(game_id)
        if cached is None:
            stored = self.tables.load_game(game_id)
            if stored is None:
                raise RequestError("not_found", f"no game with id {game_id!r}")
        elif (
            not self.tables.shared
            or (stored := self.tables.load_if_changed(game_id, cached.version)) is None
        ):
            self.keep(cached)
            return cached, False
        game = _catch_up(cached, stored) or game_from_stored(stored)
        self.invite_hashes[game_id] = stored.invite_hash
        self.keep(game)
        return game, True

    def add(self, game: Game, invite_hash: str | None) -> None:
        """A game just created here (under its lock)."""
        self.invite_hashes[game.id] = invite_hash
        self.keep(game)

    def keep(self, game: Game) -> None:
        """Cache `game` as the most recently used, dropping the least recently used beyond the
        limit."""
        with self.registry:
            self.games[game.id] = game
            self.games.move_to_end(game.id)
            while len(self.games) > self.size:
                dropped, _ = self.games.popitem(last=False)
                self.invite_hashes.pop(dropped, None)
                self.on_drop(dropped)
                lock = self.locks.get(dropped)
                # A lock in use stays; should one be dropped as it is taken, two copies of the
                # game could meet, and the tables' version guard refuses the second write.
                if lock is not None and not lock.locked():
                    del self.locks[dropped]

    def forget(self, game_id: str) -> None:
        """Drop our copy (another process changed the game, or its rows were rewritten): the
        next request reads it again."""
        with self.registry:
            self.games.pop(game_id, None)

    def forget_missing(self, game_id: str) -> None:
        """No lock is kept for a game that does not exist."""
        with self.registry:
            self.locks.pop(game_id, None)

    def forget_lock(self, game_id: str) -> None:
        """Drop the lock of a game not in memory, unless it is in use (as `keep` does)."""
        with self.registry:
            lock = self.locks.get(game_id)
            if game_id not in self.games and lock is not None and not lock.locked():
                del self.locks[game_id]


def _catch_up(cached: Game | None, stored: StoredGame) -> Game | None:
    """The cached game brought up to the stored one by playing only the moves it lacks, when
    the stored moves extend its own (the usual case: another process made the next move);
    None otherwise. Replaying a whole game on every move made elsewhere would cost a process
    time in proportion to the game's length."""
    if cached is None or stored.moves[: cached.ply] != cached.moves:
        return None
    board = cached.board.copy()
    for record in stored.moves[cached.ply :]:
        board.push_uci(record.uci)
    header = header_from_data(stored.header)
    return replace(cached, board=board, header=header, version=stored.version, moves=stored.moves)
