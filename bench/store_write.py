"""What a move's write to the SQLite store costs in CPU (docs/performance.md, issue 34).

Usage: `python bench/store_write.py [--games 250] [--plies 40] [--synchronous normal]`

A fresh store in a temporary folder, built by the server's migrations (`server.tables`),
holds `--games` friend games; then every game plays a move in turn, `--plies` rounds, each
written as the server writes it: `GameTables.commit` with the header, the move and the event
of a real move (a transaction of its own, WAL mode). Printed: the process's CPU time per
write (`time.process_time`, which a write's waits on the disk do not count) and the wall time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore import Board, Move
from server.games.play import GameSettings, new_game
from server.games.play import make_move as play_move
from server.games.stored import StoredChange, header_to_data, stored_from_game
from server.storage.sqlite import SqliteDatabase
from server.tables import build_tables
from tests.random_games import play_random_game

NOW = 1_000_000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--synchronous", default="normal", choices=("normal", "full"))
    args = parser.parse_args()
    line = [move.uci() for move in play_random_game(1, max_plies=args.plies).move_stack]
    with tempfile.TemporaryDirectory() as folder:
        database = SqliteDatabase(Path(folder) / "games.sqlite3", synchronous=args.synchronous)
        tables = build_tables(database).games
        games = [
            new_game(f"g{index}", GameSettings("friend", 0, Board().fen()))
            for index in range(args.games)
        ]
        for game in games:
            tables.create_game(stored_from_game(game, None), {0: "white", 1: "black"})
        cpu, wall, writes = 0.0, 0.0, 0
        for ply, uci in enumerate(line):
            for game in games:
                change = play_move(game, ply % 2, ply, Move.from_uci(uci), NOW)
                stored = StoredChange(
                    version=game.version + 1,
                    header=header_to_data(change.header),
                    event={**change.event, "version": game.version + 1},
                    active=change.header.status == "playing",
                    added=[(ply, record) for record in change.added],
                )
                started_cpu, started = time.process_time(), time.perf_counter()
                tables.commit(game.id, stored)
                cpu += time.process_time() - started_cpu
                wall += time.perf_counter() - started
                writes += 1
                game.apply(change)
        database.close()
    print(f"{writes} writes of {args.games} games, synchronous={args.synchronous}:")
    print(f"CPU {cpu / writes * 1e6:.1f} us per write, wall {wall / writes * 1e6:.1f} us")


if __name__ == "__main__":
    main()
