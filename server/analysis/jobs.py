"""What the work pool (server.work) runs for the analysis board's API, off the serving loop.

Each function here is sent to a worker process with the request's raw body or a stored tree's
PGN, and does everything that costs CPU in proportion to what a visitor sent: the JSON decoded
(server.edge.http.decode_json, the API's own bounds), the fields checked, every move
played, trees and PGN written. Plain values come back (a tree's JSON, PGN text, a review's
source); the serving process then only stores them and answers. Refusals are the same
`RequestError`s the handlers raised before, carried back by the pool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore.rules.pgn_import import GameSpan, ImportedGame
from server.analysis.service import (
    MAX_LISTED,
    Imported,
    from_fen,
    list_games,
    make_pgn,
    make_stored_pgn,
    read_game,
    read_stored,
)
from server.analysis.tree import make_tree, parse_tree
from server.edge.http import decode_json
from server.shared.display import display_result, display_value
from server.shared.errors import RequestError


@dataclass(frozen=True)
class AnalysisAnswer:
    """`POST /api/analysis` read: the games to choose from, or the tree (its id left for the
    server to fill) and, to store it, its PGN."""

    choose: list[dict[str, Any]] | None = None
    tree: dict[str, Any] | None = None
    stored_pgn: str | None = None


def _object(data: bytes) -> dict[str, Any]:
    body = decode_json(data)
    if not isinstance(body, dict):
        raise RequestError("bad_request", "the body must be a JSON object")
    return body


def _flag(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise RequestError("bad_request", f"field {name!r} must be true or false")
    return value


def read_analysis_body(data: bytes) -> AnalysisAnswer:
    """A `POST /api/analysis` body: `{"pgn"}` (and `"game"`), `{"fen"}` or `{"tree"}`, and
    `"store"`."""
    body = _object(data)
    sources = [name for name in ("pgn", "fen", "tree") if name in body]
    unknown = sorted(set(body) - {"pgn", "fen", "tree", "game", "store"})
    if len(sources) != 1 or unknown:
        raise RequestError(
            "bad_request", "send exactly one of 'pgn', 'fen' or 'tree' (and 'game', 'store')"
        )
    store = _flag(body, "store", True)
    if "pgn" in body:
        imported = _pgn_game(body)
        if isinstance(imported, list):
            return AnalysisAnswer(choose=_listing(imported))
    elif "fen" in body:
        imported = from_fen(body["fen"])
    else:
        imported = Imported(*parse_tree(body["tree"]))
    tree = make_tree(imported.game, None, imported.notice)
    return AnalysisAnswer(tree=tree, stored_pgn=make_stored_pgn(imported.game) if store else None)


def _pgn_game(body: dict[str, Any]) -> Imported | list[GameSpan]:
    """The game of the PGN the body names, or the file's games when it has several and none
    is chosen yet."""
    text = body["pgn"]
    if not isinstance(text, str):
        raise RequestError("bad_request", "field 'pgn' must be the text of a PGN file")
    spans = list_games(text)
    index = body.get("game")
    if index is None:
        if len(spans) > 1:
            return spans
        index = 0
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(spans):
        raise RequestError(
            "bad_request", f"field 'game' must be a game's index, 0 to {len(spans) - 1}"
        )
    return read_game(text, spans[index])


def _listing(spans: list[GameSpan]) -> list[dict[str, Any]]:
    return [
        {
            "index": index,
            "white": display_value(span.headers.get("White", "?")),
            "black": display_value(span.headers.get("Black", "?")),
            "result": display_result(span.headers.get("Result")),
            "event": display_value(span.headers.get("Event", "?")),
            "date": display_value(span.headers.get("Date", "????.??.??")),
            "plies": span.plies,
        }
        for index, span in enumerate(spans[:MAX_LISTED])
    ]


def stored_tree(text: str, analysis_id: str) -> dict[str, Any]:
    """The wire tree of a shared tree stored as `text`."""
    imported = read_stored(text)
    return make_tree(imported.game, analysis_id, imported.notice)


def stored_pgn(text: str, annotate: bool) -> str:
    """A shared tree's PGN as written for download, annotated when `annotate`."""
    return make_pgn(read_stored(text).game, annotate)


def read_export_body(data: bytes) -> str:
    """A `POST /api/analysis/export` body (`{"tree", "annotations"}`) as PGN."""
    body = _object(data)
    if set(body) - {"tree", "annotations"} or "tree" not in body:
        raise RequestError("bad_request", "send {'tree': ..., 'annotations': true|false}")
    game, _ = parse_tree(body["tree"])
    return make_pgn(game, _flag(body, "annotations", False))


def game_tree(game: ImportedGame) -> dict[str, Any]:
    """A game here as a wire tree, every position written."""
    return make_tree(game, None, None)
