"""Parse the lobby's payloads into typed requests (the events of docs/protocol.md, "Lobby").

The same rules as `server.games.requests`, whose field helpers these use: exactly the
documented fields, each checked, every refusal `bad_request` naming the field and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.edge.fields import (
    bad_request,
    expect_fields,
    optional_string_field,
    shorten,
    string_field,
)
from server.games.requests import (
    COLORS,
    parse_assisted,
    parse_name,
)
from server.lobby.seeks import QUICK_CONTROLS, PairRequest, SeekRequest

# The ratings a seek's range may name (lichess's floor, and a ceiling no player reaches).
MIN_RATING = 400
MAX_RATING = 4000

CONTROLS_WHAT = f"one of {', '.join(repr(control) for control in QUICK_CONTROLS)}"


@dataclass(frozen=True)
class AcceptRequest:
    seek: str
    name: str | None


def is_seek_id(text: str) -> bool:
    # Seek ids are made like game ids: 12 characters of URL-safe base64.
    return len(text) == 12 and all(
        char.isascii() and (char.isalnum() or char in "_-") for char in text
    )


SEEK_ID_WHAT = "a seek id (12 characters A-Z a-z 0-9 _ -)"


def parse_nothing(payload: Any) -> None:
    """An event that takes no field: `{}`."""
    expect_fields(payload, ())


def parse_seek(payload: Any) -> SeekRequest:
    fields = expect_fields(
        payload, (), ("control", "color", "assisted", "name", "rated", "rating_range")
    )
    control = optional_string_field(
        fields, "control", lambda text: text in QUICK_CONTROLS, CONTROLS_WHAT
    )
    color = (
        "random"
        if fields.get("color") is None
        else string_field(fields, "color", lambda t: t in COLORS, "'white', 'black' or 'random'")
    )
    rated = _parse_rated(fields)
    if rated and control is None:
        # Leaving a rated game must cost the game (docs/ratings.md, "Rated games on the
        # server"): a clock makes it a loss on time; without one only the abandon sweep would
        # end it, with no result.
        raise bad_request(f"field 'control': a rated challenge needs a clock, {CONTROLS_WHAT}")
    return SeekRequest(
        control,
        COLORS[color],
        parse_assisted(fields),
        parse_name(fields),
        rated,
        _parse_rating_range(fields),
    )


def parse_pair(payload: Any) -> PairRequest:
    fields = expect_fields(payload, ("control",), ("name", "rated"))
    control = string_field(fields, "control", lambda text: text in QUICK_CONTROLS, CONTROLS_WHAT)
    return PairRequest(control, parse_name(fields), _parse_rated(fields))


def _parse_rated(fields: dict[str, Any]) -> bool:
    value = fields.get("rated", False)
    if not isinstance(value, bool):
        raise bad_request(f"field 'rated' must be true or false, got {shorten(value)}")
    return value


def _parse_rating_range(fields: dict[str, Any]) -> tuple[int, int] | None:
    """[lowest, highest] rating of whoever may take the seek, each 400..4000; null: anyone."""
    value = fields.get("rating_range")
    if value is None:
        return None
    what = f"[lowest, highest] with {MIN_RATING} <= lowest <= highest <= {MAX_RATING}"
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(type(bound) is int for bound in value)
        and MIN_RATING <= value[0] <= value[1] <= MAX_RATING
    ):
        raise bad_request(f"field 'rating_range' must be {what}, got {shorten(value)}")
    return value[0], value[1]


def parse_accept(payload: Any) -> AcceptRequest:
    fields = expect_fields(payload, ("seek",), ("name",))
    return AcceptRequest(string_field(fields, "seek", is_seek_id, SEEK_ID_WHAT), parse_name(fields))


def parse_cancel(payload: Any) -> str | None:
    """The seek to withdraw, or None: whatever this connection holds."""
    fields = expect_fields(payload, (), ("seek",))
    return optional_string_field(fields, "seek", is_seek_id, SEEK_ID_WHAT)
