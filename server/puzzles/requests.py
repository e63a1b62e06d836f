"""What a solver sends, parsed at the edge into frozen values (docs/puzzles.md, "The API").

`parse_next(args)` reads `?theme=T&rating=R&mine=1&exclude=id,id,...`; `parse_result(body)`
reads `{"win": true|false}`, with the rating a visitor without an account keeps in the browser
(`"solver": {"rating", "deviation", "volatility"}`, optional: the first rating otherwise);
`parse_puzzle_id` a path's id; `parse_step` the lesson's `?step=N`. Every refusal is a
`bad_request` naming the field and quoting the value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chesscore.puzzles import THEMES
from chesscore.ratings import PlayerRating
from chesscore.ratings.glicko2 import Glicko
from server.edge.fields import expect_fields, number_field
from server.edge.query import parse_query_int
from server.shared.errors import N_, RequestError

# lichess's ids have five characters, ours six; an import's may have up to 16 (csvformat).
PUZZLE_ID = re.compile(r"[0-9A-Za-z]{1,16}")
# The ids a page may ask to leave out: its recent puzzles (more are dropped, oldest first).
MAX_EXCLUDE = 200
LOWEST_RATING, HIGHEST_RATING = 400, 3500


@dataclass(frozen=True, slots=True)
class NextRequest:
    theme: str | None
    rating: int | None
    mine: bool
    exclude: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ResultRequest:
    win: bool
    solver: PlayerRating | None


def parse_puzzle_id(text: str) -> str:
    if not PUZZLE_ID.fullmatch(text):
        raise RequestError("not_found", N_("no puzzle has the id {id}"), id=repr(text[:20]))
    return text


def parse_next(args: Mapping[str, str]) -> NextRequest:
    theme = args.get("theme") or None
    if theme is not None and theme not in THEMES:
        raise RequestError(
            "bad_request",
            f"unknown theme {theme[:30]!r}: see /api/puzzles/themes for the theme keys",
        )
    rating = None
    if args.get("rating"):
        rating = parse_query_int("rating", args["rating"])
        rating = max(LOWEST_RATING, min(HIGHEST_RATING, rating))
    mine = args.get("mine", "0")
    if mine not in ("0", "1"):
        raise RequestError("bad_request", f"'mine' must be 0 or 1, got {mine[:20]!r}")
    exclude = tuple(item for item in args.get("exclude", "").split(",") if item)
    bad = [item for item in exclude if not PUZZLE_ID.fullmatch(item)]
    if bad:
        raise RequestError("bad_request", f"'exclude' holds {bad[0][:20]!r}, not a puzzle id")
    return NextRequest(theme, rating, mine == "1", exclude[-MAX_EXCLUDE:])


def parse_result(body: Any) -> ResultRequest:
    if not isinstance(body, dict):
        raise RequestError("bad_request", 'the body must be a JSON object {"win": true|false}')
    expect_fields(body, ("win",), ("solver",))
    win = body["win"]
    if not isinstance(win, bool):
        raise RequestError("bad_request", f"'win' must be true or false, got {str(win)[:20]!r}")
    solver = body.get("solver")
    return ResultRequest(win, None if solver is None else _parse_solver(solver))


def _parse_solver(solver: Any) -> PlayerRating:
    if not isinstance(solver, dict):
        raise RequestError("bad_request", "'solver' must be {rating, deviation, volatility}")
    expect_fields(solver, ("rating", "deviation", "volatility"))
    glicko = Glicko(
        number_field(solver, "rating", LOWEST_RATING, HIGHEST_RATING),
        number_field(solver, "deviation", 30, 500),
        number_field(solver, "volatility", 0.01, 0.2),
    )
    return PlayerRating(glicko)


def parse_step(args: Mapping[str, str]) -> int:
    return parse_query_int("step", args.get("step", "0"))
