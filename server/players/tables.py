"""Players' game history: its table, `player_games`, and the games a player has in play.

A row of `player_games` is one finished game seen from one signed-in player's side
(`HistoryEntry`): written once when the game ends, so the profile's list, its filters and the
PGN export read a player's games without opening any game's moves or JSON. The list is read
newest first through the index (account, ended, game id), a page at a time from a cursor (the
last row's (ended, game id)), never by OFFSET, which would read every earlier row again; each
filter (speed, result, rated) has an index of its own that leads with it, so a page of rare
games is found without reading the others. A game's finished review is found through the
reviews' unique `source`. Aborted games are not history, as on lichess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from server.games.stored import OngoingGame
from server.storage.database import Connection, Database
from server.storage.migrations import run

# Both dialects: `rated` as 0 / 1 (an INTEGER in each), `ended` in milliseconds (BIGINT) so a
# cursor compares exactly. An account's rows stay when it is deleted (its games stay, under
# "deleted player").
HISTORY_TABLE = """
CREATE TABLE player_games (
    account_id INTEGER NOT NULL REFERENCES users(id),
    game_id TEXT NOT NULL REFERENCES games(id),
    color INTEGER NOT NULL,
    ended BIGINT NOT NULL,
    speed TEXT NOT NULL,
    control TEXT NOT NULL,
    rated INTEGER NOT NULL,
    result TEXT NOT NULL,
    opponent TEXT NOT NULL,
    opponent_account INTEGER REFERENCES users(id),
    eco TEXT,
    opening TEXT,
    plies INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id)
);
CREATE INDEX player_games_recent ON player_games(account_id, ended, game_id);
CREATE INDEX player_games_speed
    ON player_games(account_id, speed, ended, game_id);
CREATE INDEX player_games_result
    ON player_games(account_id, result, ended, game_id);
CREATE INDEX player_games_rated
    ON player_games(account_id, rated, ended, game_id);
