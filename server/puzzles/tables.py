"""The puzzles' tables: the set, its themes, each solver's results and each account's rating.

`puzzles` holds a row per puzzle as lichess's CSV has it (chesscore.puzzles.csvformat), its
Glicko-2 rating (rating, deviation, volatility: results move it), how often it was played,
its themes (space-separated keys), where it comes from (`source`: a game's address, an engine
game, an import), the account whose own puzzle it is (`owner_id`, a mistake of theirs found by a
review; NULL for the shared set) and `position_key` (the FEN and setting-up move, unique: the
same puzzle twice under two ids is one). `puzzle_themes` repeats each puzzle's rating per theme
so that "the nearest rating in a theme" walks one index. `puzzle_results` holds one row per
solver and puzzle, the first result only (`solver` is "account:<id>" or "address:<ip>"): what
makes a result count once for the puzzle's rating and the account's; an account's rows carry
its rating before and after. `puzzle_ratings` is each account's puzzle rating. Deleting an
account deletes its results, rating and own puzzles (`forget_account`, in the deletion's
transaction, as the ratings' tables do). `puzzle_sets`
records the digest of the shipped file last loaded, so that a start loads it only when it
changed.

Rating an attempt is one transaction holding PUZZLES_LOCK (PostgreSQL; SQLite's
`BEGIN IMMEDIATE` serialises it anyway): the result row is inserted first, and only when it is
new do both ratings move, so two processes given the same result rate it once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from chesscore.puzzles import Puzzle
from chesscore.ratings import PlayerRating, RatingChange
from chesscore.ratings.glicko2 import Glicko
from server.storage.database import Connection, Database
from server.storage.migrations import run

# Rating an attempt holds this advisory lock (PostgreSQL).
PUZZLES_LOCK = 0x50555A5A

PUZZLE_TABLES = """
CREATE TABLE puzzles (
    id TEXT PRIMARY KEY,
    fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays INTEGER NOT NULL,
    themes TEXT NOT NULL,
    source TEXT NOT NULL,
    owner_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    position_key TEXT NOT NULL UNIQUE
);
CREATE INDEX puzzles_rating ON puzzles(rating);
CREATE INDEX puzzles_owner ON puzzles(owner_id, rating);
CREATE TABLE puzzle_themes (
    theme TEXT NOT NULL,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    rating DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (theme, puzzle_id)
);
CREATE INDEX puzzle_themes_rating ON puzzle_themes(theme, rating);
CREATE TABLE puzzle_results (
    solver TEXT NOT NULL,
    puzzle_id TEXT NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    account_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
    win INTEGER NOT NULL,
    played DOUBLE PRECISION NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after DOUBLE PRECISION,
    PRIMARY KEY (solver, puzzle_id)
);
CREATE INDEX puzzle_results_account ON puzzle_results(account_id, played);
CREATE TABLE puzzle_ratings (
    account_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    last_game DOUBLE PRECISION
);
CREATE TABLE puzzle_sets (
    name TEXT PRIMARY KEY,
    digest TEXT NOT NULL
)
"""


def create_tables(db: Connection, database: Database) -> None:
    """Migration 9: puzzles, their themes, results, accounts' puzzle ratings, loaded sets."""
    run(db, PUZZLE_TABLES)


COLUMNS = "id, fen, moves, rating, deviation, volatility, plays, themes, source, owner_id"
RATING_COLUMNS = "rating, deviation, volatility, games, last_game"


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """A puzzle's row: its line (UCI, the setting-up move first), rating and themes."""

    id: str
    fen: str
    moves: tuple[str, ...]
    rating: float
    deviation: float
    volatility: float
    plays: int
    themes: tuple[str, ...]
    source: str
    owner_id: int | None

    @property
    def glicko(self) -> PlayerRating:
        return PlayerRating(Glicko(self.rating, self.deviation, self.volatility), self.plays)


