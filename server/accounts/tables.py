"""The accounts' tables: users, their sessions, recovery codes and passkeys, and seat links.

`users` holds one row per account: the name as typed, its `name_key` (the look-alike skeleton
of server.accounts.usernames, unique, so two names that read alike cannot both exist), the
Argon2id hash of the password, and two flags: `deleted` (the row stays so the name is never
taken again and its games keep their link; the hash is emptied) and `claimed` (the browser's
earlier seats were claimed, which happens once). `sessions` holds the SHA-256 of each session
id with its user and when it was last seen; `recovery_codes` one row per unused code, its
public `code_id` and the Argon2id hash of its secret part; `passkeys` each passkey's
credential id, public key and signature counter. A seat's `account_id` (the games' `seats`
table) is the account that took it. The tables are made by migrations 3 and 4 (the steps
below); a new password or a deletion also ends the account's `known_devices`
(server.accounts.devices, migration 8). Each call of `AccountTables` is one transaction.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from server.accounts.identity import Account
from server.accounts.usernames import name_key
from server.storage.database import Connection, Database
from server.storage.migrations import run

USER_COLUMNS = "id, name, password_hash, deleted, claimed"
# A session's last-seen time is written at most this often (seconds): not a write per request.
SEEN_EVERY = 3600.0
# Sessions one user keeps at most (browsers and devices signed in at once).
MAX_SESSIONS = 20


def create_tables(db: Connection, database: Database) -> None:
    """Migration 3: users, their sessions and recovery codes, and the account a seat was
    taken by (NULL: a visitor without one)."""
    run(
        db,
        f"""
