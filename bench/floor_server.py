"""A Socket.IO server that plays no chess: the floor under the real server's cost per move.

Usage: `python bench/floor_server.py --port P` (bench/load.py starts it with `--floor`).

It speaks the part of docs/protocol.md that bench/load.py uses (create a friend game over HTTP,
`join` with a seat, an invitation or as a spectator, `move`, and the `state` pushed to the
game's three rooms) on the real server's transport: Flask-SocketIO in gevent mode with the standard
library patched first, the server's packet class, in-order event handlers, its size limits and its
collector settings. The states are real ones: a position 30 plies into a seeded random game, built
once at start by the server's own code (`server.games.messages`), so every message has the size
and shape of a real state. A move checks only that its ply is the game's, then pushes that state
with the counters moved on, the legal moves to the seat whose turn it is. No rules, no store, no
analysis: what this costs per move is what carrying a move costs, which no work on the chess side
can take away.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402  (after the patch, on purpose)
import random  # noqa: E402
import secrets  # noqa: E402
import sys  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flask import Flask  # noqa: E402
from flask_socketio import SocketIO, join_room  # noqa: E402

from chesscore import BLACK, WHITE, Board  # noqa: E402
from server.__main__ import tune_collector  # noqa: E402
from server.app import transport_options  # noqa: E402
from server.edge.wire import JsonProvider, encode  # noqa: E402
from server.games.messages import make_public_state, tailor_state  # noqa: E402
from server.games.play import GameSettings, Header, MoveRecord, restore_game  # noqa: E402

SAMPLE_PLIES = 30
ROLES = ("white", "black", "watch")


def sample_states() -> tuple[dict[str, Any], dict[str, Any]]:
    """The public state of a position SAMPLE_PLIES into a seeded random game, and what the seat
    to move gets on top of it (its legal moves and their safety)."""
    rng = random.Random(1)
    board, moves = Board(), []
    for _ in range(SAMPLE_PLIES):
        move = rng.choice(sorted(board.legal_moves(), key=lambda move: move.uci()))
        moves.append(MoveRecord(move.uci(), board.san(move)))
        board.push(move)
    settings = GameSettings("friend", WHITE, Board().fen())
    game = restore_game("sample", settings, Header(seated=frozenset({WHITE, BLACK})), 0, moves)
    public = make_public_state(game, 0.0)
    mover = tailor_state(public, game, game.board.turn)
    return public, {key: mover[key] for key in ("dests", "promotions", "safety")}


@dataclass
class Table:
    ply: int = 0
    invite: str = ""


def create_app() -> tuple[Flask, SocketIO]:
    app = Flask(__name__)
    app.json = JsonProvider(app)
    socketio = SocketIO(app, async_mode="gevent", **transport_options({}))
    public, for_mover = sample_states()
    tables: dict[str, Table] = {}

    def state(game: str, ply: int, role: str) -> dict[str, Any]:
        turn = ROLES[ply % 2]
        fields = {"game": game, "version": ply, "ply": ply, "turn": turn}
        return {**public, **fields, **(for_mover if role == turn else {})}

    @app.post("/api/games")
    def create() -> dict[str, Any]:
        game = secrets.token_hex(6)
        tables[game] = Table(invite=secrets.token_hex(8))
        link = f"/game/{game}?invite={tables[game].invite}"
        return {"game": game, "seat": secrets.token_hex(8), "links": {"invite": link}}

    @socketio.on("join")
    def join(data: dict[str, Any]) -> dict[str, Any]:
        table = tables[data["game"]]
        role = "white" if "seat" in data else "black" if "invite" in data else "watch"
        join_room(f"{data['game']}/{role}")
        return {"ok": True, "state": state(data["game"], table.ply, role)}

    @socketio.on("move")
    def move(data: dict[str, Any]) -> dict[str, Any]:
        game, table = data["game"], tables[data["game"]]
        if data["ply"] != table.ply:
            return {"ok": False, "code": "stale_ply"}
        table.ply += 1
        for role in ROLES:
            socketio.emit("state", encode(state(game, table.ply, role)), to=f"{game}/{role}")
        return {"ok": True}

    return app, socketio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app, socketio = create_app()
    tune_collector()
    print(f"floor server on http://{args.host}:{args.port}", flush=True)
    socketio.run(app, host=args.host, port=args.port)


if __name__ == "__main__":
    main()
