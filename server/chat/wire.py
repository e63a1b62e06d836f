"""A chat line as the wire carries it (docs/protocol.md, "Quick phrases"): the phrase's key,
who said it (`white`, `black` or `spectator`) and a spectator's shown name, if signed in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

AUDIENCES = ("players", "spectators")


@dataclass(frozen=True)
class ChatLine:
    phrase: str
    by: str  # "white", "black" or "spectator"
    name: str | None = None


def line_json(line: ChatLine) -> dict[str, Any]:
    return {"phrase": line.phrase, "by": line.by, "name": line.name}


def chat_room(game_id: str, audience: str) -> str:
    """The Socket.IO room of a game's players' or spectators' chat (apart from the game's own
    rooms, server.games.rooms)."""
    return f"{game_id}/chat/{audience}"
