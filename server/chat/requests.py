"""The chat's requests, parsed at the edge (docs/protocol.md, "Quick phrases"): `chat_join`
`{game}` and `chat_say` `{game, phrase}`, the phrase one of the keys of server.chat.phrases;
anything else is `bad_request` quoting it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.chat.phrases import PHRASES, is_phrase
from server.edge.fields import expect_fields, string_field
from server.games.seats import is_game_id

GAME_WHAT = "a game id (12 characters A-Z a-z 0-9 _ -)"
PHRASE_WHAT = "one of " + ", ".join(PHRASES)


@dataclass(frozen=True)
class SayRequest:
    game: str
    phrase: str


def parse_join(payload: Any) -> str:
    """The game whose chat the connection opens."""
    return string_field(expect_fields(payload, ("game",)), "game", is_game_id, GAME_WHAT)


def parse_say(payload: Any) -> SayRequest:
    fields = expect_fields(payload, ("game", "phrase"))
    return SayRequest(
        string_field(fields, "game", is_game_id, GAME_WHAT),
        string_field(fields, "phrase", is_phrase, PHRASE_WHAT),
    )
