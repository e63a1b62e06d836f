"""The analysis board over HTTP: import a PGN or a FEN, share a tree, read it, export it.

`POST /api/analysis` reads `{"pgn"}` (one game of it: a file of several answers the list to
choose from, unless `"game"` names one), `{"fen"}` or `{"tree"}` (the page's tree, flat:
server.analysis.tree) into the flat tree, and stores it under a short id unless `"store":
false`. `GET /api/analysis/<id>` reads a stored tree back, `.../pgn` writes it as PGN, and
`POST /api/analysis/export` writes the PGN of a tree the page sends, `"annotations": true`
adding the threat annotations to every move. `GET /api/analysis/game/<game id>` is a game
here as a tree: finished, or in play for anyone who holds no seat in it (a seat comes from its
cookie or an `Authorization: Bearer` token), since nobody may analyse their own game while it
is played. Bodies here may be up to `MAX_BODY_BYTES` (a PGN file), where the rest of the API
takes 4 KB; docs/protocol.md documents each endpoint.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify, make_response, request

from chesscore import Move
from chesscore.rules.pgn_import import GameSpan, ImportedGame, Node
from server.analysis.service import MAX_LISTED, AnalysisService, Imported
from server.analysis.tree import make_tree, parse_tree
from server.display import display_result, display_value
from server.errors import RequestError
from server.games.seats import cookie_name, is_game_id, is_token
from server.games.service import GameService
from server.transport import api
from server.transport.clients import request_client

MAX_BODY_BYTES = 1024 * 1024

blueprint = api.answer_errors_as_json(
    Blueprint("analysis_api", __name__, url_prefix="/api/analysis")
)


def _analysis() -> AnalysisService:
    return cast(AnalysisService, current_app.extensions["chess_analysis"])


def _games() -> GameService:
    return cast(GameService, current_app.extensions["chess"])


def _large_body() -> dict[str, Any]:
    request.max_content_length = MAX_BODY_BYTES
    body = api.json_body()
    if not isinstance(body, dict):
        raise RequestError("bad_request", "the body must be a JSON object")
    return body


def _flag(body: dict[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise RequestError("bad_request", f"field {name!r} must be true or false")
    return value


@blueprint.post("")
def create() -> Response | tuple[Response, int]:
    body = _large_body()
    sources = [name for name in ("pgn", "fen", "tree") if name in body]
    unknown = sorted(set(body) - {"pgn", "fen", "tree", "game", "store"})
    if len(sources) != 1 or unknown:
        raise RequestError(
            "bad_request", "send exactly one of 'pgn', 'fen' or 'tree' (and 'game', 'store')"
        )
    store = _flag(body, "store", True)
    service = _analysis()
    if "pgn" in body:
        imported = _pgn_game(service, body)
        if isinstance(imported, list):
            return jsonify({"ok": True, "choose": _listing(imported)})
    elif "fen" in body:
        imported = service.from_fen(body["fen"])
    else:
        imported = Imported(*parse_tree(body["tree"]))
    analysis_id = service.share(imported.game, request_client()) if store else None
    tree = make_tree(imported.game, analysis_id, imported.notice)
    return jsonify({"ok": True, "id": analysis_id, "tree": tree}), 201 if store else 200


def _pgn_game(service: AnalysisService, body: dict[str, Any]) -> Imported | list[GameSpan]:
    """The game of the PGN the body names, or the file's games when it has several and none
    is chosen yet."""
    text = body["pgn"]
    if not isinstance(text, str):
        raise RequestError("bad_request", "field 'pgn' must be the text of a PGN file")
    spans = service.list_games(text)
    index = body.get("game")
    if index is None:
        if len(spans) > 1:
            return spans
        index = 0
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(spans):
        raise RequestError(
            "bad_request", f"field 'game' must be a game's index, 0 to {len(spans) - 1}"
        )
    return service.read_game(text, spans[index])


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


@blueprint.get("/<analysis_id>")
def read(analysis_id: str) -> Response:
    imported = _analysis().load(analysis_id)
    return jsonify(
        {
            "ok": True,
            "id": analysis_id,
            "tree": make_tree(imported.game, analysis_id, imported.notice),
        }
    )


@blueprint.get("/<analysis_id>/pgn")
def read_pgn(analysis_id: str) -> Response:
    annotations = request.args.get("annotations", "0")
    if annotations not in ("0", "1"):
        raise RequestError("bad_request", "parameter 'annotations' must be 0 or 1")
    game = _analysis().load(analysis_id).game
    return _pgn_response(_analysis().pgn(game, annotations == "1"))


@blueprint.post("/export")
def export() -> Response:
    body = _large_body()
    if set(body) - {"tree", "annotations"} or "tree" not in body:
        raise RequestError("bad_request", "send {'tree': ..., 'annotations': true|false}")
    game, _ = parse_tree(body["tree"])
    return _pgn_response(_analysis().pgn(game, _flag(body, "annotations", False)))


def _pgn_response(text: str) -> Response:
    response = make_response(text)
    response.mimetype = "text/x-chess-pgn"
    return response


@blueprint.get("/game/<game_id>")
def game_tree(game_id: str) -> Response:
    return jsonify(
        {"ok": True, "id": None, "tree": make_tree(game_for_analysis(game_id), None, None)}
    )


def game_for_analysis(game_id: str) -> ImportedGame:
    """A game here as a tree to analyse: `forbidden` to a seat holder while it is played."""
    service = _games()
    if not is_game_id(game_id) or not service.exists(game_id):
        raise RequestError("not_found", f"no game with id {game_id[:40]!r}")
    with service.session(game_id) as game:
        playing = game.is_playing
        headers, result = api.pgn_headers(game), api.pgn_result(game)
        start_fen, records = game.settings.start_fen, list(game.moves)
    if playing and _holds_seat(service, game_id):
        raise RequestError("forbidden", "no analysis of your own game while it is played")
    moves = tuple(Node(Move.from_uci(record.uci), record.san) for record in records)
    return ImportedGame(headers, start_fen, moves, "", result, 1)


def _holds_seat(service: GameService, game_id: str) -> bool:
    tokens = [request.cookies.get(cookie_name(game_id)), api.bearer_token()]
    return any(
        token is not None and is_token(token) and service.seat_of(game_id, token) is not None
        for token in tokens
    )
