"""What the two SQL back ends share beyond the interface: reading a game back from its rows.

Both keep a game as a row of `games` (settings and header as JSON text, the version, the
invitation's hash) and its moves as rows of `moves`, and each reads them its own way: SQLite in
two statements under the store's lock, PostgreSQL in one statement with the moves as arrays
(one round trip, one snapshot). `RowLoads` writes `load_game` and `load_if_changed` once over a
back end's `_load` (that read, with a condition on the games row in the back end's placeholder
style), and `stored_from_rows` turns what was read into a `StoredGame`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from server.accounts.identity import Account
from server.games.play import MoveRecord
from server.storage.interface import StoredGame, StoredUser

# The columns of `games` every `_load` reads, in this order (`stored_from_rows` takes them so).
GAME_COLUMNS = "settings, header, version, invite_hash"


class RowLoads:
    """`load_game` and `load_if_changed` of `GameStore`, over the back end's `_load`."""

    placeholder: ClassVar[str]  # the driver's query parameter: "?" (sqlite3), "%s" (psycopg)

    def load_game(self, game_id: str) -> StoredGame | None:
        return self._load(game_id, "")

    def load_if_changed(self, game_id: str, version: int) -> StoredGame | None:
        # The version check and the read are one query: a game another process changed costs
        # one read here, not two.
        return self._load(game_id, f" AND version <> {self.placeholder}", version)

    def _load(self, game_id: str, condition: str, *values: object) -> StoredGame | None:
        """The game and its moves, if its row meets `condition` (more SQL on `games`)."""
        raise NotImplementedError


def stored_from_rows(
    game_id: str,
    row: Sequence[Any],
    moves: Iterable[tuple[str, str, int | None]],
    accounts: dict[int, int] | None = None,
) -> StoredGame:
    """The game from its `games` columns (GAME_COLUMNS), its moves as (uci, san, clock_ms) in
    ply order and its seats' accounts (colour -> account id)."""
    settings, header, version, invite_hash = row
    records = [MoveRecord(uci, san, clock_ms) for uci, san, clock_ms in moves]
    return StoredGame(
        game_id,
        json.loads(settings),
        json.loads(header),
        version,
        records,
        invite_hash,
        accounts or {},
    )


def account_of(user: StoredUser | None) -> Account | None:
    """The live account of a user's row (None for none, or a deleted one)."""
    return None if user is None or user.deleted else Account(user.id, user.name)
