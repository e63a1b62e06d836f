"""The games to watch: the ongoing games between seated players, and the "TV" game among them.

Read from the store (`LobbyTables.ongoing_games`, the most recently changed first), so every
process shows the same list. A game waiting for its invited friend is not listed: nobody plays
it yet. The TV shows the most active game: the one whose last change is the most recent (a
game where moves are being made now), ties going to the longer game. A game without a change
for `quiet_after` seconds (TV_QUIET_AFTER, server.shared.config) is marked quiet: its tab may be
closed while the game stays "playing" for hours, so the page's TV moves on from it as soon as
another game is livelier (static/js/lobby/tv.js). The invited friend's name is in the game's
header (`friend_name`, given when the seat is taken), the creator's in its settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore import BLACK, WHITE
from server.games.clock import ClockSettings
from server.games.stored import OngoingGame

# Games read from the store for the list; those not shown (waiting for a friend) are skipped.
SCANNED = 200


@dataclass(frozen=True)
class WatchedGame:
    id: str
    names: tuple[str | None, str | None]  # by colour
    computer: int | None  # the computer's colour, if it plays
    level: int | None
    clock: ClockSettings | None
    plies: int
    updated: float
    quiet: bool = False  # no change for quiet_after seconds


def names_of(settings: dict[str, Any], header: dict[str, Any]) -> tuple[str | None, str | None]:
    """The players' names by colour from a stored game's JSON (see the module docstring)."""
    names = list(settings.get("names") or [None, None])
    if header.get("friend_name") is not None:
        names[1 - settings["creator"]] = header["friend_name"]
    return names[WHITE], names[BLACK]


def names_in_play(rows: list[OngoingGame]) -> set[str]:
    """The names of the players seated in the games in play among `rows` (the computer and a
    player who chose none have no name)."""
    names: set[str] = set()
    for row in rows:
        if row.header["status"] != "playing":
            continue
        by_color = names_of(row.settings, row.header)
        names.update(name for color in row.header["seated"] if (name := by_color[color]))
    return names


def make_watch_list(
    rows: list[OngoingGame], limit: int, now: float, quiet_after: float
) -> list[WatchedGame]:
    """The games in play with both seats taken, the most recently changed first."""
    games = []
    for row in rows:
        header, settings = row.header, row.settings
        if header["status"] != "playing" or len(header["seated"]) < 2:
            continue
        creator = settings["creator"]
        computer = 1 - creator if settings["opponent"] == "computer" else None
        clock = ClockSettings.from_data(settings["clock"]) if settings["clock"] else None
        games.append(
            WatchedGame(
                row.id,
                names_of(settings, header),
                computer,
                settings["level"],
                clock,
                row.plies,
                row.updated,
                now - row.updated >= quiet_after,
            )
        )
        if len(games) == limit:
            break
    return games


def choose_tv(games: list[WatchedGame]) -> WatchedGame | None:
    """The most active game: the latest change, then the most plies."""
    return max(games, key=lambda game: (game.updated, game.plies), default=None)
