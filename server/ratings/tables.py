"""The ratings' tables: each account's current rating per speed, and a row per rated game.

`ratings` holds each account's current rating per speed (chesscore.ratings: rating,
deviation, volatility, rated games, when the last ended); an account without a row in a speed
has the initial rating there. `rating_history` holds one row per account and rated game: the
rating after it and the change, for the profile's graph and for the game's end state. Its key
(game, account) is what makes a game rated once: `rate_game` runs in one transaction that
serialises every rating update (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: the advisory lock
RATINGS_LOCK), finds the game's rows if an earlier call wrote them and returns those, and
otherwise reads both ratings, has the caller's arithmetic (`Rate`) compute both changes from
them, and writes both ratings and both history rows before it commits. Two processes that both
see a game end thus rate it once, and two games of one player ending at once are rated one
after the other, never from the same starting rating.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chesscore import BLACK, WHITE, Color
from chesscore.ratings import PlayerRating, RatingChange, Speed
from chesscore.ratings.glicko2 import Glicko
from server.shared.slots import Slot
from server.storage.database import Connection, Database
from server.storage.migrations import run

# Rating a game holds this advisory lock (PostgreSQL): one rating update at a time.
RATINGS_LOCK = 0x52415445

# Both dialects: DOUBLE PRECISION is a REAL in SQLite. An account's rows go with it (a deleted
# account's ratings history is gone, issue 27).
RATING_TABLES = """
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    last_game DOUBLE PRECISION,
    PRIMARY KEY (account_id, speed)
);
CREATE TABLE rating_history (
    game_id TEXT NOT NULL REFERENCES games(id),
    account_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    color INTEGER NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    diff INTEGER NOT NULL,
    played DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_history_account ON rating_history(account_id, speed, played)
"""


def create_tables(db: Connection, database: Database) -> None:
    """Migration 5: ratings per account and speed, and a row per account and rated game."""
    run(db, RATING_TABLES)


def index_history_by_time(db: Connection, database: Database) -> None:
    """Migration 6: the profile's rating graph reads an account's latest rated games of every
    speed (`rating_history`): without this index, all of them are sorted for each page."""
    db.execute("CREATE INDEX rating_history_played ON rating_history(account_id, played)")


COLUMNS = "rating, deviation, volatility, games, last_game"

# The arithmetic of one rated game: both sides' changes from their ratings before it, white's
# first (server.games.rating passes chesscore.ratings.rate_game's with the score and time).
Rate = Callable[[PlayerRating, PlayerRating], tuple[RatingChange, RatingChange]]


@dataclass(frozen=True)
class RatedSide:
    """One side's result of a rated game as stored: its rating after the game (with its
    deviation) and the change shown (+8 / -8)."""

    color: Color
    account_id: int
    rating: float
    deviation: float
    diff: int


@dataclass(frozen=True)
class HistoryPoint:
    """A row of an account's rating history (the profile's graph)."""

    game_id: str
    speed: str
    rating: float
    diff: int
    played: float


def _player(row: tuple[float, float, float, int, float | None] | None) -> PlayerRating:
    if row is None:
        return PlayerRating()
    rating, deviation, volatility, games, last_game = row
    glicko = Glicko(float(rating), float(deviation), float(volatility))
    return PlayerRating(glicko, int(games), None if last_game is None else float(last_game))


class RatingTables:
    """The ratings' rows in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    def ratings_of(self, account_id: int) -> dict[Speed, PlayerRating]:
        """The account's rating in every speed it has played (the others are the initial
        one)."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(f"SELECT speed, {COLUMNS} FROM ratings WHERE account_id = ?"),
                (account_id,),
            ).fetchall()
        return {Speed(speed): _player(tuple(rest)) for speed, *rest in rows}

    def rating_history(self, account_id: int, limit: int) -> list[HistoryPoint]:
        """The account's last `limit` rated games' ratings, oldest first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT game_id, speed, rating, diff, played FROM rating_history"
                    " WHERE account_id = ? ORDER BY played DESC, game_id LIMIT ?"
                ),
                (account_id, limit),
            ).fetchall()
        points = [HistoryPoint(g, s, float(r), int(d), float(p)) for g, s, r, d, p in rows]
        return points[::-1]

    def frequent_opponents(self, account_id: int, since: float, at_least: int) -> frozenset[int]:
        """The accounts `account_id` played `at_least` rated games against since `since`."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT other.account_id FROM rating_history mine JOIN rating_history other"
                    " ON other.game_id = mine.game_id AND other.account_id <> mine.account_id"
                    " WHERE mine.account_id = ? AND mine.played >= ?"
                    " GROUP BY other.account_id HAVING COUNT(*) >= ?"
                ),
                (account_id, since, at_least),
            ).fetchall()
        return frozenset(int(row[0]) for row in rows)

    def rated_sides(self, game_id: str) -> list[RatedSide]:
        """The stored results of a rated game, white first (none: not rated, or not yet)."""
        with self.database.connection() as db:
            return self._rated_sides(db, game_id)

    def rate_game(self, game_id: str, speed: Speed, rate: Rate, now: float) -> list[RatedSide]:
        """Rate the finished game between its seats' accounts by `rate`, once however often
        it is called (by any process): its results, white first, those an earlier call wrote
        if there was one (none: a seat has no account, or that account was deleted, whose
        ratings and history are gone)."""
        with self.database.transaction(RATINGS_LOCK) as db:
            accounts = self._seat_accounts(db, game_id)
            if len(accounts) < 2:
                return []
            done = self._rated_sides(db, game_id)
            if done:
                return done
            white = self._load_rating(db, accounts[WHITE], speed)
            black = self._load_rating(db, accounts[BLACK], speed)
            sides = []
            for color, change in zip((WHITE, BLACK), rate(white, black), strict=True):
                after = change.after
                self._save(db, accounts[color], speed, after)
                side = RatedSide(
                    color, accounts[color], after.glicko.rating, after.glicko.deviation, change.diff
                )
                self._add_history(db, game_id, side, speed, now)
                sides.append(side)
            return sides

    def forget_account(self, db: Connection, account_id: int) -> None:
        """Inside the account's deletion (server.accounts.tables): its ratings and their
        history go (its games stay, issue 27), with no game being rated meanwhile."""
        self.database.lock(db, RATINGS_LOCK)
        db.execute(self.sql("DELETE FROM rating_history WHERE account_id = ?"), (account_id,))
        db.execute(self.sql("DELETE FROM ratings WHERE account_id = ?"), (account_id,))

    def _rated_sides(self, db: Connection, game_id: str) -> list[RatedSide]:
        rows = db.execute(
            self.sql(
                "SELECT color, account_id, rating, deviation, diff FROM rating_history"
                " WHERE game_id = ? ORDER BY color"
            ),
            (game_id,),
        ).fetchall()
        return [
            RatedSide(int(c), int(a), float(r), float(d), int(diff)) for c, a, r, d, diff in rows
        ]

    def _seat_accounts(self, db: Connection, game_id: str) -> dict[Color, int]:
        """The live accounts that took the game's seats, by colour. A seat of a visitor is
        absent, and so is one of a deleted account: its ratings and history are gone
        (`forget_account`), so a game it still had in play ends unrated rather than write
        them again."""
        rows = db.execute(
            self.sql(
                "SELECT seats.color, seats.account_id FROM seats"
                " JOIN users ON users.id = seats.account_id"
                " WHERE seats.game_id = ? AND users.deleted = 0"
            ),
            (game_id,),
        ).fetchall()
        return {int(color): int(account) for color, account in rows if account is not None}

    def _load_rating(self, db: Connection, account_id: int, speed: Speed) -> PlayerRating:
        row = db.execute(
            self.sql(f"SELECT {COLUMNS} FROM ratings WHERE account_id = ? AND speed = ?"),
            (account_id, speed.value),
        ).fetchone()
        return _player(None if row is None else tuple(row))

    def _save(self, db: Connection, account_id: int, speed: Speed, player: PlayerRating) -> None:
        glicko = player.glicko
        db.execute(
            self.sql(
                f"INSERT INTO ratings (account_id, speed, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (account_id, speed) DO UPDATE SET rating = excluded.rating,"
                " deviation = excluded.deviation, volatility = excluded.volatility,"
                " games = excluded.games, last_game = excluded.last_game"
            ),
            (
                account_id,
                speed.value,
                glicko.rating,
                glicko.deviation,
                glicko.volatility,
                player.games,
                player.last_game,
            ),
        )

    def _add_history(
        self, db: Connection, game_id: str, side: RatedSide, speed: Speed, now: float
    ) -> None:
        db.execute(
            self.sql(
                "INSERT INTO rating_history"
                " (game_id, account_id, color, speed, rating, deviation, diff, played)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            ),
            (game_id, side.account_id, side.color, speed.value, side.rating, side.deviation,
             side.diff, now),
        )  # fmt: skip


# The ratings the composition root opened, for the routes that show them.
RATINGS: Slot[RatingTables] = Slot("rating tables")
