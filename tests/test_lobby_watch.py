"""The watch list as data (server.lobby.watch): which games are listed, which are quiet, the
TV's choice, and the players' names with the invited friend's from the header."""

from __future__ import annotations

from typing import Any

from server.games.stored import OngoingGame
from server.lobby.watch import choose_tv, make_watch_list


def row(game: str, updated: float, *, header: dict[str, Any] | None = None) -> OngoingGame:
    settings = {
        "opponent": "friend",
        "creator": 0,
        "clock": None,
        "level": None,
        "names": ["Alice", None],
    }
    seated = {"status": "playing", "seated": [0, 1], **(header or {})}
    return OngoingGame(game, settings, seated, 10, updated)


def test_a_game_without_a_change_for_the_quiet_time_is_quiet() -> None:
    games = make_watch_list([row("live", 99.0), row("gone", 50.0)], 30, 100.0, 30.0)
    assert [(game.id, game.quiet) for game in games] == [("live", False), ("gone", True)]
    tv = choose_tv(games)
    assert tv is not None and tv.id == "live"


def test_the_invited_friends_name_comes_from_the_header() -> None:
    (named,) = make_watch_list([row("g", 1.0, header={"friend_name": "Bob"})], 30, 1.0, 30.0)
    assert named.names == ("Alice", "Bob")
    (unnamed,) = make_watch_list([row("g", 1.0)], 30, 1.0, 30.0)
    assert unnamed.names == ("Alice", None)
