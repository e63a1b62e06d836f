"""A payload's fields checked one by one at the edge; every refusal names the field.

Payloads arrive as whatever JSON (or garbage) a client chose to send. Every feature's parser
(`server.<feature>.requests`) builds its typed request from these: exactly the documented keys
(`expect_fields`), each of the documented type (a boolean is not an integer) and range, every
refusal a `RequestError("bad_request", ...)` quoting the field and, shortened, the value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from server.shared.errors import RequestError


def shorten(value: Any, limit: int = 40) -> str:
    """repr() of a bad value, cut so a huge payload never makes a huge error."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def bad_request(message: str) -> RequestError:
    return RequestError("bad_request", message)


def expect_fields(
    payload: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The payload as a dict with exactly the allowed keys and every required one."""
    if not isinstance(payload, dict):
        raise bad_request(
            f"the payload must be a JSON object, got {type(payload).__name__} {shorten(payload)}"
        )
    unknown = sorted(str(key) for key in payload if key not in required + optional)
    if unknown:
        raise bad_request(f"unknown field(s) {', '.join(shorten(name, 30) for name in unknown)}")
    missing = [name for name in required if name not in payload]
    if missing:
        raise bad_request(f"missing field(s) {', '.join(repr(name) for name in missing)}")
    return payload


def string_field(
    payload: dict[str, Any], name: str, check: Callable[[str], bool], what: str
) -> str:
    value = payload[name]
    if not isinstance(value, str) or not check(value):
        raise bad_request(f"field {name!r} must be {what}, got {shorten(value)}")
    return value


def optional_string_field(
    payload: dict[str, Any], name: str, check: Callable[[str], bool], what: str
) -> str | None:
    if payload.get(name) is None:
        return None
    return string_field(payload, name, check, what)


def integer_field(payload: dict[str, Any], name: str, low: int, high: int) -> int:
    value = payload[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_request(f"field {name!r} must be an integer, got {shorten(value)}")
    if not low <= value <= high:
        raise bad_request(f"field {name!r} must be between {low} and {high}, got {value}")
    return value


def number_field(payload: dict[str, Any], name: str, low: float, high: float) -> float:
    value = payload[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise bad_request(f"field {name!r} must be a number, got {shorten(value)}")
    if not low <= value <= high:
        raise bad_request(f"field {name!r} must be between {low} and {high}, got {value}")
    return float(value)