@dataclass(frozen=True, slots=True)
class Choice:
    """What `next` chooses among: a theme (None: any), whose puzzles (`owner_id`: an account's
    own; None: the shared set), near which rating, and what to leave out: the results of
    `solver` and the ids in `exclude`."""

    theme: str | None
    owner_id: int | None
    rating: float
    solver: str | None
    exclude: tuple[str, ...]
    nearest: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """A result as stored: counted (the solver's first on this puzzle) or not, and the
    solver's and the puzzle's ratings after it."""

    counted: bool
    solver_before: float
    solver_after: float
    puzzle_rating: float
    solver: PlayerRating  # the solver's whole rating after it


@dataclass(frozen=True, slots=True)
class ThemeTally:
    theme: str
    wins: int
    losses: int


# The arithmetic of one attempt: the solver's and the puzzle's changes from their ratings
# (server.puzzles.service passes chesscore.puzzles.rate_attempt with the result and time).
Rate = Callable[[PlayerRating, PlayerRating], tuple[RatingChange, RatingChange]]


def _stored(row: Sequence[object]) -> StoredPuzzle:
    pid, fen, moves, rating, deviation, volatility, plays, themes, source, owner = row
    return StoredPuzzle(
        str(pid),
        str(fen),
        tuple(str(moves).split()),
        float(rating),  # type: ignore[arg-type]
        float(deviation),  # type: ignore[arg-type]
        float(volatility),  # type: ignore[arg-type]
        int(plays),  # type: ignore[call-overload]
        tuple(str(themes).split()),
        str(source),
        None if owner is None else int(owner),  # type: ignore[call-overload]
    )


def _player(row: Sequence[object] | None) -> PlayerRating:
    if row is None:
        return PlayerRating()
    rating, deviation, volatility, games, last = row
    glicko = Glicko(float(rating), float(deviation), float(volatility))  # type: ignore[arg-type]
    return PlayerRating(glicko, int(games), None if last is None else float(last))  # type: ignore[call-overload, arg-type]


