"""The chess server: Flask serves the page, Flask-SocketIO holds the game sessions.

The server is thin: it parses what clients send, calls `chesscore` for every rule, stores the
result and emits it. `create_app(config=None)` builds an app; `socketio` is the shared
Flask-SocketIO instance that the factory binds to it. Both are imported on first use, not with
the package, so that `python -m server` can patch the standard library for gevent before
anything imports sockets, threads or locks (see server/__main__.py).
"""

from typing import Any

__all__ = ["create_app", "socketio"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from server import app

        return getattr(app, name)
    raise AttributeError(f"module 'server' has no attribute {name!r}")
