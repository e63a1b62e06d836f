"""The HTTP JSON API for scripts and bots: create a game, join it, read its state and PGN, act.

The same game service as Socket.IO stands behind every endpoint; only the transport differs.
Actions carry the seat token as `Authorization: Bearer <token>`, never a cookie, so another
site cannot act for a player. Every reply is JSON with `ok` (the PGN is text), and every
failure, including a malformed body, an unknown route under /api and an unexpected exception,
is `{"ok": false, "error", "code"}` with the status from `server.shared.errors`. Endpoints and
bodies are documented in docs/protocol.md.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import Any

from flask import Blueprint, Response, jsonify, make_response, request
from werkzeug.wrappers import Response as BaseResponse

from chesscore import Color
from chesscore.analysis.annotate import make_annotated_pgn
from chesscore.rules.pgn import make_pgn
from server.accounts.identity import current_account_id, shown_name
from server.edge.clients import request_client
from server.edge.connections import CONNECTIONS
from server.edge.http import answer_errors_as_json, bearer_token, json_body
from server.edge.query import parse_query_int
from server.games.lookups import board_at
from server.games.messages import State, make_state
from server.games.pgn import pgn_headers, pgn_result
from server.games.play import Game, color_name
from server.games.requests import parse_action, parse_create, parse_http_move, parse_invite
from server.games.seats import COOKIE_MAX_AGE, cookie_name, is_game_id
from server.games.service import GAMES, GameService
from server.shared.errors import N_, RequestError
from server.shared.tokens import is_token
from server.threats.cache import position_facts
from server.work.offload import PGN_BYTES_PER_MOVE, offload

log = logging.getLogger(__name__)
blueprint = answer_errors_as_json(Blueprint("api", __name__, url_prefix="/api"))


def _service() -> GameService:
    return GAMES.get()


def _game_id(game_id: str) -> str:
    if not is_game_id(game_id) or not _service().exists(game_id):
        raise RequestError("not_found", N_("no game with id {game_id}"), game_id=repr(game_id[:40]))
    return game_id


def _bearer_seat(game_id: str) -> Color:
    token = bearer_token()
    if token is None:
        raise RequestError(
            "forbidden", N_("this action needs the header Authorization: Bearer <seat token>")
        )
    if not is_token(token):
        raise RequestError(
            "bad_request", N_("the seat token is malformed (43 characters A-Z a-z 0-9 _ -)")
        )
    color = _service().seat_of(game_id, token)
    if color is None:
        raise RequestError("forbidden", N_("the seat token is not valid for this game"))
    return color


def links(game_id: str, seat: str, invite: str | None) -> dict[str, str | None]:
    return {
        "watch": f"/game/{game_id}",
        "private": f"/game/{game_id}?seat={seat}",
        "invite": None if invite is None else f"/game/{game_id}?invite={invite}",
    }


def set_seat_cookie(response: BaseResponse, game_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(game_id), token, max_age=COOKIE_MAX_AGE, httponly=True, samesite="Lax", path="/"
    )


def _state(game: Game, role: Color | None) -> State:
    connections = CONNECTIONS.get()
    return make_state(game, role, _service().clock(), connections.connected_seats(game.id))


@blueprint.post("/games")
def create_game() -> Response:
    asked = parse_create(json_body())
    asked = replace(asked, name=shown_name(asked.name))
    created = _service().create(asked, request_client(), current_account_id())
    game = created.game
    body = {
        "ok": True,
        "game": game.id,
        "color": color_name(created.color),
        "seat": created.seat,
        "links": links(game.id, created.seat, created.invite),
        "state": _state(game, created.color),
    }
    response = make_response(jsonify(body), 201)
    set_seat_cookie(response, game.id, created.seat)
    return response


@blueprint.post("/games/<game_id>/join")
def join_game(game_id: str) -> Response:
    game_id = _game_id(game_id)
    invite, name = parse_invite(json_body())
    name = shown_name(name)
    claimed = _service().claim_invite(game_id, invite, current_account_id())
    if claimed is None:
        raise RequestError("seat_taken", N_("the invitation was already used"))
    color, token = claimed
    if name is not None:
        _service().name_friend(game_id, color, name)
    with _service().session(game_id) as game:
        state = _state(game, color)
    body = {
        "ok": True,
        "game": game_id,
        "color": color_name(color),
        "seat": token,
        "links": links(game_id, token, None),
        "state": state,
    }
    response = make_response(jsonify(body))
    set_seat_cookie(response, game_id, token)
    return response


@blueprint.get("/games/<game_id>")
def game_state(game_id: str) -> Response:
    game_id = _game_id(game_id)
    role = _bearer_seat(game_id) if request.headers.get("Authorization") else None
    since_text = request.args.get("since")
    # Negative: not a version, so the whole state (as for any version the game never had).
    since = None if since_text is None else parse_query_int("since", since_text, negative=True)
    with _service().session(game_id) as game:
        body: dict[str, Any] = {
            "ok": True,
            "role": "spectator" if role is None else color_name(role),
        }
        body["state"] = _state(game, role)
        if since is not None:
            body["missed"] = _service().changes_since(game, since)
    return jsonify(body)


@blueprint.get("/games/<game_id>/positions/<ply_text>")
def game_position(game_id: str, ply_text: str) -> Response:
    """An earlier position of the game, for stepping back through the moves."""
    game_id = _game_id(game_id)
    # Not Flask's <int:...>: it takes any Unicode digit ("٣" is 3) and fails on huge numbers.
    ply = parse_query_int("ply", ply_text)
    with _service().session(game_id) as game:
        if ply > game.ply:
            raise RequestError(
                "not_found",
                N_("no position at ply {ply}: the game is at ply {ply2}"),
                ply=ply,
                ply2=game.ply,
            )
        board = board_at(game, ply)
        last = game.moves[ply - 1] if ply > 0 else None
        # Anyone may watch, so a position comes with its overlays, as spectators get them
        # (none while a rated game is played: server.games.messages).
        withheld = game.withholds_overlays
        facts = position_facts(board)
    body = {
        "ok": True,
        "ply": ply,
        "fen": board.fen(),
        "check": board.is_check(),
        "checked_king": facts.checked_king,
        "last_move": {"uci": last.uci, "san": last.san} if last else None,
        "threats": None if withheld else facts.threats,
        "insight": None if withheld else facts.insight,
    }
    return jsonify(body)


@blueprint.get("/games/<game_id>/pgn")
def game_pgn(game_id: str) -> Response:
    """The game as PGN; `?annotated=1` comments every move with its threat annotations."""
    game_id = _game_id(game_id)
    annotated = request.args.get("annotated", "0")
    if annotated not in ("0", "1"):
        raise RequestError(
            "bad_request",
            N_("parameter 'annotated' must be 0 or 1, got {annotated}"),
            annotated=repr(annotated[:20]),
        )
    with _service().session(game_id) as game:
        # A copy: annotating a long game takes a while, and the game need not wait for it.
        board, headers, result = game.board.copy(), pgn_headers(game), pgn_result(game)
        assisted = game.settings.assisted
        withheld = game.withholds_overlays
    if annotated == "1" and withheld:
        raise RequestError("game_in_play", N_("a rated game's threat annotations wait for its end"))
    if annotated == "1":
        # The threat map of every position: a long game's takes a tenth of a second and more,
        # so it is worked out in the work pool, a game costing what its PGN would.
        annotate = partial(make_annotated_pgn, annotator="chesscore threat map", assisted=assisted)
        text = offload(board.ply * PGN_BYTES_PER_MOVE, annotate, board, headers, result)
    else:
        text = make_pgn(board, {**headers, "Assisted": "yes" if assisted else "no"}, result)
    return Response(text, mimetype="text/x-chess-pgn")


@blueprint.post("/games/<game_id>/moves")
def make_move(game_id: str) -> Response:
    game_id = _game_id(game_id)
    color = _bearer_seat(game_id)
    ply, move = parse_http_move(json_body())
    done = _service().move(game_id, color, ply, move)
    with _service().session(game_id) as game:
        state = _state(game, color)
    return jsonify(
        {"ok": True, "version": done.event["version"], "ply": done.game.ply, "state": state}
    )


@blueprint.post("/games/<game_id>/actions")
def act(game_id: str) -> Response:
    game_id = _game_id(game_id)
    color = _bearer_seat(game_id)
    action = parse_action(json_body())
    done = _service().act(game_id, color, action.action, action.kind, request_client())
    with _service().session(game_id) as game:
        body: dict[str, Any] = {
            "ok": True,
            "version": done.event["version"],
            "state": _state(game, color),
        }
    if action.kind == "rematch" and done.game.header.rematch is not None:
        body["rematch"] = done.game.header.rematch
        if done.rematch_seats:
            new_color, token = next(iter(done.rematch_seats.items()))
            body["rematch_color"], body["rematch_seat"] = color_name(new_color), token
    return jsonify(body)
