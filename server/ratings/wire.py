"""A player's ratings per speed as the API gives them (docs/protocol.md, "Accounts")."""

from __future__ import annotations

from typing import Any

from chesscore.ratings import PlayerRating, Speed, is_provisional, live_deviation


def ratings_json(ratings: dict[Speed, PlayerRating], now: float) -> dict[str, dict[str, Any]]:
    """An account's ratings per speed as the API gives them (docs/protocol.md, "Accounts"):
    every speed, the initial rating where it has not played; the deviation as it stands now
    (grown by the time since the last game), all rounded as lichess's API rounds them."""
    shown = {}
    for speed in Speed:
        player = ratings.get(speed, PlayerRating())
        deviation = live_deviation(player, now)
        shown[speed.value] = {
            "rating": player.shown,
            "deviation": round(deviation),
            "provisional": is_provisional(deviation),
            "games": player.games,
        }
    return shown
