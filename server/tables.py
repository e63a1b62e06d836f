"""Every domain's tables over one database, and the numbered migrations that make them.

The one place that knows every domain's tables: `open_tables` opens the configured database
(server.storage.open), brings its schema up to date with `MIGRATIONS` (each step is a domain's,
written in its `tables` module; the runner is server.storage.migrations) and builds each
domain's tables over it (`Tables`). Each service is then given the tables it uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.accounts import devices, languages, sightings
from server.accounts import tables as accounts
from server.accounts.tables import AccountTables
from server.analysis import tables as analysis
from server.analysis.tables import AnalysisTables
from server.chat import tables as chat
from server.chat.tables import ChatTables
from server.games import tables as games
from server.games.tables import GameTables
from server.lobby import tables as lobby
from server.lobby.tables import LobbyTables
from server.players import tables as players
from server.players.tables import HistoryTables
from server.preferences import tables as preferences
from server.preferences.tables import PreferenceTables
from server.puzzles import tables as puzzles
from server.puzzles.tables import PuzzleTables
from server.ratings import tables as ratings
from server.ratings.tables import RatingTables
from server.review import tables as reviews
from server.review.tables import ReviewTables
from server.storage.database import Database
from server.storage.migrations import Migration, migrate
from server.storage.open import open_database

# Append only: a released migration is never edited (a database made before versions existed
# is "version 0" and has some of migration 1's tables already, which it finds).
MIGRATIONS = (
    Migration(
        1,
        "the first releases' tables",
        (
            games.create_tables,
            analysis.create_table,
            reviews.create_table,
            games.index_active,
            lobby.create_tables,
        ),
    ),
    Migration(2, "games.updated and its index", (games.add_last_change,)),
    Migration(
        3, "accounts: users, sessions, recovery codes, seats.account_id", (accounts.create_tables,)
    ),
    Migration(4, "passkeys", (accounts.create_passkeys,)),
    Migration(5, "ratings and rating_history", (ratings.create_tables,)),
    Migration(
        6,
        "moves.clock_ms, the players' game history, rating_history by time",
        (games.add_move_clocks, players.create_table, ratings.index_history_by_time),
    ),
    Migration(7, "accounts' names keyed by their look-alike key", (accounts.rekey_names,)),
    Migration(
        8,
        "known devices per browser, accounts' sightings",
        (devices.create_table, sightings.create_table),
    ),
    Migration(9, "puzzles, their themes, results and ratings", (puzzles.create_tables,)),
    Migration(10, "the accounts' preferences", (preferences.create_table,)),
    Migration(11, "accounts' languages", (languages.add_column,)),
    Migration(12, "the chats' recent lines", (chat.create_table,)),
)
LATEST = MIGRATIONS[-1].version


@dataclass(frozen=True)
class Tables:
    """Each domain's tables, over one `database`."""

    database: Database
    games: GameTables
    accounts: AccountTables
    ratings: RatingTables
    lobby: LobbyTables
    reviews: ReviewTables
    analyses: AnalysisTables
    history: HistoryTables
    puzzles: PuzzleTables
    preferences: PreferenceTables
    chat: ChatTables

    def close(self) -> None:
        self.database.close()


def build_tables(database: Database) -> Tables:
    """`database` brought up to date by MIGRATIONS, and every domain's tables over it."""
    migrate(database, MIGRATIONS)
    rated, puzzled = RatingTables(database), PuzzleTables(database)
    preferred, chats = PreferenceTables(database), ChatTables(database)
    return Tables(
        database,
        GameTables(database),
        AccountTables(
            database,
            forget=(
                rated.forget_account,
                puzzled.forget_account,
                preferred.forget_account,
                chats.forget_account,
            ),
        ),
        rated,
        LobbyTables(database),
        ReviewTables(database),
        AnalysisTables(database),
        HistoryTables(database),
        puzzled,
        preferred,
        chats,
    )


def open_tables(instance_path: str, config: dict[str, Any]) -> Tables:
    """The configured database's tables (`config`: the app's settings, server.shared.config)."""
    return build_tables(open_database(instance_path, config))
