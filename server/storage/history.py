"""Players' game history: its table and queries, written once for both SQL back ends.

A row of `player_games` is one finished game seen from one signed-in player's side
(`HistoryEntry`): written once when the game ends, so the profile's list, its filters and the
PGN export read a player's games without opening any game's moves or JSON. The list is read
newest first through the index (account, ended, game id), a page at a time from a cursor (the
last row's (ended, game id)), never by OFFSET, which would read every earlier row again; each
filter (speed, result, rated) has an index of its own that leads with it, so a page of rare
games is found without reading the others. A game's finished review is found through the
reviews' unique `source`. Aborted games are not history, as on
lichess. SQL is written with `?` and turned into the driver's placeholder by `sql`.
"""

from __future__ import annotations

import json
from typing import Any

from server.storage.interface import RESULTS, GamesQuery, HistoryEntry, HistoryRow, OngoingGame
from server.storage.seeks import Database, sql

# Both dialects: `rated` as 0 / 1 (an INTEGER in each), `ended` in milliseconds (BIGINT) so a
# cursor compares exactly. Created by migration 5 (server.storage.migrations); an account's rows
# stay when it is deleted (its games stay, under "deleted player").
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


def add_history(db: Database, mark: str, entries: list[HistoryEntry]) -> None:
    insert = sql(
        f"INSERT INTO player_games ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        mark,
    )
    for entry in entries:
        db.execute(insert, _values(entry))


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


def player_games(db: Database, mark: str, query: GamesQuery) -> list[HistoryRow]:
    conditions, values = _conditions(query)
    rows = db.execute(
        sql(
            f"SELECT {SELECTED}, ({REVIEW}) FROM player_games p"
            f" WHERE {' AND '.join(conditions)}"
            " ORDER BY p.ended DESC, p.game_id DESC LIMIT ?",
            mark,
        ),
        (STOCKFISH_REVIEW, *values, query.limit),
    ).fetchall()
    return [HistoryRow(_entry(row[:-1]), row[-1]) for row in rows]


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


def player_counts(db: Database, mark: str, account: int) -> dict[str, int]:
    rows = db.execute(
        sql("SELECT result, COUNT(*) FROM player_games WHERE account_id = ? GROUP BY result", mark),
        (account,),
    ).fetchall()
    counts = dict.fromkeys(RESULTS, 0)
    counts.update({result: int(count) for result, count in rows})
    return counts


def playing_games(
    db: Database, mark: str, active: str, account: int, limit: int
) -> list[tuple[int, OngoingGame]]:
    """The games in play whose seat `account` took, with its colour, the latest changed first;
    `active` the dialect's test of an active game (`g.active = 1`, `g.active`)."""
    rows = db.execute(
        sql(
            "SELECT g.id, g.settings, g.header, g.updated, s.color,"
            " (SELECT COUNT(*) FROM moves WHERE moves.game_id = g.id)"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE s.account_id = ? AND {active} ORDER BY g.updated DESC LIMIT ?",
            mark,
        ),
        (account, limit),
    )
    return [
        (
            int(color),
            OngoingGame(
                game_id, json.loads(settings), json.loads(header), int(plies), float(updated)
            ),
        )
        for game_id, settings, header, updated, color, plies in rows.fetchall()
    ]
