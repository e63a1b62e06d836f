"""Start the server: `python -m server --host H --port P`, or the `chess-server` script.

In gevent mode (the default, server/shared/config.py says why) the standard library is patched here,
first thing, before anything imports sockets, threads or locks (Flask-SocketIO's deployment
notes); only `server.shared.config`, which needs none of them, is read before.
"""

from __future__ import annotations

import argparse
import gc

from server.shared.config import DEFAULTS, configured_async_mode

if configured_async_mode() == "gevent":
    from gevent import monkey

    monkey.patch_all()

from server.app import create_app  # after the patch, on purpose
from server.engine.stockfish import describe
from server.services import SERVICES

# With the collector's default thresholds a server under load ran a full collection every few
# seconds, scanning every connection's objects and stalling the whole process about 100 ms each
# time (bench/load.py, 250 games: 11 of them in a 30 s run). What exists once the app is made
# (modules, the app) is frozen out of the scans, and young objects are collected less often:
# one full collection in the same run, 12 ms pauses for the young ones.
COLLECTOR_THRESHOLDS = (10_000, 20, 100)


def tune_collector() -> None:
    """Freeze what exists now (call it once the app is made) and set COLLECTOR_THRESHOLDS."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="chess-server", description=__doc__)
    parser.add_argument("--host", default=DEFAULTS["HOST"], help="address to listen on")
    parser.add_argument("--port", type=int, default=DEFAULTS["PORT"], help="port to listen on")
    args = parser.parse_args(argv)
    app = create_app({"HOST": args.host, "PORT": args.port})
    tune_collector()
    reviews = SERVICES.of(app).reviews
    print(f"Game reviews: {describe(reviews.engine.stockfish)}", flush=True)
    # gevent's WSGI server with gevent-websocket, or Werkzeug's with simple-websocket in
    # threading mode; both carry real WebSockets, and both are bounded alike (connections per
    # address, a request's time, a frame's size: server.edge.http_server and
    # threaded_server, sharing server.edge.connection_limits).
    idle, per_address = float(app.config["IDLE_TIMEOUT"]), int(app.config["MAX_CONNECTIONS"])
    if int(app.config["TRUSTED_PROXIES"]):
        # Behind a proxy every connection comes from the proxy: limiting them per address
        # here would limit the whole site; the proxy's own limits apply (nginx: limit_conn).
        per_address = 0
    if app.config["ASYNC_MODE"] == "gevent":
        from server.edge.http_server import make_server

        server = make_server(app, args.host, args.port, idle, per_address)
        server.start()
    else:
        from server.edge.threaded_server import make_threaded_server

        server = make_threaded_server(app, args.host, args.port, idle, per_address)
    # Bound and listening before the line is printed: whoever waits for it (a user, the
    # tests' LiveServer) may connect at once; a taken port fails before the line.
    announce(args.host, args.port)
    server.serve_forever()


def announce(host: str, port: int) -> None:
    """The one line saying where the server answers (tests/support/live_server.py waits for
    it)."""
    print(f"Chess server running on http://{host}:{port}", flush=True)


if __name__ == "__main__":
    main()
