"""Parse the game review's requests (HTTP and Socket.IO) into typed values at the edge.

As server.games.requests does for the games: exactly the documented fields, each of the
documented type (a boolean is not an integer), every refusal a `bad_request` naming the field
and quoting the value, shortened. The service checks what needs the store (an unknown review
or game, a game in play, a ply not reviewed yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore import ChessError, Move
from server.edge.fields import shorten
from server.edge.http import decode_json
from server.games.seats import is_game_id
from server.review.service import is_review_id
from server.review.sources import MAX_PLIES
from server.shared.errors import RequestError

REVIEW_ID_WHAT = "a review id (8 characters A-Z a-z 0-9 _ -)"


@dataclass(frozen=True)
class ReviewRequest:
    """`POST /api/reviews`: a game here (`game`), or a PGN (`pgn`, the game at `index`)."""

    game: str | None = None
    pgn: str | None = None
    index: int | None = None


@dataclass(frozen=True)
class TryRequest:
    """`review_try`: a move tried in the position before ply `ply` of review `id`."""

    id: str
    ply: int
    move: Move


def _bad(message: str) -> RequestError:
    return RequestError("bad_request", message)


def _object(payload: Any, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise _bad(f"the payload must be a JSON object, got {type(payload).__name__}")
    unknown = sorted(str(key) for key in payload if key not in allowed)
    if unknown:
        raise _bad(f"unknown field(s) {', '.join(shorten(name, 30) for name in unknown)}")
    return payload


def parse_review_request(body: Any) -> ReviewRequest:
    fields = _object(body, {"game", "pgn"})
    if "pgn" in fields:
        text, index = fields["pgn"], fields.get("game")
        if not isinstance(text, str):
            raise _bad(f"field 'pgn' must be the text of a PGN file, got {shorten(text)}")
        if index is not None and (type(index) is not int or index < 0):
            raise _bad(f"field 'game' must be a game's index in the PGN, got {shorten(index)}")
        return ReviewRequest(pgn=text, index=index)
    if "game" not in fields:
        raise _bad("send {'game': <game id>} or {'pgn': <PGN text>, 'game': <index>}")
    game = fields["game"]
    if not isinstance(game, str) or not is_game_id(game):
        raise _bad(f"field 'game' must be a game id (12 characters), got {shorten(game)}")
    return ReviewRequest(game=game)


def parse_review_id(payload: Any) -> str:
    """The `{id}` of `review_watch` and `review_unwatch`."""
    fields = _object(payload, {"id"})
    return _id(fields)


def _id(fields: dict[str, Any]) -> str:
    if "id" not in fields:
        raise _bad("missing field 'id'")
    value = fields["id"]
    if not isinstance(value, str) or not is_review_id(value):
        raise _bad(f"field 'id' must be {REVIEW_ID_WHAT}, got {shorten(value)}")
    return value


def parse_try(payload: Any) -> TryRequest:
    fields = _object(payload, {"id", "ply", "uci"})
    review_id = _id(fields)
    missing = [name for name in ("ply", "uci") if name not in fields]
    if missing:
        raise _bad(f"missing field(s) {', '.join(repr(name) for name in missing)}")
    ply = fields["ply"]
    if type(ply) is not int or not 1 <= ply <= MAX_PLIES:
        raise _bad(f"field 'ply' must be a ply number, 1 to {MAX_PLIES}, got {shorten(ply)}")
    uci = fields["uci"]
    if not isinstance(uci, str) or not 4 <= len(uci) <= 5:
        raise _bad(f"field 'uci' must be a UCI move such as 'e2e4', got {shorten(uci)}")
    try:
        move = Move.from_uci(uci)
    except ChessError as error:
        raise _bad(f"field 'uci': {error}") from error
    return TryRequest(review_id, ply, move)


def read_review_body(data: bytes) -> ReviewRequest:
    """A `POST /api/reviews` body, decoded and checked (its PGN not read yet): run in the work
    pool (server.work), since the body may be a large PGN."""
    return parse_review_request(decode_json(data))
