"""The application factory: one Flask app with Flask-SocketIO attached, and its game service.

`socketio` is created once at import and bound to an app by `create_app`, the pattern of
Flask's tutorial and Flask-SocketIO-Chat, so HTTP views, the JSON API and Socket.IO handlers
live in their own modules and tests can build as many apps as they need. The factory opens the
database with every domain's tables (server.tables, kept in `app.extensions["chess_tables"]`),
builds the `GameService` that every transport shares (kept in `app.extensions["chess"]`) and
resumes the games that were in play when the server stopped.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SessionInterface, SessionMixin
from flask_socketio import SocketIO

from chesscore.openings import opening_table
from server.accounts import passwords
from server.accounts.service import Accounts
from server.analysis.service import AnalysisService
from server.edge.broadcast import make_client_manager
from server.edge.connections import Connections
from server.edge.guard import install as install_transport_guard
from server.edge.headers import add_security_headers, public_url
from server.edge.origins import trusted_origins
from server.edge.security import load_secret_key, socketio_options
from server.edge.wire import JsonProvider, Packet
from server.edge.wsgi import Edge, allowed_hosts
from server.games.rooms import RoomNotifier
from server.games.service import GameService
from server.shared.config import ASYNC_MODES, DEFAULTS, FRONTEND, load_environment
from server.tables import Tables, open_tables

socketio = SocketIO()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app; `config` overrides the defaults and the environment."""
    settings = {**DEFAULTS, **load_environment(), **(config or {})}
    app = Flask(
        __name__,
        static_folder=str(FRONTEND / "static"),
        static_url_path="/static",
        template_folder=str(FRONTEND / "templates"),
        instance_path=str(settings["INSTANCE_PATH"]),
    )
    app.config.update(settings)
    _check_async_mode(app.config["ASYNC_MODE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_secret_key(app.instance_path)

    from server.accounts import http as accounts_api
    from server.accounts import pages as account_pages
    from server.analysis import http as analysis_api
    from server.edge import credits
    from server.games import events
    from server.games import http as api
    from server.games import pages as views
    from server.lobby import events as lobby_events
    from server.players import http as profiles
    from server.players import ratings_http as ratings_api
    from server.review import events as review_events
    from server.training import http as training_http
    from server.work import offload

    app.register_blueprint(views.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(analysis_api.blueprint)
    app.register_blueprint(credits.blueprint)
    app.register_blueprint(accounts_api.blueprint)
    account_pages.install(app)
    app.register_blueprint(ratings_api.blueprint)
    app.after_request(add_security_headers)
    public_url(app.config)  # a malformed CHESS_PUBLIC_URL stops the start, naming it
    app.json = JsonProvider(app)
    app.session_interface = NoSessions()
    socketio.init_app(
        app,
        async_mode=app.config["ASYNC_MODE"],
        client_manager=make_client_manager(app.config["REDIS_URL"]),
        **transport_options(app.config),
    )
    events.register(socketio)
    install_transport_guard(app, socketio.server)  # bad input answered, never hung
    # Outermost, so every request meets it: the Host allow-list, headers on /socket.io/ too.
    # And the one cross-site check of every state-changing request (server.edge.origins).
    app.wsgi_app = Edge(  # type: ignore[method-assign]
        app.wsgi_app, allowed_hosts(app.config), trusted_origins(app.config)
    )
    connections = Connections()
    app.extensions["chess_connections"] = connections
    app.extensions["chess_tables"] = tables = open_tables(app.instance_path, app.config)
    app.extensions["chess"] = _make_service(app, connections, tables)
    app.extensions["chess"].resume()
    passwords.prepare()  # the dummy hash now, not on the first unknown name's sign-in
    app.extensions["chess_accounts"] = Accounts(
        tables.accounts, app.config, app.extensions["chess"].rename_seats
    )
    app.extensions["chess_accounts"].close_socket = lambda sid: socketio.server.disconnect(sid)
    app.extensions["chess_analysis"] = AnalysisService(tables.analyses)
    offload.install(app)  # the work pool of the analysis and review API (server.work)
    lobby_events.install(app, socketio)  # the lobby (server.lobby) over the game service
    review_events.install(app, socketio)  # game reviews (server.review), after the analysis
    training_http.install(app)  # the threat trainer at /train (server.training)
    profiles.install(app)  # players' pages, game lists and PGN exports (server.players.http)
    # The opening names take about a second to read (chesscore.openings): at start, not on the
    # first state that carries one.
    socketio.start_background_task(opening_table)
    return app


def transport_options(config: dict[str, Any]) -> dict[str, Any]:
    """Flask-SocketIO's options that shape how messages are carried (bench/floor_server.py
    measures this transport with no chess behind it, so it takes them from here too)."""
    return {
        "manage_session": False,
        "serializer": Packet,
        # A client's events run one after another on the greenlet (or thread) reading its
        # connection, in the order sent, instead of each in a task of its own: no handler
        # waits for a later event of the same client, and spawning a task for every move was
        # CPU and memory churn under load.
        "async_handlers": False,
        **socketio_options(config),
    }


class NoSessions(SessionInterface):
    """The server keeps no Flask session: seats are cookies of their own (server.games.seats). Not
    opening one spares every request and Socket.IO event a cookie signature check; writing to
    `flask.session` fails loudly (Flask's null session)."""

    def open_session(self, app: Flask, request: Request) -> None:
        return None

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        return None


def _check_async_mode(mode: str) -> None:
    """gevent mode only works in a process whose standard library was patched first."""
    if mode not in ASYNC_MODES:
        raise ValueError(f"async mode {mode!r}: expected one of {ASYNC_MODES}")
    if mode == "gevent":
        from gevent import monkey

        if not monkey.is_module_patched("socket"):
            raise RuntimeError(
                "gevent mode needs the standard library patched before anything else is "
                "imported: start the server with `python -m server`, or create the app with "
                "config={'ASYNC_MODE': 'threading'}"
            )


def _make_service(app: Flask, connections: Connections, tables: Tables) -> GameService:
    return GameService(
        tables.games,
        tables.ratings,
        notifier=RoomNotifier(socketio, connections.connected_seats),
        spawn=socketio.start_background_task,
        sleep=socketio.sleep,
        computer_delay=float(app.config["COMPUTER_DELAY"]),
        attended=connections.has_player,
        limits=app.config,
    )
