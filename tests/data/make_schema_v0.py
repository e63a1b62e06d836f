"""Write `schema_v0.sqlite.sql` and `schema_v0.postgres.sql`: the schema and a few rows as the
store of main before versioned migrations (commit d1fecaa) made them, frozen for
tests/test_storage_migrations.py.

Run once, from a checkout of that commit: `python tests/data/make_schema_v0.py`. It opens that
version's SqliteStore in a temporary folder, plays a friend game with two seats and three
moves through its GameService, stores a review and a seek, and dumps the file as SQL
(`sqlite3.Connection.iterdump`). The PostgreSQL file is that version's PostgreSQL DDL (its
SCHEMA, MIGRATION and seek tables, copied from server/storage/postgres.py at that commit) and
the same rows, the `active` flag written as a boolean. Kept for the record: on a newer
checkout it would dump the newer schema.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

from server.app import create_app
from server.games.play import NewGame
from server.services import SERVICES
from server.storage import seeks
from server.storage.interface import StoredReview, StoredSeek
from server.storage.postgres import MIGRATION
from server.storage.postgres import SCHEMA as POSTGRES_SCHEMA

HERE = Path(__file__).resolve().parent
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def fill(folder: Path) -> Path:
    app = create_app({"ASYNC_MODE": "threading", "INSTANCE_PATH": str(folder)})
    service = SERVICES.of(app).games
    created = service.create(NewGame("friend", 0, START, name="Alice"), "127.0.0.1")
    game_id = created.game.id
    invite = created.invite
    color, _ = service.claim_invite(game_id, invite)
    service.name_friend(game_id, color, "Bob")
    for ply, move in enumerate(["e4", "e5", "Nf3"]):
        service.move(game_id, ply % 2, ply, move)
    store = service.store
    store.add_review(
        StoredReview(
            "rev12345",
            game_id,
            "done",
            3,
            3,
            '{"moves": []}',
            "[]",
            None,
            "127.0.0.1",
            None,
            1.0,
            2.0,
        ),
        None,
        100,
    )
    store.add_seek(
        StoredSeek("seek1234", "seek", "sid-1", "127.0.0.1", "5+3", {"name": "Carol"}, 3.0, "h"),
        10,
    )
    store.beat("h", 3.0, 0.0)
    store.close()
    return folder / "games.sqlite3"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(fill(Path(folder)))
        lines = list(db.iterdump())
        db.close()
    (HERE / "schema_v0.sqlite.sql").write_text("\n".join(lines) + "\n")
    rows = [line for line in lines if line.startswith("INSERT INTO")]
    # SQLite's dump quotes table names; `active` is 1 or 0 there, a boolean in PostgreSQL.
    rows = [row.replace('INSERT INTO "games"', "INSERT INTO games") for row in rows]
    rows = [_boolean_active(row) for row in rows]
    # The games first: the other tables refer to them.
    rows.sort(key=lambda row: not row.startswith("INSERT INTO games"))
    rows = [
        row.replace('INSERT INTO "', "INSERT INTO ").replace('" VALUES', " VALUES") for row in rows
    ]
    ddl = POSTGRES_SCHEMA + MIGRATION + seeks.SEEK_TABLES
    (HERE / "schema_v0.postgres.sql").write_text(ddl + "\n".join(rows) + "\n")


def _boolean_active(row: str) -> str:
    if not row.startswith("INSERT INTO games"):
        return row
    # games columns: id, settings, header, version, invite_hash, active, created, updated
    head, _, values = row.partition("VALUES(")
    parts = values.rstrip(");").rsplit(",", 3)
    active = "TRUE" if parts[1] == "1" else "FALSE"
    return f"{head}VALUES({parts[0]},{active},{parts[2]},{parts[3]});"


if __name__ == "__main__":
    main()
