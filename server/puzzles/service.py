"""Choosing puzzles and rating attempts: the puzzles' one service, shared by every request.

`load_shipped()` puts the set shipped in chesscore/data/puzzles.csv into the tables at start,
once per version of the file (its digest is recorded: a start with the same file reads
nothing). `next_puzzle` asks the tables for the puzzles nearest the rating asked (the
account's own puzzle rating, or 1500, when none is given), on both sides, leaving out the
account's results and the ids the page sends, and picks one of the `CHOICE` nearest at random
(everyone at 1500 would otherwise meet the same puzzle first); when every puzzle near is done,
one done before is given again rather than none. `record_result` stores a result once per
solver and puzzle (an account, or an address for a visitor without one) and moves both
ratings only then, so nobody can farm a puzzle's rating. `lesson` is what a hint and a failure
show (server.puzzles.lesson). Every request of an address first takes a token of its bucket,
as the trainer's do (server.shared.buckets).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import chesscore
from chesscore.puzzles import Puzzle, read_puzzles
from chesscore.puzzles import rate_attempt as rate_puzzle_attempt
from chesscore.ratings import PlayerRating
from chesscore.words import ENGLISH, Translator
from server.puzzles.lesson import make_lesson
from server.puzzles.requests import NextRequest, ResultRequest
from server.puzzles.tables import Attempt, Choice, PuzzleTables, StoredPuzzle, ThemeTally
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot

SHIPPED = Path(chesscore.__file__).resolve().parent / "data" / "puzzles.csv"
SHIPPED_SET = "shipped"
DEFAULT_RATING = 1500
# Puzzles read on each side of the rating asked; one of the CHOICE nearest is given.
NEAREST, CHOICE = 6, 4
# Per address: this many requests at once, then one every this many seconds (the trainer's).
BURST, INTERVAL = 60, 0.25
# The theme counts change only with an import or a review's own puzzles: read at most this often.
COUNTS_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Solver:
    """Who solves: `key` stores a result once per solver ("account:<id>" or
    "address:<ip>"), `account_id` None for a visitor without an account."""

    key: str
    account_id: int | None


def solver_of(address: str, account_id: int | None) -> Solver:
    if account_id is None:
        return Solver(f"address:{address}", None)
    return Solver(f"account:{account_id}", account_id)


def shipped_source(puzzle: Puzzle) -> str:
    return puzzle.game_url or "shipped set"


class PuzzleService:
    """The puzzles' service over their tables (see the module docstring)."""

    def __init__(
        self,
        tables: PuzzleTables,
        rng: random.Random | None = None,
        buckets: AddressBuckets | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.rng = rng or random.Random()
        self.buckets = buckets or AddressBuckets(BURST, INTERVAL)
        self.clock = clock
        self.counted: tuple[float, tuple[int, dict[str, int]]] | None = None

    def load_shipped(self, path: Path = SHIPPED) -> int:
        """The shipped set into the tables unless this version of it is there: how many
        puzzles were added (0 when the file was loaded before)."""
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if self.tables.loaded_digest(SHIPPED_SET) == digest:
            return 0
        puzzles = read_puzzles(data.decode("utf-8").splitlines())
        added = self.tables.add_puzzles(puzzles, shipped_source, loaded=(SHIPPED_SET, digest))
        self.counted = None
        return added

    def check_rate(self, address: str) -> None:
        self.buckets.take(address, N_("puzzle requests"))

    def next_puzzle(self, asked: NextRequest, address: str, account_id: int | None) -> StoredPuzzle:
        self.check_rate(address)
        if asked.mine and account_id is None:
            raise RequestError("bad_request", N_("'mine=1' asks for your own puzzles: sign in"))
        rating = asked.rating
        if rating is None:
            known = None if account_id is None else self.tables.account_rating(account_id)
            rating = DEFAULT_RATING if known is None else round(known.glicko.rating)
        choice = Choice(
            asked.theme,
            account_id if asked.mine else None,
            rating,
            solver_of(address, account_id).key if account_id is not None else None,
            asked.exclude,
            NEAREST,
        )
        found = self.tables.nearest(choice)
        if not found:  # every puzzle near was done: one again rather than none
            found = self.tables.nearest(Choice(choice.theme, choice.owner_id, rating, None, (), 1))
        if not found:
            raise RequestError("not_found", N_("no puzzle of this kind in the set"))
        found.sort(key=lambda puzzle: abs(puzzle.rating - rating))
        return self.rng.choice(found[:CHOICE])

    def puzzle(self, puzzle_id: str, address: str) -> StoredPuzzle:
        self.check_rate(address)
        found = self.tables.puzzle(puzzle_id)
        if found is None:
            raise RequestError("not_found", N_("no puzzle has the id {id}"), id=repr(puzzle_id))
        return found

    def theme_counts(self, address: str) -> tuple[int, dict[str, int]]:
        self.check_rate(address)
        now = time.monotonic()
        if self.counted is None or now - self.counted[0] >= COUNTS_SECONDS:
            self.counted = now, self.tables.theme_counts()
        return self.counted[1]

    def record_result(
        self, puzzle_id: str, asked: ResultRequest, address: str, account_id: int | None
    ) -> Attempt:
        self.check_rate(address)
        solver = solver_of(address, account_id)
        now = self.clock()
        attempt = self.tables.record_result(
            puzzle_id,
            solver.key,
            solver.account_id,
            asked.win,
            now,
            partial(_rate, solved=asked.win, now=now),
            asked.solver or PlayerRating(),
        )
        if attempt is None:
            raise RequestError("not_found", N_("no puzzle has the id {id}"), id=repr(puzzle_id))
        return attempt

    def lesson(
        self, puzzle_id: str, step: int, address: str, words: Translator = ENGLISH
    ) -> dict[str, Any]:
        """What a hint or a failure shows at the solver's move `step`, said through `words`."""
        return make_lesson(self.puzzle(puzzle_id, address), step, words)

    def dashboard(self, address: str, account_id: int) -> tuple[PlayerRating, list[ThemeTally]]:
        self.check_rate(address)
        return self.tables.account_rating(account_id), self.tables.dashboard(account_id)


def _rate(solver: PlayerRating, puzzle: PlayerRating, solved: bool, now: float) -> tuple[Any, Any]:
    return rate_puzzle_attempt(solver, puzzle, solved, now)


PUZZLES: Slot[PuzzleService] = Slot("puzzles")
