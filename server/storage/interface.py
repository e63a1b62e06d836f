"""The storage interface: what the server needs from a database, and games as plain data.

`GameStore` is the one interface every backend implements (SQLite, see `sqlite`; PostgreSQL for
several processes, see `postgres`; chosen by `open_store`). It stores plain data only: a game's
settings and header as JSON-ready dicts, its moves as (ply, uci, san) rows, seats as token
hashes (and the account that took each seat, where a signed-in player took it:
`StoredGame.accounts`, colour -> account id), the log of changes by version and when each game
last changed (to find abandoned games), and the accounts (`AccountStore`: users, sessions,
recovery codes; `account_by_name`).
Its guarantees carry the server's trust: `commit` applies a change only on top of the version it
was made for (else `StaleVersionError`), moves are keyed by (game, ply) so a ply can never be
stored twice, and a commit is durable when it returns. The functions at the end convert between
`server.games.play` records and that plain data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from chesscore import Color, Outcome, Termination
from chesscore.ratings import PlayerRating, Speed
from server.accounts.identity import Account
from server.games.clock import ClockSettings, ClockState
from server.games.play import (
    Event,
    Game,
    GameSettings,
    Header,
    MoveRecord,
    ShownRating,
    restore_game,
)

# The tables every SQL backend shares word for word (the `games` table differs by dialect and
# comes first in each backend's schema, since these refer to it).
GAME_RECORD_TABLES = """
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    san TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    color INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE TABLE IF NOT EXISTS changes (
    game_id TEXT NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, version)
);
"""

# Shared analysis boards (server.analysis): the tree as PGN text under its short id.
ANALYSIS_TABLE = """
CREATE TABLE IF NOT EXISTS analyses (
    id TEXT PRIMARY KEY,
    pgn TEXT NOT NULL,
    created BIGINT NOT NULL
);
"""


class StaleVersionError(Exception):
    """The game is no longer at the version a change was made for."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    settings: dict[str, Any]
    header: dict[str, Any]
    version: int
    moves: list[MoveRecord]
    invite_hash: str | None = None
    # The seats taken by signed-in players: colour -> account id (server.accounts); a seat of
    # a visitor without an account is not in it.
    accounts: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredChange:
    """One change to write: the new version, header and event, and the moves it touches."""

    version: int
    header: dict[str, Any]
    event: Event
    active: bool
    added: list[tuple[int, MoveRecord]]
    keep_plies: int | None = None
    seat: tuple[int, str] | None = None  # (colour, token hash) of a seat claimed
    seat_account: int | None = None  # the account that claimed it, if signed in


@dataclass(frozen=True)
class IdleGame:
    """An active game's header and version, without its moves (`GameStore.idle_games`)."""

    id: str
    header: dict[str, Any]
    version: int


class SeekLimitError(Exception):
    """The address already holds as many open seeks and pairing waits as it may."""


class OwnSeekError(Exception):
    """A visitor tried to accept its own seek."""


@dataclass(frozen=True)
class StoredSeek:
    """An open challenge (`kind` "seek", listed and accepted by id) or a quick-pairing wait
    ("pair", matched by `control`), held by the connection `owner` from `address` on the server
    process `host`; `body` is the lobby's own JSON-ready data (name, colour, assisted)."""

    id: str
    kind: str
    owner: str
    address: str
    control: str
    body: dict[str, Any]
    created: float
    host: str


@dataclass(frozen=True)
class OngoingGame:
    """A game in play as the watch list needs it: settings, header, plies and last change."""

    id: str
    settings: dict[str, Any]
    header: dict[str, Any]
    plies: int
    updated: float


@dataclass(frozen=True)
class StoredReview:
    """A game review's row (server.storage.reviews): `results` the review's JSON text,
    `evals` the positions' evaluations as JSON text, `pgn` the reviewed PGN once done."""

    id: str
    source: str
    status: str
    done: int
    total: int
    results: str
    evals: str
    pgn: str | None
    address: str
    host: str | None
    created: float
    updated: float


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


class ReviewLimitError(Exception):
    """Too many reviews pending: from one address (`what` "address") or in all ("queue")."""

    def __init__(self, what: str, count: int) -> None:
        super().__init__(f"{count} reviews pending ({what})")
        self.what = what
        self.count = count


RESULTS = ("win", "draw", "loss")


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game from one player's side (server.storage.history): `account` played
    `color` and got `result` ("win", "draw", "loss") against `opponent` (the name shown at the
    end; `opponent_account` when signed in) at `ended` (milliseconds since the epoch); `speed`
    as the ratings sort the time control, `control` the control as the lobby names it ("5+3",
    "-" without a clock); the opening (ECO code and name) of its last named
    position; `plies` played."""

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


@dataclass(frozen=True)
class StoredUser:
    """An account's row (server.storage.accounts)."""

    id: int
    name: str
    password_hash: str
    deleted: bool
    claimed: bool


