"""The application factory, the top of the house: one Flask app with Flask-SocketIO attached.

`socketio` is created once at import and bound to an app by `create_app`, the pattern of
Flask's tutorial and Flask-SocketIO-Chat, so tests can build as many apps as they need. The
factory reads the settings, builds every service (server.services: the composition root),
registers each feature's routes and pages and every Socket.IO event (server.sockets), and puts
the network's edge around it all (server.edge: hosts, the cross-site check, the guards).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Request, Response
from flask.sessions import SessionInterface, SessionMixin
from flask_socketio import SocketIO

from chesscore.openings import opening_table
from server import sockets
from server.accounts import http as accounts_http
from server.accounts import pages as account_pages
from server.accounts import passwords
from server.accounts.languages import AccountLanguages
from server.analysis import http as analysis_http
from server.analysis import pages as analysis_pages
from server.chat import events as chat_events
from server.edge import credits, vendor
from server.edge.broadcast import make_client_manager
from server.edge.dispatch import bare_language
from server.edge.guard import install as install_transport_guard
from server.edge.headers import add_security_headers, public_url
from server.edge.http import answer_unrouted_as_json
from server.edge.origins import trusted_origins
from server.edge.security import load_secret_key, socketio_options
from server.edge.wire import JsonProvider, Packet
from server.edge.wsgi import Edge, allowed_hosts
from server.games import http as games_http
from server.games import pages as game_pages
from server.i18n import AccountLanguage
from server.i18n import install as install_languages
from server.lobby import events as lobby_events
from server.lobby import pages as lobby_pages
from server.players import claim as players_claim
from server.players import http as players_http
from server.players import ratings_http
from server.preferences import http as preferences_http
from server.puzzles import http as puzzles_http
from server.review import http as review_http
from server.review import pages as review_pages
from server.services import build_services, put_in_slots
from server.shared.config import ASYNC_MODES, DEFAULTS, FRONTEND, load_environment
from server.training import http as training_http

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
    public_url(app.config)  # a malformed CHESS_PUBLIC_URL stops the start, naming it
    _register_routes(app)
    app.after_request(add_security_headers)
    app.json = JsonProvider(app)
    app.session_interface = NoSessions()
    socketio.init_app(
        app,
        async_mode=app.config["ASYNC_MODE"],
        client_manager=make_client_manager(app.config["REDIS_URL"]),
        **transport_options(app.config),
    )
    sockets.register(socketio)
    install_transport_guard(app, socketio.server)  # bad input answered, never hung
    # Outermost, so every request meets it: the Host allow-list, headers on /socket.io/ too.
    # And the one cross-site check of every state-changing request (server.edge.origins).
    app.wsgi_app = Edge(  # type: ignore[method-assign]
        app.wsgi_app, allowed_hosts(app.config), trusted_origins(app.config)
    )
    passwords.prepare()  # the dummy hash now, not on the first unknown name's sign-in
    services = build_services(app, socketio)
    put_in_slots(app, services)
    account_languages = AccountLanguages(services.tables.database)
    install_languages(
        app, AccountLanguage(account_languages.read, account_languages.keep), bare_language
    )
    # The opening names take about a second to read (chesscore.openings): at start, not on the
    # first state that carries one.
    socketio.start_background_task(opening_table)
    return app


def _register_routes(app: Flask) -> None:
    """Every feature's pages and API."""
    app.register_blueprint(lobby_pages.blueprint)
    app.register_blueprint(game_pages.blueprint)
    app.register_blueprint(analysis_pages.blueprint)
    app.register_blueprint(review_pages.blueprint)
    app.register_blueprint(vendor.blueprint)
    app.register_blueprint(games_http.blueprint)
    app.register_blueprint(analysis_http.blueprint)
    app.register_blueprint(review_http.blueprint)
    app.register_blueprint(lobby_events.blueprint)
    app.register_blueprint(credits.blueprint)
    app.register_blueprint(accounts_http.blueprint)
    account_pages.install(app)
    preferences_http.install(app)
    chat_events.install(app)
    app.register_blueprint(ratings_http.blueprint)
    app.register_blueprint(players_http.blueprint)
    app.register_blueprint(players_http.api_blueprint)
    app.register_blueprint(players_claim.blueprint)
    app.register_blueprint(training_http.page)
    app.register_blueprint(training_http.blueprint)
    app.register_blueprint(puzzles_http.page)
    app.register_blueprint(puzzles_http.blueprint)
    answer_unrouted_as_json(app)


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
