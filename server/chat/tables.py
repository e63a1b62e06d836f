"""The chats' recent lines in the store: the last `KEPT` of each chat (a game's players' or its
spectators'), so a page that opens a chat later (a reload, a spectator arriving, on any server
process) reads them, and a restart keeps them. A signed-in spectator's line keeps the account
it was said from: when the account is deleted the line shows "deleted player"."""

from __future__ import annotations

from server.accounts.usernames import DELETED_NAME
from server.chat.wire import ChatLine
from server.storage.database import Connection, Database
from server.storage.migrations import run

KEPT = 30


def create_table(db: Connection, database: Database) -> None:
    """Migration 12: the chats' recent lines."""
    run(
        db,
        f"""
CREATE TABLE chat_lines (
    id {database.serial_key},
    room TEXT NOT NULL,
    phrase TEXT NOT NULL,
    said_by TEXT NOT NULL,
    name TEXT,
    account_id INTEGER REFERENCES users(id)
);
CREATE INDEX chat_lines_by_room ON chat_lines (room, id);
""",
    )


class ChatTables:
    """The chat lines' rows in `database`, by chat room (server.chat.wire.chat_room)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.sql = database.sql

    def add(self, room: str, line: ChatLine, account_id: int | None) -> None:
        """Keep `line`, said in `room` (from the account `account_id`, if any), and drop the
        room's lines older than the last `KEPT`."""
        with self.database.transaction() as db:
            db.execute(
                self.sql(
                    "INSERT INTO chat_lines (room, phrase, said_by, name, account_id)"
                    " VALUES (?, ?, ?, ?, ?)"
                ),
                (room, line.phrase, line.by, line.name, account_id),
            )
            db.execute(
                self.sql(
                    "DELETE FROM chat_lines WHERE room = ? AND id <= (SELECT id FROM chat_lines"
                    " WHERE room = ? ORDER BY id DESC LIMIT 1 OFFSET ?)"
                ),
                (room, room, KEPT),
            )

    def recent(self, room: str) -> list[ChatLine]:
        """The room's last `KEPT` lines, oldest first."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql(
                    "SELECT phrase, said_by, name FROM chat_lines WHERE room = ?"
                    " ORDER BY id DESC LIMIT ?"
                ),
                (room, KEPT),
            ).fetchall()
        return [ChatLine(phrase, by, name) for phrase, by, name in reversed(rows)]

    def forget_account(self, db: Connection, account_id: int) -> None:
        """A deleted account's lines show "deleted player" (AccountTables' `forget`)."""
        db.execute(
            self.sql("UPDATE chat_lines SET name = ?, account_id = NULL WHERE account_id = ?"),
            (DELETED_NAME, account_id),
        )
