"""The positions drills are made on: a set shipped with the project, and finished games here.

A `TrainingPosition` is a FEN and the move the game went on with from it (a blunder check asks
about that move). The shipped set is every position from the 8th ply on of the games in
`data/games.pgn` (public game scores, moves only: data/README.md), read once. Games played on
this site join it once they are over, never while they are played: `SiteGames` asks the store
for the most recently ended ones and reads a position of one of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from chesscore import Board, Move
from chesscore.rules.pgn_import import read_games

GAMES_FILE = Path(__file__).parent / "data" / "games.pgn"
# The opening's first moves are the same in many games and have few threats to see.
FIRST_PLY = 8
# How many of the most recently ended site games a drill may come from.
RECENT_GAMES = 200
REFRESH_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class TrainingPosition:
    """A position (FEN), the move played from it, and where it comes from (for the page)."""

    fen: str
    played: Move | None
    source: str


@cache
def shipped_positions() -> tuple[TrainingPosition, ...]:
    """Every position of the shipped games from `FIRST_PLY` on (read once per process)."""
    found = []
    for game in read_games(GAMES_FILE.read_text(encoding="utf-8")):
        board = Board(game.start_fen)
        title = f"{game.headers.get('White', '?')} - {game.headers.get('Black', '?')}"
        for ply, node in enumerate(game.moves):
            if ply >= FIRST_PLY:
                found.append(TrainingPosition(board.fen(), node.move, title))
            board.push(node.move)
    return tuple(found)


def positions_of_game(start_fen: str, moves: list[str], source: str) -> list[TrainingPosition]:
    """The positions of a finished game from `FIRST_PLY` on, from its start and UCI moves."""
    board = Board(start_fen)
    found = []
    for ply, uci in enumerate(moves):
        move = Move.from_uci(uci)
        if ply >= FIRST_PLY:
            found.append(TrainingPosition(board.fen(), move, source))
        board.push(move)
    return found


class SiteGames:
    """Positions of games played here once over. `finished_ids(limit)` lists the most recently
    ended games, `load(id)` gives a game's (start FEN, UCI moves) or None if it is gone or
    still played. The list is asked for again at most every `REFRESH_SECONDS`: drills are
    asked for far more often than games end."""

    def __init__(
        self,
        finished_ids: Callable[[int], list[str]],
        load: Callable[[str], tuple[str, list[str]] | None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.finished_ids = finished_ids
        self.load = load
        self.clock = clock
        self.listed: tuple[float, list[str]] | None = None

    def recent_ids(self) -> list[str]:
        now = self.clock()
        if self.listed is None or now - self.listed[0] >= REFRESH_SECONDS:
            self.listed = now, self.finished_ids(RECENT_GAMES)
        return self.listed[1]

    def pick(self, rng: random.Random) -> TrainingPosition | None:
        """A random position of a random recently finished game, or None if there is none."""
        ids = self.recent_ids()
        if not ids:
            return None
        game_id = rng.choice(ids)
        loaded = self.load(game_id)
        if loaded is None:
            return None
        positions = positions_of_game(*loaded, source=f"a game played here ({game_id})")
        return rng.choice(positions) if positions else None
