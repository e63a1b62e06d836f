"""Configuration defaults for the chess server.

Everything here can be overridden by the mapping given to `create_app(config)` or by
environment variables read in `load_environment`. Paths default to the repository layout, so a
checkout with `npm ci` run in it serves the front-end packages straight from `node_modules`.
An installed wheel carries the front end in the package instead (`server/frontend/`, put there
by setup.py) and keeps its games under the environment's prefix, as Flask does for an
installed app (`<prefix>/var/chess-server`), never in site-packages.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

_SERVER = Path(__file__).resolve().parent.parent
ROOT = _SERVER.parent
_PACKAGED = _SERVER / "frontend"
IS_INSTALLED = _PACKAGED.is_dir()
# templates/, static/ and node_modules/ (only the served files, in a wheel).
FRONTEND = _PACKAGED if IS_INSTALLED else ROOT

# gevent: one greenlet per task instead of one thread, so a process holds its connections in
# half the memory and answers sooner under load (docs/performance.md, "Load", has the
# figures); threading (Werkzeug with simple-websocket, no patching of the standard library)
# stays available. The choice is explicit, never inferred from which packages happen to be
# installed.
ASYNC_MODE = "gevent"
ASYNC_MODES = ("threading", "gevent")

DEFAULTS: dict[str, Any] = {
    "ASYNC_MODE": ASYNC_MODE,
    "NODE_MODULES": str(FRONTEND / "node_modules"),
    "HOST": "127.0.0.1",
    "PORT": 5000,
    "INSTANCE_PATH": str(
        Path(sys.prefix, "var", "chess-server") if IS_INSTALLED else ROOT / "instance"
    ),
    # Seconds the computer waits before it answers (tests set it small).
    "COMPUTER_DELAY": 0.5,
    # Comma-separated origins allowed besides the server's own; empty: same origin only.
    "ALLOWED_ORIGINS": "",
    # NORMAL (with WAL): a committed move survives a killed or crashed server process, but the
    # last moves before a power cut or an OS crash may be lost; FULL survives those too, at an
    # fsync per move that stalls the whole gevent process (a quarter of a millisecond each,
    # about 15% fewer moves per second at 500 games: docs/performance.md, "Load").
    "SQLITE_SYNCHRONOUS": "NORMAL",
    # Seconds a connection may send nothing before it is closed (gevent mode; Engine.IO pings
    # every 25 s, so live clients never come near it).
    "IDLE_TIMEOUT": 60.0,
    # Connections one address may hold open at once (gevent mode); more are answered 503 and
    # closed (server.edge.connection_limits).
    "MAX_CONNECTIONS": 64,
    # HTTP bodies above this many bytes are refused (413).
    "MAX_CONTENT_LENGTH": 4096,
    # Seconds without a change after which a game ends as abandoned (no result; one whose
    # clock runs ends on time instead), at start-up and in an hourly sweep; 0: never.
    "ABANDON_AFTER": 24 * 3600.0,
    # PostgreSQL (postgresql://...) shared by several server processes; empty: SQLite.
    "DATABASE_URL": "",
    # Redis (redis://...) carrying Socket.IO broadcasts between processes; empty: one process.
    "REDIS_URL": "",
    # The site's address as players know it (the PGN's Site tag); empty: the address the server
    # listens on. Never taken from a request's Host header, which the client chooses.
    "PUBLIC_URL": "",
    # Comma-separated host names the site answers to besides PUBLIC_URL's and the listening
    # address's (server.edge.wsgi); a request naming another Host is refused.
    "ALLOWED_HOSTS": "",
    # Engine worker processes for the computer's searches (levels 3-8); 0: one per core.
    "ENGINE_WORKERS": 0,
    # Computer games in play at once per client address; more are refused `too_many_games`.
    "MAX_COMPUTER_GAMES": 6,
    # Games an address may create at once, then one every CREATE_INTERVAL seconds.
    "CREATE_BURST": 10,
    "CREATE_INTERVAL": 5.0,
    # The lobby (server.lobby): seeks and pairing requests an address may make at once, then one
    # every LOBBY_INTERVAL seconds; and the seeks and pairing waits it may hold at once.
    "LOBBY_BURST": 20,
    "LOBBY_INTERVAL": 2.0,
    "LOBBY_PER_ADDRESS": 10,
    # Seconds without a change after which a game on the lobby's TV counts as quiet, and the TV
    # moves to a livelier game (server.lobby.watch).
    "TV_QUIET_AFTER": 30.0,
    # Game reviews (server.review): seconds and depth cap per position; 0: the core's default
    # (chesscore.review.evaluate.ReviewSetting), which the benchmark measures.
    "REVIEW_SECONDS": 0.0,
    "REVIEW_DEPTH": 0,
    # The reviews' Stockfish (server.engine.stockfish): None or empty, the npm package's lite
    # single-threaded build under Node; a path, that binary; "none", our own engine (above).
    "STOCKFISH": None,
    # Stockfish's nodes a position of a review; 0: server.review.engines.DEFAULT_NODES.
    "REVIEW_NODES": 0,
    # The work pool (server.work): processes for the requests that compute for long (PGN files,
    # trees, exports), jobs that may wait for one (more are refused `busy`), seconds a job may
    # run before its worker is killed (`too_slow`); and per address a bucket of work units
    # (one per request plus one per 64 KB read) refilled at WORK_UNITS_PER_SECOND.
    "WORK_PROCESSES": 1,
    "WORK_WAITING": 8,
    "WORK_SECONDS": 20.0,
    "WORK_BURST": 40.0,
    "WORK_UNITS_PER_SECOND": 1.0,
    # The review queue's bounds in estimated engine seconds (server.review.queue): all reviews
    # waiting or running, and one address's share of them.
    "REVIEW_QUEUE_SECONDS": 1800.0,
    "REVIEW_ADDRESS_SECONDS": 600.0,
    # Proxies in front of the server that append the client's address to X-Forwarded-For
    # (deploy/'s nginx: 1); 0: the header is the client's own say and is ignored.
    "TRUSTED_PROXIES": 0,
    # Accounts (server.accounts.limits): accounts an address may make at once, then one every
    # SIGNUP_INTERVAL seconds (refused sign-ups do not count), and the whole server's
    # SIGNUP_SERVER_BURST, then one every SIGNUP_SERVER_INTERVAL seconds; failed sign-ins free
    # per address and per account, after which each failure doubles the wait before the next
    # try, from SIGNIN_DELAY up to SIGNIN_MAX_DELAY seconds.
    # Requests that check a password or recovery code (each costs an Argon2id hash, about 60 ms
    # of a core), right or wrong: SIGNIN_BURST per address at once, then one every
    # SIGNIN_INTERVAL seconds.
    "SIGNIN_BURST": 10,
    # Two accounts seen from one address or one browser within this many seconds may not play
    # each other rated (server.accounts.sightings; 0: no such check).
    "RATED_APART_SECONDS": 24 * 3600.0,
    # Rated games one account may play against the same other account in a day; past them,
    # only casual games between the two (docs/ratings.md, "Fair play").
    "RATED_SAME_OPPONENT_PER_DAY": 10,
    "SIGNIN_INTERVAL": 2.0,
    # Seconds after which a Socket.IO connection's session is looked up again in the store: how
    # soon a sign-out in another process of a cluster reaches this one's connections.
    "SESSION_RECHECK": 30.0,
    "SIGNUP_BURST": 5,
    "SIGNUP_INTERVAL": 600.0,
    "SIGNUP_SERVER_BURST": 100,
    "SIGNUP_SERVER_INTERVAL": 1.0,
    "SIGNIN_FREE_ADDRESS": 20,
    "SIGNIN_FREE_ACCOUNT": 5,
    "SIGNIN_DELAY": 1.0,
    "SIGNIN_MAX_DELAY": 300.0,
}

# Environment variable -> (setting, type).
ENVIRONMENT = {
    "CHESS_ASYNC_MODE": ("ASYNC_MODE", str),
    "CHESS_INSTANCE_PATH": ("INSTANCE_PATH", str),
    "CHESS_NODE_MODULES": ("NODE_MODULES", str),
    "CHESS_COMPUTER_DELAY": ("COMPUTER_DELAY", float),
    "CHESS_ALLOWED_ORIGINS": ("ALLOWED_ORIGINS", str),
    "CHESS_SQLITE_SYNCHRONOUS": ("SQLITE_SYNCHRONOUS", str),
    "CHESS_ABANDON_AFTER": ("ABANDON_AFTER", float),
    "CHESS_PUBLIC_URL": ("PUBLIC_URL", str),
    "CHESS_ALLOWED_HOSTS": ("ALLOWED_HOSTS", str),
    "CHESS_IDLE_TIMEOUT": ("IDLE_TIMEOUT", float),
    "CHESS_MAX_CONNECTIONS": ("MAX_CONNECTIONS", int),
    "CHESS_ENGINE_WORKERS": ("ENGINE_WORKERS", int),
    "CHESS_MAX_COMPUTER_GAMES": ("MAX_COMPUTER_GAMES", int),
    "CHESS_CREATE_BURST": ("CREATE_BURST", int),
    "CHESS_CREATE_INTERVAL": ("CREATE_INTERVAL", float),
    "CHESS_TRUSTED_PROXIES": ("TRUSTED_PROXIES", int),
    "CHESS_LOBBY_BURST": ("LOBBY_BURST", int),
    "CHESS_LOBBY_INTERVAL": ("LOBBY_INTERVAL", float),
    "CHESS_LOBBY_PER_ADDRESS": ("LOBBY_PER_ADDRESS", int),
    "CHESS_TV_QUIET_AFTER": ("TV_QUIET_AFTER", float),
    "CHESS_REVIEW_SECONDS": ("REVIEW_SECONDS", float),
    "CHESS_REVIEW_DEPTH": ("REVIEW_DEPTH", int),
    "CHESS_STOCKFISH": ("STOCKFISH", str),
    "CHESS_REVIEW_NODES": ("REVIEW_NODES", int),
    "CHESS_WORK_PROCESSES": ("WORK_PROCESSES", int),
    "CHESS_WORK_WAITING": ("WORK_WAITING", int),
    "CHESS_WORK_SECONDS": ("WORK_SECONDS", float),
    "CHESS_WORK_BURST": ("WORK_BURST", float),
    "CHESS_WORK_UNITS_PER_SECOND": ("WORK_UNITS_PER_SECOND", float),
    "CHESS_REVIEW_QUEUE_SECONDS": ("REVIEW_QUEUE_SECONDS", float),
    "CHESS_REVIEW_ADDRESS_SECONDS": ("REVIEW_ADDRESS_SECONDS", float),
    "CHESS_SIGNIN_BURST": ("SIGNIN_BURST", int),
    "CHESS_RATED_APART_SECONDS": ("RATED_APART_SECONDS", float),
    "CHESS_RATED_SAME_OPPONENT_PER_DAY": ("RATED_SAME_OPPONENT_PER_DAY", int),
    "CHESS_SIGNIN_INTERVAL": ("SIGNIN_INTERVAL", float),
    "CHESS_SESSION_RECHECK": ("SESSION_RECHECK", float),
    "CHESS_SIGNUP_BURST": ("SIGNUP_BURST", int),
    "CHESS_SIGNUP_INTERVAL": ("SIGNUP_INTERVAL", float),
    "CHESS_SIGNUP_SERVER_BURST": ("SIGNUP_SERVER_BURST", int),
    "CHESS_SIGNUP_SERVER_INTERVAL": ("SIGNUP_SERVER_INTERVAL", float),
    "CHESS_SIGNIN_FREE_ADDRESS": ("SIGNIN_FREE_ADDRESS", int),
    "CHESS_SIGNIN_FREE_ACCOUNT": ("SIGNIN_FREE_ACCOUNT", int),
    "CHESS_SIGNIN_DELAY": ("SIGNIN_DELAY", float),
    "CHESS_SIGNIN_MAX_DELAY": ("SIGNIN_MAX_DELAY", float),
    # The conventional names that hosting platforms set.
    "DATABASE_URL": ("DATABASE_URL", str),
    "REDIS_URL": ("REDIS_URL", str),
}


def load_environment() -> dict[str, Any]:
    """Return the settings that the environment overrides (`CHESS_*` variables)."""
    settings: dict[str, Any] = {}
    for variable, (name, kind) in ENVIRONMENT.items():
        if variable in os.environ:
            try:
                settings[name] = kind(os.environ[variable])
            except ValueError as error:
                raise ValueError(f"{variable}={os.environ[variable]!r}: {error}") from error
    return settings


def configured_async_mode() -> str:
    """The async mode the environment asks for (CHESS_ASYNC_MODE), else the default; the app
    factory checks it (server.app)."""
    return str({**DEFAULTS, **load_environment()}["ASYNC_MODE"])
