"""The accounts' tables and their queries, written once for both SQL back ends.

`users` holds one row per account: the name as typed, its `name_key` (the look-alike skeleton
of server.accounts.usernames, unique, so two names that read alike cannot both exist), the
Argon2id hash of the password, and two flags: `deleted` (the row stays so the name is never
taken again and its games keep their link; the hash is emptied) and `claimed` (the browser's
earlier seats were claimed, which happens once). `sessions` holds the SHA-256 of each session
id with its user and when it was last seen; `recovery_codes` one row per unused code, its
public `code_id` and the Argon2id hash of its secret part. A seat's `account_id` (seats table)
is the account that took it. The tables are made by migration 3 (server.storage.migrations).

The functions take an open connection inside the back end's transaction, as server.storage.seeks
does, and SQL written with `?` turned into the driver's placeholder by `sql`.
"""

from __future__ import annotations

from typing import Any

from server.storage.interface import NameTakenError, StoredUser
from server.storage.seeks import Database, sql

USER_COLUMNS = "id, name, password_hash, deleted, claimed"
# A session's last-seen time is written at most this often (seconds): not a write per request.
SEEN_EVERY = 3600.0


def _user(row: Any) -> StoredUser:
    user_id, name, password_hash, deleted, claimed = row
    return StoredUser(int(user_id), name, password_hash, bool(deleted), bool(claimed))


def create_user(
    db: Database, mark: str, user: tuple[str, str, str], now: float, codes: list[tuple[str, str]]
) -> int:
    """Store the user (name, name key, password hash) and its recovery codes (code id, hash);
    its id. NameTakenError when a user of that key exists (deleted ones included)."""
    name, name_key, password_hash = user
    if db.execute(sql("SELECT 1 FROM users WHERE name_key = ?", mark), (name_key,)).fetchone():
        raise NameTakenError(name)
    row = db.execute(
        sql(
            "INSERT INTO users (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)"
            " RETURNING id",
            mark,
        ),
        (name, name_key, password_hash, now),
    ).fetchone()
    user_id = int(row[0])
    for code_id, code_hash in codes:
        db.execute(
            sql("INSERT INTO recovery_codes (user_id, code_id, code_hash) VALUES (?, ?, ?)", mark),
            (user_id, code_id, code_hash),
        )
    return user_id


def user_by_key(db: Database, mark: str, name_key: str) -> StoredUser | None:
    query = f"SELECT {USER_COLUMNS} FROM users WHERE name_key = ?"
    row = db.execute(sql(query, mark), (name_key,)).fetchone()
    return None if row is None else _user(row)


def user_by_id(db: Database, mark: str, user_id: int) -> StoredUser | None:
    row = db.execute(sql(f"SELECT {USER_COLUMNS} FROM users WHERE id = ?", mark), (user_id,))
    found = row.fetchone()
    return None if found is None else _user(found)


def add_session(db: Database, mark: str, id_hash: str, user_id: int, now: float) -> None:
    db.execute(
        sql("INSERT INTO sessions (id_hash, user_id, created, seen) VALUES (?, ?, ?, ?)", mark),
        (id_hash, user_id, now, now),
    )


def session_user(
    db: Database, mark: str, id_hash: str, now: float, seen_after: float
) -> StoredUser | None:
    """The live user of the session (seen after `seen_after`, its user not deleted); its
    last-seen time moved to `now` when it is older than SEEN_EVERY."""
    row = db.execute(
        sql(
            f"SELECT sessions.seen, {', '.join('users.' + c for c in USER_COLUMNS.split(', '))}"
            " FROM sessions JOIN users ON users.id = sessions.user_id"
            " WHERE sessions.id_hash = ? AND sessions.seen > ? AND users.deleted = 0",
            mark,
        ),
        (id_hash, seen_after),
    ).fetchone()
    if row is None:
        return None
    if now - float(row[0]) > SEEN_EVERY:
        db.execute(sql("UPDATE sessions SET seen = ? WHERE id_hash = ?", mark), (now, id_hash))
    return _user(row[1:])


def end_session(db: Database, mark: str, id_hash: str) -> None:
    db.execute(sql("DELETE FROM sessions WHERE id_hash = ?", mark), (id_hash,))


def set_password(db: Database, mark: str, user_id: int, password_hash: str) -> None:
    """The new password hash; every session of the user ends with the old password."""
    db.execute(
        sql("UPDATE users SET password_hash = ? WHERE id = ?", mark), (password_hash, user_id)
    )
    db.execute(sql("DELETE FROM sessions WHERE user_id = ?", mark), (user_id,))


def recovery_code_hash(db: Database, mark: str, user_id: int, code_id: str) -> str | None:
    row = db.execute(
        sql("SELECT code_hash FROM recovery_codes WHERE user_id = ? AND code_id = ?", mark),
        (user_id, code_id),
    ).fetchone()
    return None if row is None else str(row[0])


def use_recovery_code(
    db: Database, mark: str, user_id: int, code_id: str, password_hash: str
) -> bool:
    """Spend the code and set the password (ending every session); False when the code was
    spent meanwhile."""
    gone = db.execute(
        sql("DELETE FROM recovery_codes WHERE user_id = ? AND code_id = ?", mark),
        (user_id, code_id),
    )
    if gone.rowcount != 1:
        return False
    set_password(db, mark, user_id, password_hash)
    return True


def delete_user(db: Database, mark: str, user_id: int) -> None:
    """Mark the user deleted: no password, no session, no recovery code. The row stays, so the
    name is never taken again and its games keep naming "deleted player"."""
    db.execute(
        sql("UPDATE users SET deleted = 1, password_hash = '' WHERE id = ?", mark), (user_id,)
    )
    db.execute(sql("DELETE FROM sessions WHERE user_id = ?", mark), (user_id,))
    db.execute(sql("DELETE FROM recovery_codes WHERE user_id = ?", mark), (user_id,))


def claim_seats(
    db: Database, mark: str, user_id: int, seats: list[tuple[str, str]]
) -> list[str] | None:
    """Link the seats (game id, token hash) nobody claimed to the user, once per user: the
    games claimed, or None when the user claimed before."""
    taken = db.execute(
        sql("UPDATE users SET claimed = 1 WHERE id = ? AND claimed = 0", mark), (user_id,)
    )
    if taken.rowcount != 1:
        return None
    claimed = []
    for game_id, token_hash in seats:
        linked = db.execute(
            sql(
                "UPDATE seats SET account_id = ?"
                " WHERE game_id = ? AND token_hash = ? AND account_id IS NULL",
                mark,
            ),
            (user_id, game_id, token_hash),
        )
        if linked.rowcount == 1:
            claimed.append(game_id)
    return claimed


def link_seat(db: Database, mark: str, game_id: str, color: int, user_id: int) -> None:
    """The seat was taken by the signed-in user."""
    db.execute(
        sql("UPDATE seats SET account_id = ? WHERE game_id = ? AND color = ?", mark),
        (user_id, game_id, color),
    )


def seat_accounts(db: Database, mark: str, game_id: str) -> dict[int, int]:
    """The game's seats taken by accounts: colour -> account id."""
    rows = db.execute(
        sql(
            "SELECT color, account_id FROM seats WHERE game_id = ? AND account_id IS NOT NULL", mark
        ),
        (game_id,),
    ).fetchall()
    return {int(color): int(account) for color, account in rows}