CREATE TABLE users (
    id {database.serial_key},
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    claimed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created DOUBLE PRECISION NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE recovery_codes (
    user_id INTEGER NOT NULL REFERENCES users(id),
    code_id TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    PRIMARY KEY (user_id, code_id)
);
ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES users(id);
CREATE INDEX seats_account ON seats(account_id) WHERE account_id IS NOT NULL;
""",
    )


def create_passkeys(db: Connection, database: Database) -> None:
    """Migration 4: passkeys (server.accounts.passkeys), a second way to sign in: each
    credential's id and public key (base64url), its signature counter, and its user."""
    run(
        db,
        """
CREATE TABLE passkeys (
    credential_id TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    public_key TEXT NOT NULL,
    sign_count BIGINT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX passkeys_user ON passkeys(user_id);
""",
    )


def rekey_names(db: Connection, database: Database) -> None:
    """Migration 7: every account's `name_key` written again by the key that also folds `-` and
    digits read as letters (server.accounts.usernames). A key some account holds already stays
    its holder's, and of two accounts whose new keys meet the older takes it: the other keeps
    its old key, under which it still signs in (`legacy_name_key`); nobody new can take
    either."""
    rows = db.execute("SELECT id, name, name_key FROM users ORDER BY id").fetchall()
    taken = {str(row[2]) for row in rows}
    for user_id, name, old_key in rows:
        new_key = name_key(str(name))
        if new_key == old_key or new_key in taken:
            continue
        db.execute(database.sql("UPDATE users SET name_key = ? WHERE id = ?"), (new_key, user_id))
        taken.add(new_key)


@dataclass(frozen=True)
class StoredUser:
    """An account's row."""

    id: int
    name: str
    password_hash: str
    deleted: bool
    claimed: bool


class NameTakenError(Exception):
    """An account of that name, or of one that reads like it, exists."""


def _user(row: Any) -> StoredUser:
    user_id, name, password_hash, deleted, claimed = row
    return StoredUser(int(user_id), name, password_hash, bool(deleted), bool(claimed))


# What else of an account goes when it is deleted, in the deletion's transaction (its
# ratings: server.ratings.tables.RatingTables.forget_account).
Forget = Callable[[Connection, int], None]


class AccountTables:
    """The accounts' rows in `database`; `forget`: see `Forget`."""

    def __init__(self, database: Database, forget: Sequence[Forget] = ()) -> None:
        self.database = database
        self.sql = database.sql
        self.forget = tuple(forget)

    def create_user(self, user: tuple[str, str, str], codes: list[tuple[str, str]]) -> int:
        """Store a user (name, name key, password hash) with its recovery codes (code id,
        hash); its id, or NameTakenError when a user of that key exists (deleted ones
        included)."""
        name, key, password_hash = user
        try:
            with self.database.transaction() as db:
                if db.execute(
                    self.sql("SELECT 1 FROM users WHERE name_key = ?"), (key,)
                ).fetchone():
                    raise NameTakenError(name)
                row = db.execute(
                    self.sql(
                        "INSERT INTO users (name, name_key, password_hash, created)"
                        " VALUES (?, ?, ?, ?) RETURNING id"
                    ),
                    (name, key, password_hash, time.time()),
                ).fetchone()
                user_id = int(row[0])
                for code_id, code_hash in codes:
                    db.execute(
                        self.sql(
                            "INSERT INTO recovery_codes (user_id, code_id, code_hash)"
                            " VALUES (?, ?, ?)"
                        ),
                        (user_id, code_id, code_hash),
                    )
                return user_id
        except self.database.unique_violation as error:  # another process took the name
            raise NameTakenError(name) from error

    def user_by_key(self, key: str) -> StoredUser | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql(f"SELECT {USER_COLUMNS} FROM users WHERE name_key = ?"), (key,)
            ).fetchone()
        return None if row is None else _user(row)

    def user_by_id(self, user_id: int) -> StoredUser | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql(f"SELECT {USER_COLUMNS} FROM users WHERE id = ?"), (user_id,)
            ).fetchone()
        return None if row is None else _user(row)

    def account_by_name(self, name: str) -> Account | None:
        """The live account of that name (any case or look-alike spelling), None if none or
        deleted."""
        user = self.user_by_key(name_key(name))
        return None if user is None or user.deleted else Account(user.id, user.name)

    def add_session(self, id_hash: str, user_id: int) -> None:
        """Store a new session; the user's oldest beyond MAX_SESSIONS end (a script that
        signs in without its cookie again and again leaves no pile behind)."""
        now = time.time()
        with self.database.transaction() as db:
            db.execute(
                self.sql(
                    "INSERT INTO sessions (id_hash, user_id, created, seen) VALUES (?, ?, ?, ?)"
                ),
                (id_hash, user_id, now, now),
            )
            db.execute(
                self.sql(
                    "DELETE FROM sessions WHERE user_id = ? AND id_hash NOT IN (SELECT id_hash"
                    " FROM sessions WHERE user_id = ? ORDER BY created DESC LIMIT ?)"
                ),
                (user_id, user_id, MAX_SESSIONS),
            )

    def session_user(self, id_hash: str, seen_after: float) -> StoredUser | None:
        """The live user of the session (seen after `seen_after`, wall-clock seconds; its user
        not deleted); its last-seen time moved to now when older than SEEN_EVERY."""
        columns = ", ".join("users." + column for column in USER_COLUMNS.split(", "))
        now = time.time()
        with self.database.transaction() as db:
            row = db.execute(
                self.sql(
                    f"SELECT sessions.seen, {columns}"
                    " FROM sessions JOIN users ON users.id = sessions.user_id"
                    " WHERE sessions.id_hash = ? AND sessions.seen > ? AND users.deleted = 0"
                ),
                (id_hash, seen_after),
            ).fetchone()
            if row is None:
                return None
            if now - float(row[0]) > SEEN_EVERY:
                db.execute(
                    self.sql("UPDATE sessions SET seen = ? WHERE id_hash = ?"), (now, id_hash)
                )
        return _user(row[1:])

    def end_session(self, id_hash: str) -> None:
        with self.database.connection() as db:
            db.execute(self.sql("DELETE FROM sessions WHERE id_hash = ?"), (id_hash,))

    def set_password(self, user_id: int, password_hash: str) -> None:
        """A new password hash; every session of the user ends."""
        with self.database.transaction() as db:
            self._set_password(db, user_id, password_hash)

    def _set_password(self, db: Connection, user_id: int, password_hash: str) -> None:
        """Every session and passkey of the user ends with the old password (a passkey added
        by whoever held a session must not outlive a recovery)."""
        db.execute(
            self.sql("UPDATE users SET password_hash = ? WHERE id = ?"), (password_hash, user_id)
        )
        db.execute(self.sql("DELETE FROM sessions WHERE user_id = ?"), (user_id,))
        db.execute(self.sql("DELETE FROM passkeys WHERE user_id = ?"), (user_id,))
        # And every browser known to it (server.accounts.devices): a copied cookie ends too.
        db.execute(self.sql("DELETE FROM known_devices WHERE user_id = ?"), (user_id,))

    def recovery_code_hash(self, user_id: int, code_id: str) -> str | None:
        with self.database.connection() as db:
            row = db.execute(
                self.sql("SELECT code_hash FROM recovery_codes WHERE user_id = ? AND code_id = ?"),
                (user_id, code_id),
            ).fetchone()
        return None if row is None else str(row[0])

    def use_recovery_code(self, user_id: int, code_id: str, password_hash: str) -> bool:
        """Spend the code and set the password (sessions end); False if spent already."""
        with self.database.transaction() as db:
            gone = db.execute(
                self.sql("DELETE FROM recovery_codes WHERE user_id = ? AND code_id = ?"),
                (user_id, code_id),
            )
            if gone.rowcount != 1:
                return False
            self._set_password(db, user_id, password_hash)
            return True

    def delete_user(self, user_id: int) -> None:
        """Mark the user deleted: no password, no session, no recovery code, no passkey, and
        what `forget` takes. The row stays, so the name is never taken again and its games
        keep naming "deleted player"."""
        with self.database.transaction() as db:
            for forget in self.forget:
                forget(db, user_id)
            db.execute(
                self.sql("UPDATE users SET deleted = 1, password_hash = '' WHERE id = ?"),
                (user_id,),
            )
            for table in ("sessions", "recovery_codes", "passkeys", "known_devices"):
                db.execute(self.sql(f"DELETE FROM {table} WHERE user_id = ?"), (user_id,))

    def claim_seats(self, user_id: int, seats: list[tuple[str, str]]) -> list[str] | None:
        """Link the seats (game id, token hash) nobody claimed to the user, once per user: the
        games claimed, or None when the user claimed before."""
        with self.database.transaction() as db:
            taken = db.execute(
                self.sql("UPDATE users SET claimed = 1 WHERE id = ? AND claimed = 0"), (user_id,)
            )
            if taken.rowcount != 1:
                return None
            claimed = []
            for game_id, token_hash in seats:
                linked = db.execute(
                    self.sql(
                        "UPDATE seats SET account_id = ?"
                        " WHERE game_id = ? AND token_hash = ? AND account_id IS NULL"
                    ),
                    (user_id, game_id, token_hash),
                )
                if linked.rowcount == 1:
                    claimed.append(game_id)
            if not claimed:  # spent only when a seat was linked; the row stayed locked till here
                db.execute(self.sql("UPDATE users SET claimed = 0 WHERE id = ?"), (user_id,))
            return claimed

    def link_seat(self, game_id: str, color: int, user_id: int) -> None:
        """The seat was taken by the signed-in user."""
        with self.database.connection() as db:
            db.execute(
                self.sql("UPDATE seats SET account_id = ? WHERE game_id = ? AND color = ?"),
                (user_id, game_id, color),
            )

    def account_seats(self, user_id: int) -> list[tuple[str, int]]:
        """The seats the user took: (game id, colour)."""
        with self.database.connection() as db:
            rows = db.execute(
                self.sql("SELECT game_id, color FROM seats WHERE account_id = ?"), (user_id,)
            ).fetchall()
        return [(str(game_id), int(color)) for game_id, color in rows]

    def add_passkey(self, user_id: int, passkey: tuple[str, str, int]) -> bool:
        """Store a passkey (credential id, public key, signature count; base64url) of the
        user; False when that credential id is stored already (anyone's)."""
        credential_id, public_key, sign_count = passkey
        with self.database.connection() as db:
            added = db.execute(
                self.sql(
                    "INSERT INTO passkeys (credential_id, user_id, public_key, sign_count,"
                    " created) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
                ),
                (credential_id, user_id, public_key, sign_count, time.time()),
            )
            return bool(added.rowcount == 1)

    def passkey(self, credential_id: str) -> tuple[int, str, int] | None:
        """(user id, public key, signature count) of a live user's passkey."""
        with self.database.connection() as db:
            row = db.execute(
                self.sql(
                    "SELECT passkeys.user_id, passkeys.public_key, passkeys.sign_count"
                    " FROM passkeys JOIN users ON users.id = passkeys.user_id"
                    " WHERE passkeys.credential_id = ? AND users.deleted = 0"
                ),
                (credential_id,),
            ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), int(row[2]))

    def passkey_ids(self, user_id: int) -> list[str]:
        with self.database.connection() as db:
            rows = db.execute(
                self.sql("SELECT credential_id FROM passkeys WHERE user_id = ? ORDER BY created"),
                (user_id,),
            ).fetchall()
        return [str(credential_id) for (credential_id,) in rows]

    def delete_passkey(self, user_id: int, credential_id: str) -> bool:
        """Remove the user's passkey; False when the user has none of that id."""
        with self.database.connection() as db:
            gone = db.execute(
                self.sql("DELETE FROM passkeys WHERE user_id = ? AND credential_id = ?"),
                (user_id, credential_id),
            )
            return bool(gone.rowcount == 1)

    def count_passkey(self, credential_id: str, sign_count: int) -> None:
        """The passkey's signature counter after a sign-in."""
        with self.database.connection() as db:
            db.execute(
                self.sql("UPDATE passkeys SET sign_count = ? WHERE credential_id = ?"),
                (sign_count, credential_id),
            )
