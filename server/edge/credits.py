"""The credits page: the third-party packages the pages send to browsers, with their licences.

Stockfish, compiled to WebAssembly, is sent to every visitor of the analysis board: that is
distribution of object code under the GPL-3.0, so its licence text is served here
(`/credits/stockfish-licence`, the package's own `Copying.txt`) and the page links its exact
corresponding source: the upstream tag the npm package was built from. The list is data, kept
in step with `package.json` by tests/test_credits.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, send_file

blueprint = Blueprint("credits", __name__)


@dataclass(frozen=True)
class Credit:
    """A front-end package: its npm name and version, licence, what it does here, its source."""

    package: str
    version: str
    licence: str
    role: str
    source: str


STOCKFISH_JS_TAG = "https://github.com/nmrugg/stockfish.js/tree/v19.0.0"
STOCKFISH_TAG = "https://github.com/official-stockfish/Stockfish/tree/sf_19"
STOCKFISH_TARBALL = "https://registry.npmjs.org/stockfish/-/stockfish-19.0.0.tgz"

CREDITS = (
    Credit(
        "stockfish",
        "19.0.0",
        "GPL-3.0",
        "the analysis board's engine: Stockfish 19 lite compiled to WebAssembly (stockfish.js)",
        STOCKFISH_JS_TAG,
    ),
    Credit(
        "@lichess-org/chessground",
        "10.4.1",
        "GPL-3.0-or-later",
        "the board, its pieces and their drawing (lichess)",
        "https://github.com/lichess-org/chessground/tree/v10.4.1",
    ),
    Credit(
        "chessops",
        "0.15.1",
        "GPL-3.0-or-later",
        "the SAN of Stockfish's lines on the analysis board (lichess)",
        "https://github.com/niklasf/chessops/tree/v0.15.1",
    ),
    Credit(
        "@badrap/result",
        "0.3.1",
        "MIT",
        "results, used by chessops",
        "https://github.com/badrap/result",
    ),
    Credit(
        "socket.io-client",
        "4.8.1",
        "MIT",
        "the live connection to the server",
        "https://github.com/socketio/socket.io/tree/main/packages/socket.io-client",
    ),
    Credit(
        "chart.js",
        "4.6.1",
        "MIT",
        "the review's evaluation graph",
        "https://github.com/chartjs/Chart.js/tree/v4.6.1",
    ),
    Credit(
        "@kurkle/color",
        "0.3.4",
        "MIT",
        "colours, used by Chart.js",
        "https://github.com/kurkle/color",
    ),
)


@blueprint.get("/credits")
def credits_page() -> str:
    return render_template(
        "credits.html",
        credits=CREDITS,
        stockfish_js_tag=STOCKFISH_JS_TAG,
        stockfish_tag=STOCKFISH_TAG,
        stockfish_tarball=STOCKFISH_TARBALL,
    )


@blueprint.get("/credits/stockfish-licence")
def stockfish_licence() -> Response:
    """The GNU GPL-3.0 as the stockfish package ships it, as plain text."""
    path = Path(current_app.config["NODE_MODULES"]) / "stockfish" / "Copying.txt"
    if not path.is_file():
        abort(404)
    return send_file(path, mimetype="text/plain")
