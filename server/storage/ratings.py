"""The ratings' tables and queries (issue 27), written once for both SQL back ends.

`ratings` holds each account's current rating per speed (chesscore.ratings: rating,
deviation, volatility, rated games, when the last ended); an account without a row in a speed
has the initial rating there. `rating_history` holds one row per account and rated game: the
rating after it and the change, for the profile's graph and for the game's end state. Its key
(game, account) is what makes a game rated once: `rate_game` runs in one transaction that
serialises every rating update (SQLite: `BEGIN IMMEDIATE` under the store's lock; PostgreSQL:
an advisory lock), finds the game's rows if an earlier call wrote them and returns those, and
otherwise reads both ratings, computes both changes from them, and writes both ratings and both
history rows before it commits. Two processes that both see a game end thus rate it once, and
two games of one player ending at once are rated one after the other, never from the same
starting rating. SQL is written with `?` and turned into the driver's placeholder by `sql`.
"""

from __future__ import annotations

from chesscore import BLACK, WHITE, Color
from chesscore.ratings import PlayerRating, Speed, rate_game
from chesscore.ratings.glicko2 import Glicko
from server.storage.interface import HistoryPoint, RatedSide
from server.storage.seeks import Database, sql

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

COLUMNS = "rating, deviation, volatility, games, last_game"


def _player(row: tuple[float, float, float, int, float | None] | None) -> PlayerRating:
    if row is None:
        return PlayerRating()
    rating, deviation, volatility, games, last_game = row
    glicko = Glicko(float(rating), float(deviation), float(volatility))
    return PlayerRating(glicko, int(games), None if last_game is None else float(last_game))


def load_ratings(db: Database, mark: str, account_id: int) -> dict[Speed, PlayerRating]:
    """The account's rating in every speed it has played (the others are the initial one)."""
    rows = db.execute(
        sql(f"SELECT speed, {COLUMNS} FROM ratings WHERE account_id = ?", mark), (account_id,)
    ).fetchall()
    return {Speed(speed): _player(tuple(rest)) for speed, *rest in rows}


def load_rating(db: Database, mark: str, account_id: int, speed: Speed) -> PlayerRating:
    row = db.execute(
        sql(f"SELECT {COLUMNS} FROM ratings WHERE account_id = ? AND speed = ?", mark),
        (account_id, speed.value),
    ).fetchone()
    return _player(None if row is None else tuple(row))


def rated_sides(db: Database, mark: str, game_id: str) -> list[RatedSide]:
    """The game's stored results, white first (none: the game was not rated)."""
    rows = db.execute(
        sql(
            "SELECT color, account_id, rating, deviation, diff FROM rating_history"
            " WHERE game_id = ? ORDER BY color",
            mark,
        ),
        (game_id,),
    ).fetchall()
    return [RatedSide(int(c), int(a), float(r), float(d), int(diff)) for c, a, r, d, diff in rows]


def seat_accounts(db: Database, mark: str, game_id: str) -> dict[Color, int]:
    """The live accounts that took the game's seats, by colour. A seat of a visitor is absent,
    and so is one of a deleted account: its ratings and history are gone (`forget_account`),
    so a game it still had in play ends unrated rather than write them again."""
    rows = db.execute(
        sql(
            "SELECT seats.color, seats.account_id FROM seats"
            " JOIN users ON users.id = seats.account_id"
            " WHERE seats.game_id = ? AND users.deleted = 0",
            mark,
        ),
        (game_id,),
    ).fetchall()
    return {int(color): int(account) for color, account in rows if account is not None}


def rate(
    db: Database,
    mark: str,
    game_id: str,
    accounts: dict[Color, int],
    speed: Speed,
    white_score: float,
    now: float,
) -> list[RatedSide]:
    """Rate the game once (the caller holds the ratings' lock in a transaction): the sides'
    results, those written by an earlier call if there was one."""
    done = rated_sides(db, mark, game_id)
    if done:
        return done
    white = load_rating(db, mark, accounts[WHITE], speed)
    black = load_rating(db, mark, accounts[BLACK], speed)
    changes = dict(zip((WHITE, BLACK), rate_game(white, black, white_score, now), strict=True))
    sides = []
    for color, change in changes.items():
        after = change.after
        _save(db, mark, accounts[color], speed, after)
        side = RatedSide(
            color, accounts[color], after.glicko.rating, after.glicko.deviation, change.diff
        )
        _add_history(db, mark, game_id, side, speed, now)
        sides.append(side)
    return sides


def _save(db: Database, mark: str, account_id: int, speed: Speed, player: PlayerRating) -> None:
    glicko = player.glicko
    db.execute(
        sql(
            f"INSERT INTO ratings (account_id, speed, {COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (account_id, speed) DO UPDATE SET rating = excluded.rating,"
            " deviation = excluded.deviation, volatility = excluded.volatility,"
            " games = excluded.games, last_game = excluded.last_game",
            mark,
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
    db: Database, mark: str, game_id: str, side: RatedSide, speed: Speed, now: float
) -> None:
    db.execute(
        sql(
            "INSERT INTO rating_history"
            " (game_id, account_id, color, speed, rating, deviation, diff, played)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            mark,
        ),
        (game_id, side.account_id, side.color, speed.value, side.rating, side.deviation,
         side.diff, now),
    )  # fmt: skip


def history(db: Database, mark: str, account_id: int, limit: int) -> list[HistoryPoint]:
    """The account's rated games, oldest first, the last `limit` of them."""
    rows = db.execute(
        sql(
            "SELECT game_id, speed, rating, diff, played FROM rating_history"
            " WHERE account_id = ? ORDER BY played DESC, game_id LIMIT ?",
            mark,
        ),
        (account_id, limit),
    ).fetchall()
    points = [HistoryPoint(g, s, float(r), int(d), float(p)) for g, s, r, d, p in rows]
    return points[::-1]


def forget_account(db: Database, mark: str, account_id: int) -> None:
    """A deleted account's ratings and their history go (its games stay, issue 27)."""
    db.execute(sql("DELETE FROM rating_history WHERE account_id = ?", mark), (account_id,))
    db.execute(sql("DELETE FROM ratings WHERE account_id = ?", mark), (account_id,))