"""


def create_table(db: Connection, database: Database) -> None:
    """Migration 6 (with the moves' clocks): the players' game history."""
    run(db, HISTORY_TABLE)


COLUMNS = (
    "account_id, game_id, color, ended, speed, control, rated, result, opponent, opponent_account,"
    " eco, opening, plies"
)
SELECTED = ", ".join(f"p.{name.strip()}" for name in COLUMNS.split(","))
# A game's review is stored under its id (our engine) or its id and this (Stockfish:
# server.review.engines.STOCKFISH_KEY); the list links the finished one, Stockfish's first.
STOCKFISH_REVIEW = "@stockfish"
REVIEW = (
    "SELECT r.id FROM reviews r WHERE r.source IN (p.game_id, p.game_id || ?)"
    " AND r.status = 'done' ORDER BY r.source DESC LIMIT 1"
)

RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game from one player's side: `account` played `color` and got `result`
    ("win", "draw", "loss") against `opponent` (the name shown at the end; `opponent_account`
    when signed in) at `ended` (milliseconds since the epoch); `speed` as the ratings sort the
    time control, `control` the control as the lobby names it ("5+3", "-" without a clock);
    the opening (ECO code and name) of its last named position; `plies` played."""

    account: int
    game_id: str
    color: int
    ended: int
    speed: str
    control: str
    rated: bool
    result: str
    opponent: str
    opponent_account: int | None
    eco: str | None
    opening: str | None
    plies: int


@dataclass(frozen=True)
class HistoryRow:
    """A game of a player's list: its entry and the id of its finished review, if any."""

    entry: HistoryEntry
    review_id: str | None


@dataclass(frozen=True)
class GamesQuery:
    """A page of a player's finished games, newest first: those that ended before `before`
    (the (ended, game id) of the last game of the previous page: a cursor, never an offset),
    at most `limit`, filtered by `rated`, `speed` and `result` when they are given."""

    account: int
    limit: int
    before: tuple[int, str] | None = None
    rated: bool | None = None
    speed: str | None = None
    result: str | None = None


class HistoryTables:
    """The players' history in `database`; each call one transaction."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql
        self.active = database.flag("g.active")

    def add_history(self, entries: list[HistoryEntry]) -> None:
        """Record finished games in their players' histories (one transaction); an entry
        recorded already is left as it was, so two processes seeing one end record it once."""
        insert = self.sql(
            f"INSERT INTO player_games ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING"
        )
        with self.database.transaction() as db:
            for entry in entries:
                db.execute(insert, _values(entry))

    def player_games(self, query: GamesQuery) -> list[HistoryRow]:
        """A page of the player's finished games, newest first (`GamesQuery`)."""
        conditions, values = _conditions(query)
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    f"SELECT {SELECTED}, ({REVIEW}) FROM player_games p"
                    f" WHERE {' AND '.join(conditions)}"
                    " ORDER BY p.ended DESC, p.game_id DESC LIMIT ?"
                ),
                (STOCKFISH_REVIEW, *values, query.limit),
            ).fetchall()
        return [HistoryRow(_entry(row[:-1]), row[-1]) for row in rows]

    def player_counts(self, account: int) -> dict[str, int]:
        """How many games the player won, drew and lost (every key of RESULTS)."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT result, COUNT(*) FROM player_games WHERE account_id = ? GROUP BY result"
                ),
                (account,),
            ).fetchall()
        counts = dict.fromkeys(RESULTS, 0)
        counts.update({result: int(count) for result, count in rows})
        return counts

    def playing_games(self, account: int, limit: int) -> list[tuple[int, OngoingGame]]:
        """The games in play whose seat the account took (with its colour), the latest
        changed first, at most `limit`: a signed-in player's games on any browser."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT g.id, g.settings, g.header, g.updated, s.color,"
                    " (SELECT COUNT(*) FROM moves WHERE moves.game_id = g.id)"
                    " FROM seats s JOIN games g ON g.id = s.game_id"
                    f" WHERE s.account_id = ? AND {self.active} ORDER BY g.updated DESC LIMIT ?"
                ),
                (account, limit),
            ).fetchall()
        return [
            (
                int(color),
                OngoingGame(
                    game_id, json.loads(settings), json.loads(header), int(plies), float(updated)
                ),
            )
            for game_id, settings, header, updated, color, plies in rows
        ]


def _values(entry: HistoryEntry) -> tuple[Any, ...]:
    return (
        entry.account,
        entry.game_id,
        entry.color,
        entry.ended,
        entry.speed,
        entry.control,
        int(entry.rated),
        entry.result,
        entry.opponent,
        entry.opponent_account,
        entry.eco,
        entry.opening,
        entry.plies,
    )


def _conditions(query: GamesQuery) -> tuple[list[str], list[Any]]:
    """The WHERE clause's parts and their values: the player, the filters, the cursor."""
    conditions: list[str] = ["p.account_id = ?"]
    values: list[Any] = [query.account]
    for column, value in (("rated", query.rated), ("speed", query.speed)):
        if value is not None:
            conditions.append(f"p.{column} = ?")
            values.append(int(value) if isinstance(value, bool) else value)
    if query.result is not None:
        conditions.append("p.result = ?")
        values.append(query.result)
    if query.before is not None:
        # A row value: both dialects compare (ended, game id) as a pair through the index.
        conditions.append("(p.ended, p.game_id) < (?, ?)")
        values.extend(query.before)
    return conditions, values


def _entry(row: Any) -> HistoryEntry:
    account, game_id, color, ended, speed, control, rated, result, opponent, *rest = row
    other, eco, opening, plies = rest
    return HistoryEntry(
        int(account),
        game_id,
        int(color),
        int(ended),
        speed,
        control,
        bool(rated),
        result,
        opponent,
        None if other is None else int(other),
        eco,
        opening,
        int(plies),
    )
