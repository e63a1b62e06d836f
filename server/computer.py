"""The computer opponent: it thinks in a background task and answers after a short delay.

`ComputerMover.request` is called when it becomes the computer's turn. It copies the board
and notes the game's version, then a background task waits the configured delay (so the reply
reads as a reply, and tests can set it small with CHESS_COMPUTER_DELAY), asks
`chesscore.players.make_player(level, seed)` for a move and hands it to `play` with that
version. `play` applies it only if the game is still at that version: a reply computed for an
earlier position (after a takeback, a resignation, a restart) is thrown away, never played.
The seed is the game's seed plus the ply, so a game replays the same after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from chesscore import Board, Move
from chesscore.players import make_player

log = logging.getLogger(__name__)

# Applies the computer's move to game `id` if it is still at `version`.
Play = Callable[[str, int, Move], None]
Spawn = Callable[..., object]


class ComputerMover:
    def __init__(
        self, delay: float, spawn: Spawn, sleep: Callable[[float], object], play: Play
    ) -> None:
        self.delay = delay
        self.spawn = spawn
        self.sleep = sleep
        self.play = play

    def request(self, game_id: str, version: int, board: Board, level: int, seed: int) -> None:
        """Think about `board` (a copy the caller no longer touches) in the background."""
        self.spawn(self._think, game_id, version, board, level, seed)

    def _think(self, game_id: str, version: int, board: Board, level: int, seed: int) -> None:
        try:
            self.sleep(self.delay)
            move = make_player(level, seed).choose_move(board)
            self.play(game_id, version, move)
        except Exception:
            log.exception("the computer's move in game %s failed", game_id)
