"""HTTP views: the pages, and the front-end packages served from the npm install.

The browser code imports chessground and socket.io-client as ES modules from `/vendor/...`;
those files come from `node_modules` (installed by `npm ci` from the pinned lock file), never
from copies in this repository.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
)
from flask.typing import ResponseReturnValue
from werkzeug.security import safe_join

from server.accounts.identity import current_account_id, shown_name
from server.analysis.http import game_for_analysis
from server.analysis.service import is_analysis_id
from server.edge.headers import cross_origin_isolate, engine_file_headers
from server.games.http import set_seat_cookie
from server.games.seats import is_game_id, is_token
from server.shared.errors import RequestError

blueprint = Blueprint("views", __name__)

# URL prefix -> folder inside node_modules. Only these folders are reachable.
VENDOR_FOLDERS = {
    "chessground": "@lichess-org/chessground/dist",
    "chessground-assets": "@lichess-org/chessground/assets",
    "socket.io": "socket.io-client/dist",
    # The review's evaluation graph: Chart.js's ES module build and the colour package it
    # imports by its bare name.
    "chart.js": "chart.js/dist",
    "kurkle-color": "@kurkle/color/dist",
    # The analysis board's engine (static/js/analysis/stockfish.js): Stockfish 19 lite compiled
    # to WebAssembly, one thread or threaded; its lines turned into SAN by chessops, whose
    # results come from @badrap/result.
    "stockfish": "stockfish/bin",
    "chessops": "chessops/dist/esm",
    "badrap-result": "@badrap/result/dist/mjs",
}

# Packages of which only these files are served: the rest of stockfish/bin is two 99 MB nets
# and an asm.js build no page loads.
VENDOR_FILES = {
    "stockfish": frozenset(
        {
            "stockfish-19-lite-single.js",
            "stockfish-19-lite-single.wasm",
            "stockfish-19-lite.js",
            "stockfish-19-lite.wasm",
        }
    ),
}

# Packages whose ES modules import others by a bare name (rewritten as they are served).
REWRITTEN_PACKAGES = frozenset({"chart.js", "chessops"})

# Bare specifiers imported by vendor ES modules -> the address they are served at. A browser
# resolves only addresses; an import map would be an inline script, which the CSP refuses
# (server/edge/headers.py), so these imports are rewritten as the files are served.
VENDOR_IMPORTS = {
    "@kurkle/color": "/vendor/kurkle-color/color.esm.js",
    "@badrap/result": "/vendor/badrap-result/index.mjs",
}
BARE_IMPORT = re.compile(
    r"""((?:\bfrom|\bimport)\s*)(['"])(""" + "|".join(map(re.escape, VENDOR_IMPORTS)) + r")\2"
)


@blueprint.get("/")
def index() -> str:
    return render_template("index.html")


@blueprint.get("/help/overlays")
def overlays_help() -> str:
    """How to read the threat overlays (linked from the legend beside their controls)."""
    return render_template("help_overlays.html")


@blueprint.get("/game/<game_id>")
def game_page(game_id: str) -> ResponseReturnValue:
    """The game page; `?seat=` (private link) and `?invite=` set the seat cookie and redirect
    to the plain address, so the token leaves the address bar and the browser history."""
    service = current_app.extensions["chess"]
    if not is_game_id(game_id) or not service.exists(game_id):
        abort(404)
    seat, invite = request.args.get("seat"), request.args.get("invite")
    if seat is None and invite is None:
        return render_template(["game.html", "index.html"], game_id=game_id)
    response = redirect(f"/game/{game_id}", 302)
    if seat is not None:
        if not is_token(seat) or service.seat_of(game_id, seat) is None:
            abort(403)
        set_seat_cookie(response, game_id, seat)
    elif invite is not None:
        if not is_token(invite):
            abort(403)
        try:
            claimed = service.claim_invite(game_id, invite, current_account_id())
        except RequestError:
            abort(403)
        if claimed is not None:
            set_seat_cookie(response, game_id, claimed[1])
            name = shown_name(None)
            if name is not None:  # a signed-in friend is shown by the account's name
                service.name_friend(game_id, claimed[0], name)
    return response


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
    if (
        not is_analysis_id(key)
        or current_app.extensions["chess_analysis"].tables.load_analysis(key) is None
    ):
        abort(404)
    return _analysis_page(analysis_id=key, game_id=None, fen=None)


def _analysis_page(**context: str | None) -> Response:
    """The analysis board's page, cross-origin isolated so that its engine may use threads."""
    page = render_template(["analysis.html", "index.html"], **context)
    response = Response(page, mimetype="text/html")
    cross_origin_isolate(response)
    return response


@blueprint.get("/review/<review_id>")
def review_page(review_id: str) -> ResponseReturnValue:
    """A game's review (templates/review.html; the page reads the review by its id)."""
    try:
        current_app.extensions["chess_reviews"].load(review_id)
    except RequestError as error:
        abort(error.http_status)
    return render_template(["review.html", "index.html"], review_id=review_id)


def _warm_engine() -> None:
    """Someone opening the analysis board will soon ask for the engine's lines: the engine's
    workers start now, while the page loads, not on that first request."""
    current_app.extensions["chess"].computer.pool.warm()


@blueprint.get("/vendor/<package>/<path:filename>")
def vendor(package: str, filename: str) -> Response:
    folder = VENDOR_FOLDERS.get(package)
    if folder is None:
        abort(404)
    allowed = VENDOR_FILES.get(package)
    if allowed is not None and filename not in allowed:
        abort(404)
    root = Path(current_app.config["NODE_MODULES"]) / folder
    if package in REWRITTEN_PACKAGES and filename.endswith(".js"):
        return _rewritten_module(root, filename)
    response = send_from_directory(root, filename)
    if package == "stockfish":
        engine_file_headers(response)
    return response


def _rewritten_module(root: Path, filename: str) -> Response:
    """The ES module `filename` under `root` with its bare imports made addresses."""
    joined = safe_join(str(root), filename)
    if joined is None or not Path(joined).is_file():
        abort(404)
    path = Path(joined)
    text = _read_rewritten(str(path), path.stat().st_mtime_ns)
    response = Response(text, mimetype="text/javascript")
    response.cache_control.no_cache = True  # as send_from_directory's: revalidate each load
    response.set_etag(hashlib.sha1(text.encode()).hexdigest())
    response.make_conditional(request)  # a 304 for a browser that has this version
    return response


@lru_cache(maxsize=64)
def _read_rewritten(path: str, mtime_ns: int) -> str:
    """`path`'s text with VENDOR_IMPORTS applied, once per version of the file (`mtime_ns`)."""
    text = Path(path).read_text(encoding="utf-8")
    return BARE_IMPORT.sub(lambda m: f"{m[1]}{m[2]}{VENDOR_IMPORTS[m[3]]}{m[2]}", text)
