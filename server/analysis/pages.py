"""The analysis board's page: empty, a position (`?fen=`), a shared tree or a game here.

The page is cross-origin isolated so that its Stockfish may use threads, and its opening warms
the engine pool, whose lines the page will soon ask for.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from flask.typing import ResponseReturnValue

from server.analysis.engine_events import ENGINES
from server.analysis.http import game_for_analysis
from server.analysis.service import ANALYSIS, is_analysis_id
from server.edge.headers import cross_origin_isolate
from server.games.seats import is_game_id
from server.shared.errors import RequestError

blueprint = Blueprint("analysis_pages", __name__)


@blueprint.get("/analysis")
def analysis_page() -> ResponseReturnValue:
    """The analysis board: empty, or the position of `?fen=` (the page asks the server to
    check it, and shows the error)."""
    fen = request.args.get("fen")
    _warm_engine()
    return _analysis_page(analysis_id=None, game_id=None, fen=fen)


@blueprint.get("/analysis/<key>")
def analysis_of(key: str) -> ResponseReturnValue:
    """A shared tree (8 characters) or a game here (12) on the analysis board; a player's own
    game only once it is over."""
    _warm_engine()
    if is_game_id(key):
        try:
            game_for_analysis(key)
        except RequestError as error:
            abort(error.http_status)
        return _analysis_page(analysis_id=None, game_id=key, fen=None)
    if not is_analysis_id(key) or ANALYSIS.get().tables.load_analysis(key) is None:
        abort(404)
    return _analysis_page(analysis_id=key, game_id=None, fen=None)


def _analysis_page(**context: str | None) -> Response:
    """The analysis board's page, cross-origin isolated so that its engine may use threads."""
    page = render_template(["analysis.html", "index.html"], **context)
    response = Response(page, mimetype="text/html")
    cross_origin_isolate(response)
    return response


def _warm_engine() -> None:
    """Someone opening the analysis board will soon ask for the engine's lines: the engine's
    workers start now, while the page loads, not on that first request."""
    ENGINES.get().warm()
