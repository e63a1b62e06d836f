"""The computer opponent: it thinks in the background and answers after a short delay.

`ComputerMover.request` is called when it becomes the computer's turn, with the game's
position as plain data (start FEN and the UCI moves), its version and the client key of the
player (the address that created the game). A background task waits the configured delay (so
the reply reads as a reply, and tests set it small with CHESS_COMPUTER_DELAY), finds a move and
hands it to `play` with that version; `play` applies it only if the game is still at that
version, so a reply computed for an earlier position (after a takeback, a resignation, a
restart) is thrown away, never played.

Levels 1 and 2 (the random mover and the careful beginner) answer in this process, without
waiting for anyone: level 2 costs 3 ms a move (p50; 5 ms p95, 8 ms at most, replaying the game
included, over 1,557 moves of 30 games). The search levels (3 and up, `chesscore.engine.levels`)
think for up to seconds of CPU, so they go through the fair queue of the engine pool
(`server.engine.pool`) to worker processes: while the computer thinks, the process that
answers players keeps its CPU and its GIL, and no player's games can keep another's waiting
for more than one search. The seed is the game's seed plus the ply, so a game replays the same
after a restart. A request made stale (`cancel`, called on every change of the game) is
dropped while it waits, or stopped in its worker at once, and its move thrown away.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable

from chesscore import Board, ChessError, Move
from chesscore.engine.levels import CAREFUL_LEVEL, choose_move_uci
from chesscore.engine.levels import LEVELS as ENGINE_LEVELS
from chesscore.engine.players import make_player
from server.engine.pool import EnginePool, JobOverran, Search

log = logging.getLogger(__name__)

RANDOM_LEVEL = 1
LEVELS = (RANDOM_LEVEL, *ENGINE_LEVELS)
# Levels cheap enough to play in the server process, with no queue.
IN_PROCESS_LEVELS = (RANDOM_LEVEL, CAREFUL_LEVEL)

# Applies the computer's move to game `id` if it is still at `version`.
Play = Callable[[str, int, Move], None]
Spawn = Callable[..., object]


def check_level(level: int) -> None:
    """Raise ChessError for a level no player exists for."""
    if level not in LEVELS:
        raise ChessError(f"unknown computer level {level!r}; levels: {LEVELS}")


def choose_in_process(start_fen: str, moves: list[str], level: int, seed: int) -> str:
    """The move of a cheap level (1 or 2), as UCI, in the position after `moves`."""
    if level != RANDOM_LEVEL:
        return choose_move_uci(start_fen, moves, level, seed)
    board = Board.from_fen(start_fen)
    for uci in moves:
        board.push_uci(uci)
    return make_player(level, seed).choose_move(board).uci()


class ComputerMover:
    def __init__(
        self,
        delay: float,
        spawn: Spawn,
        sleep: Callable[[float], object],
        play: Play,
        pool: EnginePool,
    ) -> None:
        self.delay = delay
        self.spawn = spawn
        self.sleep = sleep
        self.play = play
        self.pool = pool
        self.lock = threading.Lock()
        self.requests: dict[str, int] = {}  # game id -> serial of its current request
        self.serials = itertools.count()

    def request(
        self,
        game_id: str,
        version: int,
        start_fen: str,
        moves: list[str],
        level: int,
        seed: int,
        client: str | None = None,
    ) -> None:
        """Think about the position after `moves` in the background, then `play` the reply.
        `client` keys the fair queue (the game's own id when the creator is unknown)."""
        with self.lock:
            self.pool.cancel(game_id)
            serial = self.requests[game_id] = next(self.serials)
        search = Search(start_fen, moves, level, seed)
        self.spawn(self._think, game_id, version, search, client or game_id, serial)

    def cancel(self, game_id: str) -> None:
        """Forget the game's request, if any: its position has changed."""
        with self.lock:
            self.requests.pop(game_id, None)
            self.pool.cancel(game_id)

    def _think(self, game_id: str, version: int, search: Search, client: str, serial: int) -> None:
        try:
            self.sleep(self.delay)
            uci = self._choose(game_id, search, client, serial)
            if uci is not None:
                self.play(game_id, version, Move.from_uci(uci))
        except Exception:
            if self._is_current(game_id, serial):
                log.exception("the computer's move in game %s failed", game_id)
        finally:
            with self.lock:
                if self.requests.get(game_id) == serial:
                    del self.requests[game_id]

    def _choose(self, game_id: str, search: Search, client: str, serial: int) -> str | None:
        """The move, or None when the request went stale before or while it was searched."""
        if search.level in IN_PROCESS_LEVELS:
            if not self._is_current(game_id, serial):
                return None
            return choose_in_process(search.start_fen, search.moves, search.level, search.seed)
        with self.lock:
            # Checked and queued under one lock, so a cancel comes either before (and the search
            # is never queued) or after (and finds it in the queue).
            if self.requests.get(game_id) != serial:
                return None
            ticket = self.pool.enqueue(game_id, client, search)
        try:
            return self.pool.run(ticket)
        except JobOverran:
            # Its worker was killed past the search's bound (server.engine.watchdog): the game
            # still gets a reply, the cheap careful level's, rather than waiting for ever.
            log.warning("game %s: the search ran past its bound; a level-2 move instead", game_id)
            if not self._is_current(game_id, serial):
                return None
            return choose_in_process(search.start_fen, search.moves, CAREFUL_LEVEL, search.seed)

    def _is_current(self, game_id: str, serial: int) -> bool:
        with self.lock:
            return self.requests.get(game_id) == serial

    def close(self) -> None:
        self.pool.close()