class NameTakenError(Exception):
    """An account of that name, or of one that reads like it, exists."""


class AccountStore(Protocol):
    """The accounts' part of the store (server.storage.accounts, server.accounts): each call
    one transaction."""

    def create_user(self, user: tuple[str, str, str], codes: list[tuple[str, str]]) -> int:
        """Store a user (name, name key, password hash) with its recovery codes (code id,
        hash); its id, or NameTakenError."""

    def user_by_key(self, name_key: str) -> StoredUser | None: ...

    def user_by_id(self, user_id: int) -> StoredUser | None: ...

    def account_by_name(self, name: str) -> Account | None:
        """The live account of that name (any case or look-alike spelling), None if none or
        deleted."""

    def add_session(self, id_hash: str, user_id: int) -> None: ...

    def session_user(self, id_hash: str, seen_after: float) -> StoredUser | None:
        """The user of a session seen after `seen_after` (wall-clock seconds), if live."""

    def end_session(self, id_hash: str) -> None: ...

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A new password hash; every session of the user ends."""

    def recovery_code_hash(self, user_id: int, code_id: str) -> str | None: ...

    def use_recovery_code(self, user_id: int, code_id: str, password_hash: str) -> bool:
        """Spend the code and set the password (sessions end); False if spent already."""

    def delete_user(self, user_id: int) -> None:
        """Mark the user deleted (no password, sessions or codes; its games stay)."""

    def claim_seats(self, user_id: int, seats: list[tuple[str, str]]) -> list[str] | None:
        """Link the unclaimed seats (game id, token hash) to the user, once: the games, or
        None when the user claimed before."""

    def link_seat(self, game_id: str, color: int, user_id: int) -> None:
        """The seat was taken by a signed-in user."""

    def add_passkey(self, user_id: int, passkey: tuple[str, str, int]) -> bool:
        """Store a passkey (credential id, public key, signature count; base64url); False
        when a passkey of that credential id is stored already."""

    def passkey(self, credential_id: str) -> tuple[int, str, int] | None:
        """(user id, public key, signature count) of a live user's passkey."""

    def passkey_ids(self, user_id: int) -> list[str]: ...

    def delete_passkey(self, user_id: int, credential_id: str) -> bool:
        """Remove the user's passkey; False when the user has none of that id."""

    def count_passkey(self, credential_id: str, sign_count: int) -> None:
        """The passkey's signature counter after a sign-in."""

    def account_seats(self, user_id: int) -> list[tuple[str, int]]:
        """The seats the user took: (game id, colour)."""

    def rename_seat(self, game_id: str, color: int, name: str) -> None:
        """Show the seat's player as `name` (a deleted account's games); the caller holds the
        game's lock (server.games.service.GameService.rename_seats)."""


