"""The chess server: Flask serves the page, Flask-SocketIO holds the game sessions.

The server is thin: it parses what clients send, calls `chesscore` for every rule, stores the
result and emits it. `create_app(config=None)` builds an app; `socketio` is the shared
Flask-SocketIO instance that the factory binds to it.
"""

import os

# In gevent mode the standard library must be patched before anything imports sockets, threads
# or locks (Flask-SocketIO's deployment notes); `python -m server` imports this package first.
if os.environ.get("CHESS_ASYNC_MODE") == "gevent":
    from gevent import monkey

    monkey.patch_all()

from server.app import create_app, socketio

__all__ = ["create_app", "socketio"]
