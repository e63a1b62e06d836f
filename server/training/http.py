"""The trainer over HTTP: the page at /train and its JSON API under /api/train.

`GET /api/train/next?kind=K&level=L` hands out a drill (server.training.wire: never its
answer), `POST /api/train/answer {"id", "answer"}` judges it once. Errors are the API's
`{"ok": false, "error", "code"}` with its statuses (server.games.http); docs/protocol.md,
"Threat trainer", has the forms of the answers and the limits. Ratings and progress stay in the
page (localStorage) while there are no accounts; an account would store them beside itself,
through endpoints of its own, and these two would not change.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from server.edge.clients import request_client
from server.edge.http import answer_errors_as_json, json_body
from server.games.play import Game
from server.games.service import GameService
from server.i18n import request_words
from server.shared.errors import RequestError
from server.training.requests import parse_answer, parse_next
from server.training.service import TRAINING, TrainingService
from server.training.wire import blunder_drops, drill_json, verdict_json

page = Blueprint("training_page", __name__)
blueprint = answer_errors_as_json(Blueprint("training_api", __name__, url_prefix="/api/train"))


def finished_game(games: GameService, game_id: str) -> tuple[str, list[str]] | None:
    """A game's start and moves if it exists and is over (never a game in play)."""
    try:
        with games.session(game_id) as game:
            played: Game = game
            if played.is_playing:
                return None
            return played.settings.start_fen, [record.uci for record in played.moves]
    except RequestError as error:
        if error.code != "not_found":
            raise
        return None


def _service() -> TrainingService:
    return TRAINING.get()


@page.get("/train")
def train_page() -> str:
    return render_template("train.html")


@blueprint.get("/next")
def next_drill() -> Response:
    asked = parse_next(request.args)
    given = _service().next_drill(asked.kind, asked.level, request_client(), request_words())
    return jsonify(
        {"ok": True, "drill": drill_json(given.id, given.drill, given.facts, given.source)}
    )


@blueprint.post("/answer")
def answer() -> Response:
    judged = _service().answer(parse_answer(json_body()), request_client())
    body: dict[str, Any] = verdict_json(judged.drill, judged.verdict, judged.facts)
    if judged.drill.kind == "blunder":
        body["drops"] = blunder_drops(judged.drill)
    return jsonify(body)
