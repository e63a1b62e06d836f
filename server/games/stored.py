"""A game as plain data for its tables (server.games.tables), and back.

The tables store plain data only: a game's settings and header as JSON-ready dicts, its moves
as (ply, uci, san, clock) rows, seats as token hashes (and the account that took each seat,
where a signed-in player took it: `StoredGame.accounts`, colour -> account id), and the log of
changes by version. The functions at the end convert between `server.games.play` records and
that plain data; the data of games stored by earlier releases (fields missing) reads back with
the defaults those releases played by.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chesscore import Outcome, Termination
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
    """An active game's header and version, without its moves (`GameTables.idle_games`)."""

    id: str
    header: dict[str, Any]
    version: int


@dataclass(frozen=True)
class OngoingGame:
    """A game in play as the watch list and a player's page need it: settings, header, plies
    and last change (server.lobby.tables, server.players.tables)."""

    id: str
    settings: dict[str, Any]
    header: dict[str, Any]
    plies: int
    updated: float


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
