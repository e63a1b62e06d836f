"""Puzzles over HTTP: the page at /puzzles and the JSON API under /api/puzzles.

`GET /api/puzzles/next?theme=T&rating=R&mine=1&exclude=ids` a puzzle to solve,
`GET /api/puzzles/themes` the themes with their counts, `GET /api/puzzles/<id>` one puzzle,
`POST /api/puzzles/<id>/result {"win"}` a result rated, `GET /api/puzzles/<id>/lesson?step=N`
what a hint or a failure shows at the solver's move N (the threat overlay, the piece to move,
the solution in a sentence), `GET /api/puzzles/dashboard` a signed-in account's rating and
results per theme. Errors are the API's `{"ok": false, "error", "code"}` (server.edge.http);
docs/puzzles.md has the forms.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from server.accounts.identity import current_account_id
from server.edge.clients import request_client
from server.edge.http import answer_errors_as_json, json_body
from server.i18n import request_words
from server.puzzles.requests import parse_next, parse_puzzle_id, parse_result, parse_step
from server.puzzles.service import PUZZLES, PuzzleService
from server.puzzles.wire import dashboard_json, puzzle_json, result_json, themes_json
from server.shared.errors import N_, RequestError

page = Blueprint("puzzles_page", __name__)
blueprint = answer_errors_as_json(Blueprint("puzzles_api", __name__, url_prefix="/api/puzzles"))


def _service() -> PuzzleService:
    return PUZZLES.get()


@page.get("/puzzles")
def puzzles_page() -> str:
    return render_template("puzzles.html")


@blueprint.get("/next")
def next_puzzle() -> Response:
    asked = parse_next(request.args)
    found = _service().next_puzzle(asked, request_client(), current_account_id())
    return jsonify({"ok": True, "puzzle": puzzle_json(found)})


@blueprint.get("/themes")
def themes() -> Response:
    return jsonify(themes_json(*_service().theme_counts(request_client()), request_words()))


@blueprint.get("/dashboard")
def dashboard() -> Response:
    account_id = current_account_id()
    if account_id is None:
        raise RequestError(
            "bad_request", N_("the dashboard on the server is an account's: sign in")
        )
    found = _service().dashboard(request_client(), account_id)
    return jsonify(dashboard_json(*found, request_words()))


@blueprint.get("/<puzzle_id>")
def one_puzzle(puzzle_id: str) -> Response:
    found = _service().puzzle(parse_puzzle_id(puzzle_id), request_client())
    return jsonify({"ok": True, "puzzle": puzzle_json(found)})


@blueprint.get("/<puzzle_id>/lesson")
def lesson(puzzle_id: str) -> Response:
    step = parse_step(request.args)
    found = _service().lesson(parse_puzzle_id(puzzle_id), step, request_client(), request_words())
    return jsonify({"ok": True, "lesson": found})


@blueprint.post("/<puzzle_id>/result")
def result(puzzle_id: str) -> Response:
    asked = parse_result(json_body())
    attempt = _service().record_result(
        parse_puzzle_id(puzzle_id), asked, request_client(), current_account_id()
    )
    return jsonify(result_json(attempt))