class GameStore(AccountStore, Protocol):
    # Whether other server processes may write the same store: then a cached game must be
    # checked against the stored version before each use (`load_if_changed`).
    shared: bool

    def create_game(
        self, game: StoredGame, seats: dict[int, str], accounts: dict[int, int] | None = None
    ) -> None:
        """Store a new game at version 0 with its seats (colour -> token hash) and the
        accounts that took them (colour -> account id)."""

    def load_game(self, game_id: str) -> StoredGame | None: ...

    def load_if_changed(self, game_id: str, version: int) -> StoredGame | None:
        """The stored game if its version is not `version`, else None: a cached copy at
        `version` is checked and, when out of date, replaced in one read. Games are never
        deleted, so a game that was cached is always stored."""

    def commit(self, game_id: str, change: StoredChange) -> None:
        """Apply `change` atomically if the game is at `change.version - 1`."""

    def changes_since(self, game_id: str, version: int) -> list[Event]:
        """The recorded changes with a version above `version`, oldest first."""

    def seat_color(self, game_id: str, token_hash: str) -> int | None: ...

    def active_game_ids(self) -> list[str]:
        """Games still being played (to resume clocks and the computer after a restart)."""

    def finished_game_ids(self, limit: int) -> list[str]:
        """The games no longer played (finished or aborted), the most recently ended first, at
        most `limit`: the threat trainer's positions (server.training)."""
        ...

    def last_change(self, game_id: str) -> float | None:
        """When the game last changed (wall-clock seconds; its end, once it is over), None
        when there is no such game."""

    def idle_games(self, before: float) -> list[IdleGame]:
        """Active games whose last change (or creation) came before `before`, in wall-clock
        seconds: found through an index of last-change times and read without their moves,
        so start-up can end thousands of abandoned games cheaply."""

    def save_analysis(self, analysis_id: str, pgn: str) -> None:
        """Store a shared analysis tree (its PGN) under a new id."""

    def load_analysis(self, analysis_id: str) -> str | None:
        """The PGN of a shared analysis tree, None for an unknown id."""

    # -- game reviews (server.review, server.storage.reviews): each call one transaction.

    def find_review(self, source: str) -> StoredReview | None:
        """The review of `source` (a game id, or a PGN's hash), if there is one."""

    def load_review(self, review_id: str) -> StoredReview | None: ...

    def add_review(
        self, review: StoredReview, per_address: int | None, max_pending: int
    ) -> tuple[StoredReview, bool]:
        """Store `review` unless its source has one (then that one, and False; a failed one
        is queued again, True); ReviewLimitError past the limits of pending reviews."""

    def save_review(self, review_id: str, host: str, fields: dict[str, Any]) -> bool:
        """Write the columns `fields` of the review `host` runs; False if it lost it."""

    def claim_review(self, review_id: str, host: str, now: float, stale_before: float) -> bool:
        """Take the review for `host` if it is queued, or running but left (not written since
        `stale_before`); whether it was taken."""

    def pending_reviews(self, queued_before: float, stale_before: float) -> list[str]:
        """Ids of reviews queued before `queued_before` or left running (see claim_review)."""

    # -- players' game history (server.storage.history): a row per player of a finished game.

    def add_history(self, entries: list[HistoryEntry]) -> None:
        """Record finished games in their players' histories (one transaction); an entry
        recorded already is left as it was, so two processes seeing one end record it once."""

    def player_games(self, query: GamesQuery) -> list[HistoryRow]:
        """A page of the player's finished games, newest first (`GamesQuery`)."""

    def player_counts(self, account: int) -> dict[str, int]:
        """How many games the player won, drew and lost (every key of RESULTS)."""

    def playing_games(self, account: int, limit: int) -> list[tuple[int, OngoingGame]]:
        """The games in play whose seat the account took (with its colour), the latest
        changed first, at most `limit`: a signed-in player's games on any browser."""

    # -- the lobby (server.lobby): open challenges and pairing waits, shared by every process.
    # Each call is one transaction, serialised against the other lobby calls.

    def add_seek(self, seek: StoredSeek, per_address: int) -> list[str]:
        """Store `seek` in place of its owner's earlier seeks and waits (their ids are
        returned), unless its address holds `per_address` already (`SeekLimitError`)."""

    def pair_or_wait(
        self,
        wait: StoredSeek,
        per_address: int,
        choose: Callable[[StoredSeek, list[StoredSeek]], StoredSeek | None] = ...,
    ) -> tuple[StoredSeek | None, list[str]]:
        """Drop the owner's earlier seeks and waits (their ids are returned second), then take
        the wait of another owner with the same control that `choose` picks among them (oldest
        first; by default the oldest) and return it; with none, store `wait` (refused as
        `add_seek` refuses) and return None."""

    def take_due_pairs(
        self, due: Callable[[list[StoredSeek]], list[tuple[StoredSeek, StoredSeek]]]
    ) -> list[tuple[StoredSeek, StoredSeek]]:
        """Remove and return the pairs of waits `due` picks among all of them."""

    def take_seek(self, seek_id: str, taker: str) -> StoredSeek | None:
        """Remove and return the seek, or None if it is gone; `OwnSeekError` if `taker` owns it."""

    def remove_seeks(self, owner: str, seek_id: str | None = None) -> list[StoredSeek]:
        """Remove and return the owner's seeks and waits (only `seek_id`, if given)."""

    def list_seeks(self, limit: int) -> list[StoredSeek]:
        """The open challenges (not the waits), oldest first."""

    def ongoing_games(self, limit: int) -> list[OngoingGame]:
        """Active games, the most recently changed first."""

    def clear_seeks(self) -> None:
        """Forget every seek and wait (a lone process at start: nobody is connected)."""

    def beat(self, host: str, now: float, alive_after: float) -> list[str]:
        """Record that the process `host` is alive at `now`; forget the processes not heard
        from since `alive_after` and remove their seeks and waits (their ids are returned):
        their connections are gone with them."""

    # -- ratings (server.storage.ratings): each call one transaction.

    def ratings_of(self, account_id: int) -> dict[Speed, PlayerRating]:
        """The account's ratings in the speeds it has played."""

    def rating_history(self, account_id: int, limit: int) -> list[HistoryPoint]:
        """The account's last `limit` rated games' ratings, oldest first."""

    def rated_sides(self, game_id: str) -> list[RatedSide]:
        """The stored results of a rated game, white first (none: not rated, or not yet)."""

    def rate_game(
        self, game_id: str, speed: Speed, white_score: float, now: float
    ) -> list[RatedSide]:
        """Rate the finished game between its seats' accounts, once however often it is
        called (by any process); its results, white first (none: a seat has no account, or
        that account was deleted, whose ratings and history are gone)."""

    def close(self) -> None: ...