class PuzzleTables:
    """The puzzles' rows in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    # -- the set ------------------------------------------------------------------------------

    def loaded_digest(self, name: str) -> str | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT digest FROM puzzle_sets WHERE name = ?"), (name,)
            ).fetchone()
        return None if row is None else str(row[0])

    def add_puzzles(
        self,
        puzzles: Iterable[Puzzle],
        source: Callable[[Puzzle], str],
        owner_id: int | None = None,
        loaded: tuple[str, str] | None = None,
    ) -> int:
        """Insert `puzzles` (one transaction), skipping any whose id or position and setting-up
        move is stored already; how many were new. `loaded`: (set name, digest) to record."""
        added = 0
        insert = self.sql(
            f"INSERT INTO puzzles ({COLUMNS}, position_key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        theme_row = self.sql(
            "INSERT INTO puzzle_themes (theme, puzzle_id, rating) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING"
        )
        with self.database.transaction(PUZZLES_LOCK) as db:
            for puzzle in puzzles:
                row = (
                    puzzle.id, puzzle.fen, " ".join(puzzle.moves), float(puzzle.rating),
                    float(puzzle.deviation), 0.06, puzzle.plays, " ".join(puzzle.themes),
                    source(puzzle), owner_id, puzzle.key,
                )  # fmt: skip
                if db.execute(insert, row).rowcount != 1:
                    continue
                added += 1
                for theme in puzzle.themes:
                    db.execute(theme_row, (theme, puzzle.id, float(puzzle.rating)))
            if loaded is not None:
                db.execute(self.sql("DELETE FROM puzzle_sets WHERE name = ?"), (loaded[0],))
                db.execute(self.sql("INSERT INTO puzzle_sets (name, digest) VALUES (?, ?)"), loaded)
        return added

    def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql(f"SELECT {COLUMNS} FROM puzzles WHERE id = ?"), (puzzle_id,)
            ).fetchone()
        return None if row is None else _stored(row)

    def theme_counts(self) -> tuple[int, dict[str, int]]:
        """How many puzzles the shared set holds, and how many of them each theme."""
        with self.database.connection() as db:
            total = db.execute("SELECT COUNT(*) FROM puzzles WHERE owner_id IS NULL").fetchone()
            rows = db.execute(
                "SELECT t.theme, COUNT(*) FROM puzzle_themes t JOIN puzzles p"
                " ON p.id = t.puzzle_id WHERE p.owner_id IS NULL GROUP BY t.theme"
            ).fetchall()
        return int(total[0]), {str(theme): int(count) for theme, count in rows}

    def count_owned(self, owner_id: int) -> int:
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT COUNT(*) FROM puzzles WHERE owner_id = ?"), (owner_id,)
            ).fetchone()
        return int(row[0])

    # -- choosing -----------------------------------------------------------------------------

    def nearest(self, choice: Choice) -> list[StoredPuzzle]:
        """Up to `choice.nearest` puzzles above `choice.rating` and as many below, each side
        nearest first, none the solver has a result on nor any excluded id."""
        found = []
        for above in (True, False):
            query, params = self._nearest_query(choice, above)
            with self.database.connection() as db:
                found += [_stored(row) for row in db.execute(self.sql(query), params).fetchall()]
        return found

    def _nearest_query(self, choice: Choice, above: bool) -> tuple[str, list[object]]:
        columns = ", ".join(f"p.{name.strip()}" for name in COLUMNS.split(","))
        rated = "t.rating" if choice.theme else "p.rating"
        compare, order = (">=", "ASC") if above else ("<", "DESC")
        params: list[object] = []
        if choice.theme:
            query = f"SELECT {columns} FROM puzzle_themes t JOIN puzzles p ON p.id = t.puzzle_id"
            query += " WHERE t.theme = ?"
            params.append(choice.theme)
        else:
            query = f"SELECT {columns} FROM puzzles p WHERE 1 = 1"
        if choice.owner_id is None:
            query += " AND p.owner_id IS NULL"
        else:
            query += " AND p.owner_id = ?"
            params.append(choice.owner_id)
        query += f" AND {rated} {compare} ?"
        params.append(choice.rating)
        if choice.solver is not None:
            query += (
                " AND NOT EXISTS (SELECT 1 FROM puzzle_results r"
                " WHERE r.solver = ? AND r.puzzle_id = p.id)"
            )
            params.append(choice.solver)
        if choice.exclude:
            query += f" AND p.id NOT IN ({', '.join('?' for _ in choice.exclude)})"
            params += choice.exclude
        query += f" ORDER BY {rated} {order} LIMIT ?"
        params.append(choice.nearest)
        return query, params

    # -- results ------------------------------------------------------------------------------

    def account_rating(self, account_id: int) -> PlayerRating:
        with self.database.connection() as db:
            row = db.execute(
                self.sql(f"SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE account_id = ?"),
                (account_id,),
            ).fetchone()
        return _player(row)

    def record_result(
        self,
        puzzle_id: str,
        solver: str,
        account_id: int | None,
        win: bool,
        now: float,
        rate: Rate,
        anonymous: PlayerRating,
    ) -> Attempt | None:
        """Store `solver`'s result on the puzzle (None: no such puzzle). The first result of a
        solver counts: the puzzle's rating and, for an account, the account's move by `rate`
        (`anonymous`: the rating a visitor without an account keeps in the browser)."""
        with self.database.transaction(PUZZLES_LOCK) as db:
            row = db.execute(
                self.sql(f"SELECT {COLUMNS} FROM puzzles WHERE id = ?"), (puzzle_id,)
            ).fetchone()
            if row is None:
                return None
            puzzle = _stored(row)
            before = self._solver_rating(db, account_id, anonymous)
            inserted = db.execute(
                self.sql(
                    "INSERT INTO puzzle_results (solver, puzzle_id, account_id, win, played)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
                ),
                (solver, puzzle_id, account_id, int(win), now),
            ).rowcount
            if inserted != 1:
                shown = before.glicko.rating
                return Attempt(False, shown, shown, puzzle.rating, before)
            solver_change, puzzle_change = rate(before, puzzle.glicko)
            self._write_puzzle_rating(db, puzzle_id, puzzle_change.after)
            if account_id is not None:
                self._write_account_rating(db, account_id, solver_change.after)
                db.execute(
                    self.sql(
                        "UPDATE puzzle_results SET rating_before = ?, rating_after = ?"
                        " WHERE solver = ? AND puzzle_id = ?"
                    ),
                    (before.glicko.rating, solver_change.after.glicko.rating, solver, puzzle_id),
                )
        after = solver_change.after.glicko.rating
        puzzle_after = puzzle_change.after.glicko.rating
        return Attempt(True, before.glicko.rating, after, puzzle_after, solver_change.after)

    def _solver_rating(
        self, db: Connection, account_id: int | None, anonymous: PlayerRating
    ) -> PlayerRating:
        if account_id is None:
            return anonymous
        row = db.execute(
            self.sql(f"SELECT {RATING_COLUMNS} FROM puzzle_ratings WHERE account_id = ?"),
            (account_id,),
        ).fetchone()
        return _player(row)

    def _write_puzzle_rating(self, db: Connection, puzzle_id: str, after: PlayerRating) -> None:
        glicko = after.glicko
        db.execute(
            self.sql(
                "UPDATE puzzles SET rating = ?, deviation = ?, volatility = ?, plays = plays + 1"
                " WHERE id = ?"
            ),
            (glicko.rating, glicko.deviation, glicko.volatility, puzzle_id),
        )
        db.execute(
            self.sql("UPDATE puzzle_themes SET rating = ? WHERE puzzle_id = ?"),
            (glicko.rating, puzzle_id),
        )

    def _write_account_rating(self, db: Connection, account_id: int, after: PlayerRating) -> None:
        glicko = after.glicko
        db.execute(self.sql("DELETE FROM puzzle_ratings WHERE account_id = ?"), (account_id,))
        db.execute(
            self.sql(
                f"INSERT INTO puzzle_ratings (account_id, {RATING_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?)"
            ),
            (account_id, glicko.rating, glicko.deviation, glicko.volatility, after.games,
             after.last_game),
        )  # fmt: skip

    def forget_account(self, db: Connection, account_id: int) -> None:
        """Inside the account's deletion (server.accounts.tables): its results, its puzzle
        rating and its own puzzles go (with the results others had on them)."""
        self.database.lock(db, PUZZLES_LOCK)
        owned = "SELECT id FROM puzzles WHERE owner_id = ?"
        for table, column in (("puzzle_results", "puzzle_id"), ("puzzle_themes", "puzzle_id")):
            db.execute(self.sql(f"DELETE FROM {table} WHERE {column} IN ({owned})"), (account_id,))
        db.execute(self.sql("DELETE FROM puzzles WHERE owner_id = ?"), (account_id,))
        db.execute(self.sql("DELETE FROM puzzle_results WHERE account_id = ?"), (account_id,))
        db.execute(self.sql("DELETE FROM puzzle_ratings WHERE account_id = ?"), (account_id,))

    def dashboard(self, account_id: int) -> list[ThemeTally]:
        """The account's results per theme (first results only), most played first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT t.theme, SUM(r.win), COUNT(*) FROM puzzle_results r"
                    " JOIN puzzle_themes t ON t.puzzle_id = r.puzzle_id"
                    " WHERE r.account_id = ? GROUP BY t.theme ORDER BY COUNT(*) DESC, t.theme"
                ),
                (account_id,),
            ).fetchall()
        return [ThemeTally(str(t), int(w), int(n) - int(w)) for t, w, n in rows]
