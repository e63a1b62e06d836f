"""Game review over HTTP: ask for a review, read it, download its PGN.

`POST /api/reviews` takes `{"game": <game id>}` (a finished game here) or `{"pgn": <text>}`
(the first game of the file, or the one `"game": <index>` names) and answers `{"ok": true,
"id", "status"}`: 201 for a new review, 200 when that game was reviewed or queued already (the
same id). Bodies may be up to `MAX_BODY_BYTES`, the analysis API's limit for a PGN file.
`GET /api/reviews/game/<game id>` answers the id and status of a game's review, if it has one.
`GET /api/reviews/<id>` is the review's JSON with `"ok": true`, `.../pgn` the reviewed PGN as
an attachment once done; the explanations in both are said in the request's language
(server.review.said). Errors are the API's `{"ok": false, "error", "code"}` with its
statuses; docs/protocol.md, "Game review", has the endpoints, the JSON and the limits. The body
is decoded and a PGN read in the work pool (server.work.offload), each step admitted per
address first, and the review service's own bucket is taken before the PGN is read.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, make_response, request

from chesscore.review.evaluate import ReviewSetting
from server.analysis.http import MAX_BODY_BYTES
from server.edge.clients import request_client
from server.edge.http import answer_errors_as_json, json_bytes
from server.i18n import request_words
from server.review.requests import read_review_body
from server.review.said import say_pgn, say_review
from server.review.service import REVIEWS, ReviewService
from server.review.sources import ReviewSource, pgn_source
from server.work.offload import offload

blueprint = answer_errors_as_json(Blueprint("review_api", __name__, url_prefix="/api/reviews"))


def _reviews() -> ReviewService:
    return REVIEWS.get()


@blueprint.post("")
def create() -> tuple[Response, int]:
    request.max_content_length = MAX_BODY_BYTES
    data = json_bytes()
    asked = offload(len(data), read_review_body, data)
    if asked.pgn is not None:
        text, index = asked.pgn, asked.index

        def read(setting: ReviewSetting) -> ReviewSource:
            # The body's bytes were paid for when it was decoded: this step costs one unit.
            return offload(0, pgn_source, text, index, setting)

        stored, created = _reviews().review_pgn(read, request_client())
    else:
        assert asked.game is not None
        stored, created = _reviews().review_game(asked.game, request_client())
    body = {"ok": True, "id": stored.id, "status": stored.status}
    return jsonify(body), 201 if created else 200


@blueprint.get("/game/<game_id>")
def read_of_game(game_id: str) -> Response:
    """The review of a game here, if it has one (`not_found` if not): a spectator's game page
    offers "View the review" rather than asking for a new one."""
    stored = _reviews().review_of_game(game_id)
    return jsonify({"ok": True, "id": stored.id, "status": stored.status})


@blueprint.get("/<review_id>")
def read(review_id: str) -> Response:
    words = request_words()
    return jsonify({"ok": True, **say_review(_reviews().review(review_id), words)})


@blueprint.get("/<review_id>/pgn")
def read_pgn(review_id: str) -> Response:
    pgn = _reviews().pgn(review_id)
    words = request_words()
    response = make_response(say_pgn(pgn, _reviews().review(review_id), words))
    response.mimetype = "text/plain"
    response.headers["Content-Disposition"] = f'attachment; filename="review-{review_id}.pgn"'
    return response
