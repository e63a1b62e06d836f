"""The front-end packages, served from the npm install under `/vendor/...`.

The browser code imports chessground, socket.io-client, Chart.js, chessops and Stockfish as ES
modules from `/vendor/...`; those files come from `node_modules` (installed by `npm ci` from the
pinned lock file), never from copies in this repository, and only the folders and files named
here are reachable.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request, send_from_directory
from werkzeug.security import safe_join

from server.edge.headers import engine_file_headers

blueprint = Blueprint("vendor", __name__)

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
