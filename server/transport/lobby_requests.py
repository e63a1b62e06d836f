"""Parse the lobby's payloads into typed requests (the events of docs/protocol.md, "Lobby").

The same rules as `server.transport.requests`, whose field helpers these use: exactly the
documented fields, each checked, every refusal `bad_request` naming the field and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.lobby.seeks import QUICK_CONTROLS, PairRequest, SeekRequest
from server.transport.requests import (
    COLORS,
    _fields,
    _optional_string,
    _parse_assisted,
    _string,
    parse_name,
)

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
    _fields(payload, ())


def parse_seek(payload: Any) -> SeekRequest:
    fields = _fields(payload, (), ("control", "color", "assisted", "name"))
    control = _optional_string(
        fields, "control", lambda text: text in QUICK_CONTROLS, CONTROLS_WHAT
    )
    color = (
        "random"
        if fields.get("color") is None
        else _string(fields, "color", lambda t: t in COLORS, "'white', 'black' or 'random'")
    )
    return SeekRequest(control, COLORS[color], _parse_assisted(fields), parse_name(fields))


def parse_pair(payload: Any) -> PairRequest:
    fields = _fields(payload, ("control",), ("name",))
    control = _string(fields, "control", lambda text: text in QUICK_CONTROLS, CONTROLS_WHAT)
    return PairRequest(control, parse_name(fields))


def parse_accept(payload: Any) -> AcceptRequest:
    fields = _fields(payload, ("seek",), ("name",))
    return AcceptRequest(_string(fields, "seek", is_seek_id, SEEK_ID_WHAT), parse_name(fields))


def parse_cancel(payload: Any) -> str | None:
    """The seek to withdraw, or None: whatever this connection holds."""
    fields = _fields(payload, (), ("seek",))
    return _optional_string(fields, "seek", is_seek_id, SEEK_ID_WHAT)
