"""The games list's URL parameters (the profile page, its JSON and the PGN export) parsed at the
edge into a `GamesFilter`, and written back into links.

`rated` ("true" / "false"), `speed` (a speed as the ratings name it), `result` ("win", "draw",
"loss") and `before`, the cursor of the next page: the last game's end in milliseconds and its
id, as `<ms>.<id>`. Anything else in them is refused with `bad_request` naming the parameter and
what it takes; parameters the list does not know are ignored, as browsers add their own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from server.players.entries import SPEEDS
from server.players.tables import RESULTS, GamesQuery
from server.shared.errors import RequestError

CURSOR = re.compile(r"([0-9]{1,15})\.([A-Za-z0-9_-]{12})")
BOOLEANS = {"true": True, "false": False}


@dataclass(frozen=True)
class GamesFilter:
    """Which of a player's games to list, and from where (None: no filter, the newest)."""

    rated: bool | None = None
    speed: str | None = None
    result: str | None = None
    before: tuple[int, str] | None = None

    def query(self, account: int, limit: int) -> GamesQuery:
        return GamesQuery(account, limit, self.before, self.rated, self.speed, self.result)

    def link(self, path: str, **changes: object) -> str:
        """`path` with this filter's parameters, `changes` (None to drop one) applied."""
        values: dict[str, object] = {
            "rated": self.rated,
            "speed": self.speed,
            "result": self.result,
            "before": self.before,
            **changes,
        }
        pairs = [(name, _text(value)) for name, value in values.items() if value is not None]
        return f"{path}?{urlencode(pairs)}" if pairs else path


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return f"{value[0]}.{value[1]}"
    return str(value)


def parse_games_filter(args: Mapping[str, str]) -> GamesFilter:
    rated = _choice(args, "rated", tuple(BOOLEANS))
    speed = _choice(args, "speed", SPEEDS)
    result = _choice(args, "result", RESULTS)
    return GamesFilter(
        None if rated is None else BOOLEANS[rated], speed, result, _cursor(args.get("before"))
    )


def _choice(args: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str | None:
    value = args.get(name)
    if value is None or value == "":
        return None
    if value not in allowed:
        raise RequestError(
            "bad_request",
            f"parameter {name!r} must be one of {', '.join(allowed)}; got {value[:30]!r}",
        )
    return value


def _cursor(text: str | None) -> tuple[int, str] | None:
    if text is None or text == "":
        return None
    match = CURSOR.fullmatch(text)
    if match is None:
        raise RequestError(
            "bad_request",
            "parameter 'before' must be a page's cursor as the last page gave it"
            f" (<milliseconds>.<game id>); got {text[:40]!r}",
        )
    return int(match.group(1)), match.group(2)
