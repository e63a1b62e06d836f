"""Configuration defaults for the chess server.

Everything here can be overridden by the mapping given to `create_app(config)` or by
environment variables read in `load_environment`. Paths default to the repository layout, so a
checkout with `npm ci` run in it serves the front-end packages straight from `node_modules`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Threading mode with simple-websocket gives real WebSockets without monkey-patching; the
# choice is explicit so it never depends on which optional packages happen to be installed.
ASYNC_MODE = "threading"

DEFAULTS: dict[str, Any] = {
    "ASYNC_MODE": ASYNC_MODE,
    "NODE_MODULES": str(ROOT / "node_modules"),
    "HOST": "127.0.0.1",
    "PORT": 5000,
    "INSTANCE_PATH": str(ROOT / "instance"),
}


def load_environment() -> dict[str, Any]:
    """Return the settings that the environment overrides (`CHESS_*` variables)."""
    settings: dict[str, Any] = {}
    if "CHESS_ASYNC_MODE" in os.environ:
        settings["ASYNC_MODE"] = os.environ["CHESS_ASYNC_MODE"]
    if "CHESS_INSTANCE_PATH" in os.environ:
        settings["INSTANCE_PATH"] = os.environ["CHESS_INSTANCE_PATH"]
    if "CHESS_NODE_MODULES" in os.environ:
        settings["NODE_MODULES"] = os.environ["CHESS_NODE_MODULES"]
    return settings
