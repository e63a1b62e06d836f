"""The analysis board over HTTP: import a PGN or a FEN, share a tree, read it, export it.

`POST /api/analysis` reads `{"pgn"}` (one game of it: a file of several answers the list to
choose from, unless `"game"` names one), `{"fen"}` or `{"tree"}` (the page's tree, flat:
server.analysis.tree) into the flat tree, and stores it under a short id unless `"store":
false`. `GET /api/analysis/<id>` reads a stored tree back, `.../pgn` writes it as PGN, and `POST
/api/analysis/export` writes the PGN of a tree the page sends, `"annotations": true` adding the
threat annotations to every move. `GET /api/analysis/game/<game id>` is a game here as a tree:
finished, or in play for anyone who holds no seat in it (a seat comes from its cookie or an
`Authorization: Bearer` token), since nobody may analyse their own game while it is played; a
rated game in play for nobody (the analysis board shows every threat fact, which nobody gets of
a rated game until it ends: server.games.messages). Bodies here may be up to `MAX_BODY_BYTES` (a
PGN file), where the rest of the API takes 4 KB. Reading a PGN or a tree and writing one cost
CPU in proportion to what a visitor sent, so every such handler hands the undecoded body (or the
stored tree) to the work pool (server.work.offload, admitted per address before anything is
decoded) and only stores and answers here; docs/protocol.md documents each endpoint.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, make_response, request

from chesscore import Move
from chesscore.rules.pgn_import import ImportedGame, Node
from server.analysis import jobs as offload_jobs
from server.analysis.service import ANALYSIS, AnalysisService
from server.analysis.tree import say_notice
from server.edge.clients import request_client
from server.edge.http import answer_errors_as_json, bearer_token, json_bytes
from server.games.pgn import pgn_headers, pgn_result
from server.games.seats import cookie_name, is_game_id
from server.games.service import GAMES, GameService
from server.shared.errors import N_, RequestError
from server.shared.tokens import is_token
from server.work.offload import PGN_BYTES_PER_MOVE, offload

MAX_BODY_BYTES = 1024 * 1024

blueprint = answer_errors_as_json(Blueprint("analysis_api", __name__, url_prefix="/api/analysis"))


def _analysis() -> AnalysisService:
    return ANALYSIS.get()


def _games() -> GameService:
    return GAMES.get()


def _large_body() -> bytes:
    """The body, undecoded: the work pool decodes it, after the address is admitted."""
    request.max_content_length = MAX_BODY_BYTES
    return json_bytes()


@blueprint.post("")
def create() -> Response | tuple[Response, int]:
    data = _large_body()
    answer = offload(len(data), offload_jobs.read_analysis_body, data)
    if answer.choose is not None:
        return jsonify({"ok": True, "choose": answer.choose})
    tree = answer.tree
    assert tree is not None
    tree["notice"] = say_notice(tree["notice"])
    if answer.stored_pgn is None:
        return jsonify({"ok": True, "id": None, "tree": tree}), 200
    tree["id"] = _analysis().share(answer.stored_pgn, request_client())
    return jsonify({"ok": True, "id": tree["id"], "tree": tree}), 201


@blueprint.get("/<analysis_id>")
def read(analysis_id: str) -> Response:
    text = _analysis().load_text(analysis_id)
    tree = offload(len(text), offload_jobs.stored_tree, text, analysis_id)
    tree["notice"] = say_notice(tree["notice"])
    return jsonify({"ok": True, "id": analysis_id, "tree": tree})


@blueprint.get("/<analysis_id>/pgn")
def read_pgn(analysis_id: str) -> Response:
    annotations = request.args.get("annotations", "0")
    if annotations not in ("0", "1"):
        raise RequestError("bad_request", N_("parameter 'annotations' must be 0 or 1"))
    text = _analysis().load_text(analysis_id)
    return _pgn_response(offload(len(text), offload_jobs.stored_pgn, text, annotations == "1"))


@blueprint.post("/export")
def export() -> Response:
    data = _large_body()
    return _pgn_response(offload(len(data), offload_jobs.read_export_body, data))


def _pgn_response(text: str) -> Response:
    response = make_response(text)
    response.mimetype = "text/x-chess-pgn"
    return response


@blueprint.get("/game/<game_id>")
def game_tree(game_id: str) -> Response:
    game = game_for_analysis(game_id)
    tree = offload(len(game.moves) * PGN_BYTES_PER_MOVE, offload_jobs.game_tree, game)
    return jsonify({"ok": True, "id": None, "tree": tree})


def game_for_analysis(game_id: str) -> ImportedGame:
    """A game here as a tree to analyse: `forbidden` to a seat holder while it is played,
    `game_in_play` to anyone while a rated game is."""
    service = _games()
    if not is_game_id(game_id) or not service.exists(game_id):
        raise RequestError("not_found", N_("no game with id {game_id}"), game_id=repr(game_id[:40]))
    with service.session(game_id) as game:
        playing, withheld = game.is_playing, game.withholds_overlays
        headers, result = pgn_headers(game), pgn_result(game)
        start_fen, records = game.settings.start_fen, list(game.moves)
    if withheld:
        raise RequestError("game_in_play", N_("a rated game can be analysed once it has ended"))
    if playing and _holds_seat(service, game_id):
        raise RequestError("forbidden", N_("no analysis of your own game while it is played"))
    moves = tuple(Node(Move.from_uci(record.uci), record.san) for record in records)
    return ImportedGame(headers, start_fen, moves, "", result, 1)


def _holds_seat(service: GameService, game_id: str) -> bool:
    tokens = [request.cookies.get(cookie_name(game_id)), bearer_token()]
    return any(
        token is not None and is_token(token) and service.seat_of(game_id, token) is not None
        for token in tokens
    )
