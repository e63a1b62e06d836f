"""HTTP views: the page, and the front-end packages served from the npm install.

The browser code imports chessground and socket.io-client as ES modules from `/vendor/...`;
those files come from `node_modules` (installed by `npm ci` from the pinned lock file), never
from copies in this repository.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, current_app, render_template, send_from_directory

blueprint = Blueprint("views", __name__)

# URL prefix -> folder inside node_modules. Only these folders are reachable.
VENDOR_FOLDERS = {
    "chessground": "@lichess-org/chessground/dist",
    "chessground-assets": "@lichess-org/chessground/assets",
    "socket.io": "socket.io-client/dist",
}


@blueprint.get("/")
def index() -> str:
    return render_template("index.html")


@blueprint.get("/vendor/<package>/<path:filename>")
def vendor(package: str, filename: str) -> Response:
    folder = VENDOR_FOLDERS.get(package)
    if folder is None:
        abort(404)
    root = Path(current_app.config["NODE_MODULES"]) / folder
    return send_from_directory(root, filename)
