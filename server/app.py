"""The application factory: one Flask app with Flask-SocketIO attached.

`socketio` is created once at import and bound to an app by `create_app`, the pattern of
Flask's tutorial and Flask-SocketIO-Chat, so HTTP views and Socket.IO handlers live in their
own modules and tests can build as many apps as they need.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from server.config import DEFAULTS, ROOT, load_environment

socketio = SocketIO()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; `config` overrides the defaults and the environment."""
    settings = {**DEFAULTS, **load_environment(), **(config or {})}
    app = Flask(
        __name__,
        static_folder=str(ROOT / "static"),
        static_url_path="/static",
        template_folder=str(ROOT / "templates"),
        instance_path=str(settings["INSTANCE_PATH"]),
    )
    app.config.update(settings)

    from server import events, views

    app.register_blueprint(views.blueprint)
    socketio.init_app(app, async_mode=app.config["ASYNC_MODE"])
    events.register(socketio)
    return app
