"""The preferences a player may set, their allowed values and defaults, and their two forms
outside the server: the JSON the settings page sends and the pages read, and the cookie a
signed-out browser keeps them in.

`Preferences` is plain data. `parse_preferences` reads a JSON object strictly (an unknown key
or a value not allowed is `bad_request`, quoting it); `read_cookie` reads the browser's cookie
leniently, since a stale or hand-edited cookie must never break a page: what it cannot read
is the default. `html_classes` is what the server writes on <html> (static/css/theme.css draws
the board's colours, the theme and the coordinates from those classes alone, so nothing
flashes on load).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from server.shared.errors import N_, RequestError

BOARDS = ("brown", "blue", "green", "grey")
THEMES = ("light", "dark", "system")
# The threat overlay's mode a game page opens with (static/js/overlays/threats.js's MODES).
THREAT_MODES = ("off", "mine", "theirs", "both")
COOKIE = "prefs"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie (RFC 6265bis)


@dataclass(frozen=True)
class Preferences:
    """A player's preferences; the defaults are a new visitor's."""

    board: str = "brown"
    theme: str = "light"
    coordinates: bool = True
    sound: bool = True
    premoves: bool = True
    auto_queen: bool = False
    confirm_resign: bool = True
    threats: str = "off"
    chat: bool = True


CHOICES: dict[str, tuple[Any, ...]] = {
    "board": BOARDS,
    "theme": THEMES,
    "threats": THREAT_MODES,
}
NAMES = tuple(field.name for field in fields(Preferences))
DEFAULTS = Preferences()


def allowed(name: str) -> tuple[Any, ...]:
    """The values preference `name` may take."""
    return CHOICES.get(name, (True, False))


def parse_preferences(data: object, base: Preferences = DEFAULTS) -> Preferences:
    """`base` with the preferences of the JSON object `data` (some or all of them)."""
    if not isinstance(data, dict):
        raise RequestError("bad_request", N_("the preferences must be a JSON object"))
    changes: dict[str, Any] = {}
    for name, value in data.items():
        if name not in NAMES:
            raise RequestError(
                "bad_request", N_("no preference named {name}"), name=repr(str(name)[:40])
            )
        if type(value) is not type(getattr(DEFAULTS, name)) or value not in allowed(name):
            raise RequestError(
                "bad_request",
                N_("preference {name} cannot be {value}"),
                name=repr(name),
                value=repr(str(value)[:40]),
            )
        changes[name] = value
    return replace(base, **changes)


def preferences_json(preferences: Preferences) -> dict[str, Any]:
    return asdict(preferences)


def make_cookie(preferences: Preferences) -> str:
    """The cookie's value: `name:value` pairs joined by `|`, booleans as 1 and 0."""
    return "|".join(f"{name}:{_word(value)}" for name, value in asdict(preferences).items())


def read_cookie(value: str | None) -> Preferences:
    """The preferences of a browser's cookie; what it cannot read stays the default."""
    changes: dict[str, Any] = {}
    for pair in (value or "").split("|")[: len(NAMES)]:
        name, _, word = pair.partition(":")
        if name not in NAMES:
            continue
        typed: Any = word == "1" if isinstance(getattr(DEFAULTS, name), bool) else word
        # A boolean is 1 or 0 and nothing else; a word must be one of its choices.
        if (word in ("0", "1") or not isinstance(typed, bool)) and typed in allowed(name):
            changes[name] = typed
    return replace(DEFAULTS, **changes)


def html_classes(preferences: Preferences) -> str:
    """The <html> element's classes for these preferences (static/css/theme.css)."""
    classes = [f"board-{preferences.board}", f"theme-{preferences.theme}"]
    if not preferences.coordinates:
        classes.append("coords-off")
    return " ".join(classes)


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)
