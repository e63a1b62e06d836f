"""The computer opponent: it thinks in the background and answers after a short delay.

`ComputerMover.request` is called when it becomes the computer's turn, with the game's
position as plain data (start FEN and the UCI moves) and its version. A background task waits
the configured delay (so the reply reads as a reply, and tests set it small with
CHESS_COMPUTER_DELAY), finds a move and hands it to `play` with that version; `play` applies
it only if the game is still at that version, so a reply computed for an earlier position
(after a takeback, a resignation, a restart) is thrown away, never played.

Level 1 is `chesscore.players.make_player(1, seed)`, the random mover, played in this process.
The engine levels (2 and up, `chesscore.levels`) search for up to seconds of CPU, so they run in
one worker process (`choose_move_uci`, plain data in and out): while the computer thinks, the
process that answers players keeps its CPU and its GIL. The seed is the game's seed plus the
ply, so a game replays the same after a restart. A search for a position that has changed
(`cancel`, called on every change of the game) is stopped in the worker at once, through a
flag in memory shared with it, so the worker is free for the next game's search; its move, the
best found so far, is thrown away by the version check like any stale reply.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from ctypes import c_byte
from typing import Any

from chesscore import Board, ChessError, Move
from chesscore.levels import LEVELS as ENGINE_LEVELS
from chesscore.levels import choose_move_uci
from chesscore.players import make_player

log = logging.getLogger(__name__)

RANDOM_LEVEL = 1
LEVELS = (RANDOM_LEVEL, *ENGINE_LEVELS)

# Applies the computer's move to game `id` if it is still at `version`.
Play = Callable[[str, int, Move], None]
Spawn = Callable[..., object]

# Cancel flags shared with the worker, one per search slot. Slots are handed out in turn, so a
# slot comes round again only after SLOTS newer searches, long after its search has ended.
SLOTS = 1024
# How much the worker yields the CPU to the server (os.nice), so a search never delays a reply:
# on 2 busy cores, bench/latency.py measured another game's p50 round trip 5.8 ms slower while
# level 8 searched at niceness 0, and 1.4 ms / -0.1 ms (noise) at 10.
WORKER_NICENESS = 10

# In the worker process only: the shared cancel flags, set by `start_worker`.
worker_flags: Any = None


def check_level(level: int) -> None:
    """Raise ChessError for a level no player exists for."""
    if level not in LEVELS:
        raise ChessError(f"unknown computer level {level!r}; levels: {LEVELS}")


def exit_with_parent(parent: int) -> None:
    """Worker initializer: leave when the server process is gone.

    A server stopped by a signal (SIGTERM, or kill -9) runs no clean-up, and its worker would
    otherwise linger as an orphan, so the worker watches its parent id and exits on its own."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start_worker(parent: int, flags: Any) -> None:
    """Worker initializer: keep the shared cancel flags, yield the CPU, exit with the server."""
    global worker_flags
    worker_flags = flags
    os.nice(WORKER_NICENESS)
    exit_with_parent(parent)


class SlotSignal:
    """The cancel signal of one search slot, read from the flags shared with the server."""

    def __init__(self, slot: int) -> None:
        self.slot = slot

    def is_set(self) -> bool:
        return bool(worker_flags[self.slot])


def search_in_worker(start_fen: str, moves: list[str], level: int, seed: int, slot: int) -> str:
    """`choose_move_uci` in the worker, stopped early once the slot's cancel flag is raised."""
    return choose_move_uci(start_fen, moves, level, seed, cancel=SlotSignal(slot))


class ComputerMover:
    def __init__(
        self, delay: float, spawn: Spawn, sleep: Callable[[float], object], play: Play
    ) -> None:
        self.delay = delay
        self.spawn = spawn
        self.sleep = sleep
        self.play = play
        self.pool: ProcessPoolExecutor | None = None
        self.pool_lock = threading.Lock()
        self.flags = multiprocessing.get_context("spawn").RawArray(c_byte, SLOTS)
        self.searches: dict[str, int] = {}  # game id -> slot of the search in flight for it
        self.next_slot = 0

    def request(
        self, game_id: str, version: int, start_fen: str, moves: list[str], level: int, seed: int
    ) -> None:
        """Think about the position after `moves` in the background, then `play` the reply."""
        with self.pool_lock:
            self._cancel(game_id)
            slot = self.next_slot
            self.next_slot = (slot + 1) % SLOTS
            self.flags[slot] = 0
            self.searches[game_id] = slot
        self.spawn(self._think, game_id, version, start_fen, moves, level, seed, slot)

    def cancel(self, game_id: str) -> None:
        """Stop the search in flight for `game_id`, if any: its position has changed."""
        with self.pool_lock:
            self._cancel(game_id)

    def _cancel(self, game_id: str) -> None:
        slot = self.searches.pop(game_id, None)
        if slot is not None:
            self.flags[slot] = 1

    def _think(
        self,
        game_id: str,
        version: int,
        start_fen: str,
        moves: list[str],
        level: int,
        seed: int,
        slot: int,
    ) -> None:
        try:
            self.sleep(self.delay)
            if self.flags[slot]:
                return  # cancelled while waiting: the worker need not see it at all
            uci = self.choose(start_fen, moves, level, seed, slot)
            self.play(game_id, version, Move.from_uci(uci))
        except Exception:
            if not self.flags[slot]:
                log.exception("the computer's move in game %s failed", game_id)
        finally:
            with self.pool_lock:
                if self.searches.get(game_id) == slot:
                    del self.searches[game_id]

    def choose(self, start_fen: str, moves: list[str], level: int, seed: int, slot: int) -> str:
        if level == RANDOM_LEVEL:
            board = Board.from_fen(start_fen)
            for uci in moves:
                board.push_uci(uci)
            return make_player(level, seed).choose_move(board).uci()
        worker = self._worker()
        return worker.submit(search_in_worker, start_fen, moves, level, seed, slot).result()

    def _worker(self) -> ProcessPoolExecutor:
        with self.pool_lock:
            if self.pool is None:
                # spawn: forking a process that runs threads could copy a held lock. The flags
                # reach the worker as an initializer argument: shared memory is handed over
                # when a process starts, never inside a task.
                self.pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_worker,
                    initargs=(os.getpid(), self.flags),
                )
            return self.pool

    def close(self) -> None:
        with self.pool_lock:
            if self.pool is not None:
                self.pool.shutdown(wait=False, cancel_futures=True)
