"""`python -m server.puzzles import FILE`: import lichess's puzzle CSV into the configured
database (server.shared.config: CHESS_INSTANCE_PATH, CHESS_DATABASE_URL); prints what it did
(server.puzzles.importer). Like `python -m server`, a command-line entry point is a
composition root of its own: it brings the database up to date by the root's migrations
(server.tables) first, so a new database needs no server started on it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from server.puzzles.importer import import_file
from server.shared.config import DEFAULTS, load_environment
from server.tables import open_tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.puzzles")
    commands = parser.add_subparsers(dest="command", required=True)
    importing = commands.add_parser("import", help="import lichess's puzzle CSV")
    importing.add_argument("file", type=Path, help="lichess_db_puzzle.csv (unpacked)")
    args = parser.parse_args(argv)
    settings = {**DEFAULTS, **load_environment()}
    tables = open_tables(str(settings["INSTANCE_PATH"]), settings)
    started = time.perf_counter()
    try:
        counts = import_file(args.file, tables.puzzles)
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    finally:
        tables.close()
    print(counts.report())
    print(f"seconds: {time.perf_counter() - started:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
