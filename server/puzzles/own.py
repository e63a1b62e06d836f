"""A player's own puzzles: the mistakes a finished review marked, verified as puzzles.

A review marks a ply a mistake or a blunder when the mover's winning chances fell; "learn from
your mistakes" asks the player to find the better move in the position before it. That
position is a puzzle when the player had exactly one winning move there and missed it: the
puzzle's FEN is the position before the opponent's previous move (the setting-up move), and
chesscore.puzzles.verify_puzzle judges it by the same rules as the shipped set, with Stockfish
at the review's node budget (the review's JSON names it). What passes joins the set as the
erring account's own (`owner_id`; its source the game's address), themes judged and first
rating estimated as the generator does.

Verifying takes several searches a candidate (MultiPV 2 at each of the solver's moves), more
than a review's time should hold, so it is work after the review: `review_finished` queues the
finished review's body and one background task (`spawn`) takes them one at a time, with one
Stockfish process it starts, bounds every wait of (server.engine.uci) and closes after each
review. Only games played here between accounts have owners; a PGN's review is passed over.
"""

from __future__ import annotations

import hashlib
import logging
import queue
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from chesscore.puzzles import (
    Puzzle,
    Verified,
    estimate_rating,
    find_themes,
    measure_difficulty,
    verify_puzzle,
)
from chesscore.rules.squares import COLOR_NAMES
from server.engine.puzzle_lines import engine_lines
from server.engine.stockfish import StockfishSpec
from server.engine.uci import EngineError, UciEngine
from server.puzzles.tables import PuzzleTables

log = logging.getLogger(__name__)

MARKED = ("mistake", "blunder")
# Reviews waiting to be looked at; more are dropped (logged): own puzzles are a bonus.
WAITING = 64
# The bound on one search's wait (a node budget ends far sooner on any machine we run on).
SEARCH_SECONDS = 60.0
HASH_MB = 16
ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A marked mistake of `color`'s: the position before the opponent's move that led to it
    (`fen`) and that move (`setting_up`)."""

    fen: str
    setting_up: str
    color: str
    ply: int


def find_candidates(review: dict[str, Any]) -> Iterator[Candidate]:
    """The marked mistakes of a review's JSON that could be puzzles (the ply before exists)."""
    plies = review["plies"]
    for index, item in enumerate(plies):
        if item.get("class") not in MARKED or index == 0:
            continue
        fen = review["start_fen"] if index == 1 else plies[index - 2]["fen"]
        yield Candidate(fen, plies[index - 1]["uci"], item["color"], item["ply"])


def puzzle_id(fen: str, moves: tuple[str, ...]) -> str:
    """Eight characters of 0-9a-zA-Z from the position and line (longer than the shipped set's
    six and lichess's five, so no import collides with them)."""
    number = int.from_bytes(hashlib.sha256(f"{fen} {' '.join(moves)}".encode()).digest()[:8])
    text = ""
    for _ in range(8):
        number, digit = divmod(number, len(ID_ALPHABET))
        text += ID_ALPHABET[digit]
    return text


def make_own_puzzle(fen: str, verified: Verified, url: str) -> Puzzle:
    moves = verified.moves
    rating = estimate_rating(measure_difficulty(fen, moves, found_quickly=True))
    return Puzzle(puzzle_id(fen, moves), fen, moves, rating, 500, 0, 0,
                  find_themes(fen, moves), url)  # fmt: skip


class OwnPuzzles:
    """The queue of finished reviews and the task that turns their mistakes into puzzles.
    `accounts_of(game_id)` gives a game's accounts by colour name ({} when none)."""

    def __init__(
        self,
        tables: PuzzleTables,
        stockfish: StockfishSpec | None,
        accounts_of: Callable[[str], dict[str, int]],
        spawn: Callable[..., object],
    ) -> None:
        self.tables = tables
        self.stockfish = stockfish
        self.accounts_of = accounts_of
        self.spawn = spawn
        self.waiting: queue.Queue[dict[str, Any] | None] = queue.Queue(WAITING)
        self.started = False

    def review_finished(self, review: dict[str, Any]) -> None:
        """A review's listener (server.review.runner): queue it if it can give own puzzles."""
        if self.stockfish is None or review.get("status") != "done":
            return
        if "game" not in (review.get("source") or {}):
            return
        if not self.started:
            self.started = True
            self.spawn(self._loop)
        try:
            self.waiting.put_nowait(review)
        except queue.Full:
            log.warning("own puzzles: review %s passed over, the queue is full", review["id"])

    def close(self) -> None:
        if self.started:
            self.waiting.put(None)

    def _loop(self) -> None:
        while (review := self.waiting.get()) is not None:
            try:
                self.add_from(review)
            except Exception:
                log.exception("own puzzles: review %s failed", review.get("id"))

    def add_from(self, review: dict[str, Any]) -> int:
        """Verify a finished review's marked mistakes; how many puzzles were added."""
        accounts = self.accounts_of(review["source"]["game"])
        candidates = [c for c in find_candidates(review) if c.color in accounts]
        if not candidates or self.stockfish is None:
            return 0
        nodes = int((review.get("engine") or {}).get("nodes") or 120_000)
        url = review["headers"].get("Site", "")
        engine = UciEngine.start(self.stockfish.command, self.stockfish.name)
        added = 0
        try:
            for name, value in (("Threads", 1), ("Hash", HASH_MB), ("MultiPV", 2)):
                engine.set_option(name, value)
            for candidate in candidates:
                engine.new_game()
                engine.ping()
                verdict = verify_puzzle(
                    candidate.fen,
                    candidate.setting_up,
                    lambda board: engine_lines(engine, board, nodes, SEARCH_SECONDS),
                )
                if not isinstance(verdict, Verified):
                    continue
                puzzle = make_own_puzzle(candidate.fen, verdict, url)
                owner = accounts[candidate.color]
                added += self.tables.add_puzzles([puzzle], lambda p: p.game_url, owner)
        except EngineError as error:
            log.warning("own puzzles: the engine failed on review %s: %s", review["id"], error)
        finally:
            engine.close()
        return added


def accounts_by_color(accounts: dict[int, int]) -> dict[str, int]:
    """A game's accounts by colour name, from the store's colour ints."""
    return {COLOR_NAMES[color]: account for color, account in accounts.items()}