def open_store(instance_path: str, config: dict[str, Any]) -> GameStore:
    """The configured store (`config`: the app's settings, server.shared.config): PostgreSQL when
    DATABASE_URL is set (several processes share it), else SQLite under the instance folder."""
    if config.get("DATABASE_URL"):
        from server.storage.postgres import PostgresStore

        return PostgresStore(str(config["DATABASE_URL"]))
    from server.storage.sqlite import SqliteStore

    path = Path(instance_path) / "games.sqlite3"
    return SqliteStore(path, synchronous=str(config["SQLITE_SYNCHRONOUS"]))


def settings_to_data(settings: GameSettings) -> dict[str, Any]:
    return {
        "opponent": settings.opponent,
        "creator": settings.creator,
        "start_fen": settings.start_fen,
        "clock": settings.clock.to_data() if settings.clock else None,
        "level": settings.level,
        "seed": settings.seed,
        "assisted": settings.assisted,
        "names": list(settings.names),
        "review": settings.review,
        "rated": settings.rated,
        "ratings": [None if shown is None else shown_to_data(shown) for shown in settings.ratings],
    }


def settings_from_data(data: dict[str, Any]) -> GameSettings:
    clock = ClockSettings.from_data(data["clock"]) if data["clock"] else None
    return GameSettings(
        data["opponent"],
        data["creator"],
        data["start_fen"],
        clock,
        data["level"],
        data["seed"],
        data.get("assisted", True),  # games stored before the setting existed were assisted
        _names_from_data(data.get("names")),  # none before display names existed
        data.get("review", False),  # none before reviews existed
        data.get("rated", False),  # none before ratings existed
        _ratings_from_data(data.get("ratings")),
    )


def shown_to_data(shown: ShownRating) -> dict[str, Any]:
    return {"rating": shown.rating, "provisional": shown.provisional, "diff": shown.diff}


def shown_from_data(data: dict[str, Any]) -> ShownRating:
    return ShownRating(int(data["rating"]), bool(data["provisional"]), data.get("diff"))


def _ratings_from_data(
    data: list[dict[str, Any] | None] | None,
) -> tuple[ShownRating | None, ShownRating | None]:
    if data is None:
        return None, None
    white, black = (None if side is None else shown_from_data(side) for side in data)
    return white, black


def _names_from_data(data: list[str | None] | None) -> tuple[str | None, str | None]:
    return (None, None) if data is None else (data[0], data[1])


def header_to_data(header: Header) -> dict[str, Any]:
    outcome = header.outcome
    return {
        "status": header.status,
        "outcome": None
        if outcome is None
        else {"termination": outcome.termination.value, "winner": outcome.winner},
        "clock": header.clock.to_data() if header.clock else None,
        "offers": [list(pair) for pair in header.offers],
        "seated": sorted(header.seated),
        "rematch": header.rematch,
        "friend_name": header.friend_name,
        "rated": None if header.rated is None else [shown_to_data(s) for s in header.rated],
    }


def header_from_data(data: dict[str, Any]) -> Header:
    outcome = data["outcome"]
    return Header(
        status=data["status"],
        outcome=None
        if outcome is None
        else Outcome(Termination(outcome["termination"]), outcome["winner"]),
        clock=ClockState.from_data(data["clock"]) if data["clock"] else None,
        offers=tuple((kind, color) for kind, color in data["offers"]),
        seated=frozenset(data["seated"]),
        rematch=data["rematch"],
        friend_name=data.get("friend_name"),  # none before the friend's name was kept
        rated=_rated_from_data(data.get("rated")),  # none before ratings existed
    )


def _rated_from_data(data: list[dict[str, Any]] | None) -> tuple[ShownRating, ShownRating] | None:
    if data is None:
        return None
    return shown_from_data(data[0]), shown_from_data(data[1])


def game_from_stored(stored: StoredGame) -> Game:
    settings = settings_from_data(stored.settings)
    header = header_from_data(stored.header)
    return restore_game(stored.id, settings, header, stored.version, stored.moves)


def stored_from_game(game: Game, invite_hash: str | None) -> StoredGame:
    return StoredGame(
        game.id,
        settings_to_data(game.settings),
        header_to_data(game.header),
        game.version,
        list(game.moves),
        invite_hash,
    )
