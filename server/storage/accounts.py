"""The accounts' tables and their queries, written once for both SQL back ends.

`users` holds one row per account: the name as typed, its `name_key` (the look-alike skeleton
of server.accounts.usernames, unique, so two names that read alike cannot both exist), the
Argon2id hash of the password, and two flags: `deleted` (the row stays so the name is never
taken again and its games keep their link; the hash is emptied) and `claimed` (the browser's
earlier seats were claimed, which happens once). `sessions` holds the SHA-256 of each session
id with its user and when it was last seen; `recovery_codes` one row per unused code, its
public `code_id` and the Argon2id hash of its secret part; `passkeys` each passkey's
credential id, public key and signature counter. A seat's `account_id` (seats table)
is the account that took it. The tables are made by migrations 3 and 4
(server.storage.migrations).

The functions take an open connection inside the back end's transaction, as server.storage.seeks
does, and SQL written with `?` turned into the driver's placeholder by `sql`.
"""

from __future__ import annotations

import json
from typing import Any

from server.storage.interface import NameTakenError, StoredUser
from server.storage.seeks import Database, sql

USER_COLUMNS = "id, name, password_hash, deleted, claimed"
# A session's last-seen time is written at most this often (seconds): not a write per request.
SEEN_EVERY = 3600.0
# Sessions one user keeps at most (browsers and devices signed in at once).
MAX_SESSIONS = 20


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
    """Store a new session; the user's oldest beyond MAX_SESSIONS end (a script that signs in
    without its cookie again and again leaves no pile behind)."""
    db.execute(
        sql("INSERT INTO sessions (id_hash, user_id, created, seen) VALUES (?, ?, ?, ?)", mark),
        (id_hash, user_id, now, now),
    )
    db.execute(
        sql(
            "DELETE FROM sessions WHERE user_id = ? AND id_hash NOT IN"
            " (SELECT id_hash FROM sessions WHERE user_id = ? ORDER BY created DESC LIMIT ?)",
            mark,
        ),
        (user_id, user_id, MAX_SESSIONS),
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
    """The new password hash; every session and passkey of the user ends with the old
    password (a passkey added by whoever held a session must not outlive a recovery)."""
    db.execute(
        sql("UPDATE users SET password_hash = ? WHERE id = ?", mark), (password_hash, user_id)
    )
    db.execute(sql("DELETE FROM sessions WHERE user_id = ?", mark), (user_id,))
    db.execute(sql("DELETE FROM passkeys WHERE user_id = ?", mark), (user_id,))


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
    db.execute(sql("DELETE FROM passkeys WHERE user_id = ?", mark), (user_id,))


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
    if not claimed:  # spent only when a seat was linked; the row stayed locked till here
        db.execute(sql("UPDATE users SET claimed = 0 WHERE id = ?", mark), (user_id,))
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


def account_seats(db: Database, mark: str, user_id: int) -> list[tuple[str, int]]:
    """The seats the user took: (game id, colour)."""
    rows = db.execute(
        sql("SELECT game_id, color FROM seats WHERE account_id = ?", mark), (user_id,)
    ).fetchall()
    return [(str(game_id), int(color)) for game_id, color in rows]


def rename_seat(db: Database, mark: str, game_id: str, color: int, name: str) -> None:
    """Show the seat's player as `name` from now on: its display name in the game's settings,
    and the invited friend's name in its header when the seat is the friend's."""
    row = db.execute(
        sql("SELECT settings, header FROM games WHERE id = ?", mark), (game_id,)
    ).fetchone()
    if row is None:
        return
    settings, header = json.loads(row[0]), json.loads(row[1])
    names = list(settings.get("names") or [None, None])
    names[color] = name
    settings["names"] = names
    if header.get("friend_name") is not None and color != settings.get("creator"):
        header["friend_name"] = name
    db.execute(
        sql("UPDATE games SET settings = ?, header = ? WHERE id = ?", mark),
        (json.dumps(settings), json.dumps(header), game_id),
    )


def add_passkey(
    db: Database, mark: str, user_id: int, passkey: tuple[str, str, int], now: float
) -> bool:
    """Store a passkey (credential id, public key, signature count) of the user; False when
    that credential id is stored already (anyone's)."""
    credential_id, public_key, sign_count = passkey
    added = db.execute(
        sql(
            "INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, created)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            mark,
        ),
        (credential_id, user_id, public_key, sign_count, now),
    )
    return bool(added.rowcount == 1)


def passkey(db: Database, mark: str, credential_id: str) -> tuple[int, str, int] | None:
    """(user id, public key, signature count) of a live user's passkey."""
    row = db.execute(
        sql(
            "SELECT passkeys.user_id, passkeys.public_key, passkeys.sign_count FROM passkeys"
            " JOIN users ON users.id = passkeys.user_id"
            " WHERE passkeys.credential_id = ? AND users.deleted = 0",
            mark,
        ),
        (credential_id,),
    ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]), int(row[2]))


def passkey_ids(db: Database, mark: str, user_id: int) -> list[str]:
    rows = db.execute(
        sql("SELECT credential_id FROM passkeys WHERE user_id = ? ORDER BY created", mark),
        (user_id,),
    ).fetchall()
    return [str(credential_id) for (credential_id,) in rows]


def delete_passkey(db: Database, mark: str, user_id: int, credential_id: str) -> bool:
    """Remove the user's passkey; False when the user has none of that id."""
    gone = db.execute(
        sql("DELETE FROM passkeys WHERE user_id = ? AND credential_id = ?", mark),
        (user_id, credential_id),
    )
    return bool(gone.rowcount == 1)


def count_passkey(db: Database, mark: str, credential_id: str, sign_count: int) -> None:
    db.execute(
        sql("UPDATE passkeys SET sign_count = ? WHERE credential_id = ?", mark),
        (sign_count, credential_id),
    )
