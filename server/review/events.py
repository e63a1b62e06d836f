"""Socket.IO events of the game review, and the review service's place in the app.

`review_watch {id}` joins the review's room of the connection's language and answers the
review's JSON, its explanations said in that language (server.review.said); from then on the
room gets `review_update` pushes, said in its language, as the review runs
(server.review.runner writes each to the store first and then emits it, and the watch joins
first and then reads the store, so no update falls between the answer and the pushes; in a
cluster the emit crosses Redis like a game's). `review_unwatch {id}` leaves it. `review_try
{id, ply, uci}` answers a puzzle of "learn from your mistakes" (server.review.puzzle): a move
the review knows at once, any other after a search in the engine pool. `install` builds the
`ReviewService` over the app's game service, registers the HTTP blueprint
(server.review.http) and starts the queue.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from flask import request
from flask_socketio import join_room, leave_room

from chesscore.review.evaluate import ReviewSetting
from server.edge.clients import request_client
from server.engine.stockfish import choose_stockfish
from server.i18n import LANGUAGES, current_language, language_words
from server.review.engines import DEFAULT_NODES, ReviewEngine
from server.review.requests import parse_review_id, parse_try
from server.review.said import review_room, say_review
from server.review.service import REVIEWS, ReviewService


def _reviews() -> ReviewService:
    return REVIEWS.get()


def _sid() -> str:
    return cast(str, request.sid)  # type: ignore[attr-defined]


def review_watch(payload: Any) -> dict[str, Any]:
    review_id = parse_review_id(payload)
    service = _reviews()
    service.load(review_id)  # not_found before joining anything
    language = current_language()
    join_room(review_room(review_id, language))
    return {"ok": True, "review": say_review(service.review(review_id), language_words(language))}


def review_unwatch(payload: Any) -> dict[str, Any]:
    review_id = parse_review_id(payload)
    for language in LANGUAGES:  # the connection's language may have changed since it watched
        leave_room(review_room(review_id, language))
    return {"ok": True}


def review_try(payload: Any) -> dict[str, Any]:
    asked = parse_try(payload)
    return _reviews().try_move(asked.id, asked.ply, asked.move, _sid(), request_client())


HANDLERS: dict[str, Callable[[Any], dict[str, Any]]] = {
    "review_watch": review_watch,
    "review_unwatch": review_unwatch,
    "review_try": review_try,
}


def review_setting(config: dict[str, Any]) -> ReviewSetting:
    """The setting of the reviews (REVIEW_SECONDS, REVIEW_DEPTH; 0: the core's default)."""
    default = ReviewSetting()
    seconds = float(config.get("REVIEW_SECONDS") or default.seconds)
    depth = int(config.get("REVIEW_DEPTH") or default.depth)
    return ReviewSetting(seconds, depth)


def review_engine(config: dict[str, Any]) -> ReviewEngine:
    """Who evaluates the reviews (STOCKFISH, REVIEW_NODES; 0 nodes: the default); why a
    Stockfish asked for cannot run goes to the log (server.engine.stockfish)."""
    node_modules = Path(config["NODE_MODULES"]) if config.get("NODE_MODULES") else None
    stockfish = choose_stockfish(config.get("STOCKFISH"), node_modules)
    nodes = int(config.get("REVIEW_NODES") or DEFAULT_NODES)
    return ReviewEngine(review_setting(config), stockfish, nodes)
