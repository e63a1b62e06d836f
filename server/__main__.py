"""Start the server: `python -m server --host H --port P`, or the `chess-server` script."""

from __future__ import annotations

import argparse

from server.app import create_app, socketio
from server.config import DEFAULTS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="chess-server", description=__doc__)
    parser.add_argument("--host", default=DEFAULTS["HOST"], help="address to listen on")
    parser.add_argument("--port", type=int, default=DEFAULTS["PORT"], help="port to listen on")
    args = parser.parse_args(argv)
    app = create_app()
    print(f"Chess server running on http://{args.host}:{args.port}", flush=True)
    # Werkzeug's server with simple-websocket carries real WebSockets in threading mode.
    socketio.run(app, host=args.host, port=args.port, allow_unsafe_werkzeug=True)


if __name__ == "__main__":
    main()
