"""Plain stored data the store tests share: the header of a game in play, as a store holds it."""

from __future__ import annotations

from typing import Any

HEADER: dict[str, Any] = {
    "status": "playing",
    "outcome": None,
    "clock": None,
    "offers": [],
    "seated": [0],
    "rematch": None,
}
