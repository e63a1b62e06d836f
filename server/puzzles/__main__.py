"""`python -m server.puzzles import FILE`: import lichess's puzzle CSV into the configured
database (server.shared.config: CHESS_INSTANCE_PATH, CHESS_DATABASE_URL); prints what it did
(server.puzzles.importer). The schema is the server's to bring up to date (the root's list of
migrations, which a feature does not import): a database the server has not started on yet
is refused with that said."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from server.puzzles.importer import import_file
from server.puzzles.tables import PuzzleTables
from server.shared.config import DEFAULTS, load_environment
from server.storage.migrations import schema_version
from server.storage.open import open_database

# The migration that made the puzzles' tables (server.tables).
PUZZLES_VERSION = 9


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m server.puzzles")
    commands = parser.add_subparsers(dest="command", required=True)
    importing = commands.add_parser("import", help="import lichess's puzzle CSV")
    importing.add_argument("file", type=Path, help="lichess_db_puzzle.csv (unpacked)")
    args = parser.parse_args(argv)
    settings = {**DEFAULTS, **load_environment()}
    database = open_database(str(settings["INSTANCE_PATH"]), settings)
    with database.connection() as db:
        has_version = "version" in database.columns(db, "schema_version")
        version = schema_version(db) if has_version else 0
    if version < PUZZLES_VERSION:
        database.close()
        print("the database has no puzzles table yet: start the server once", file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        counts = import_file(args.file, PuzzleTables(database))
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    finally:
        database.close()
    print(counts.report())
    print(f"seconds: {time.perf_counter() - started:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
