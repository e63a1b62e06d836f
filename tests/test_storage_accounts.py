"""The accounts' rows in a real SQLite store (server.accounts.tables): sessions kept per user
and ended, recovery codes spent once, passkeys stored once and ended by a new password,
claims made once (an empty one not spent), a deleted user's seats renamed.
The same SQL serves PostgreSQL (tests/test_storage_migrations.py runs a part of it there)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.accounts.tables import MAX_SESSIONS, NameTakenError
from server.games.stored import StoredGame
from server.tables import Tables
from tests.support.stored import HEADER, sqlite_tables

SETTINGS = {"opponent": "friend", "creator": 0, "names": ["Alice", None]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Tables]:
    opened = sqlite_tables(tmp_path / "games.sqlite3")
    yield opened
    opened.close()


def test_a_user_keeps_its_newest_sessions_only(store: Tables) -> None:
    user = store.accounts.create_user(("Alice", "alice", "hash"), [])
    for number in range(MAX_SESSIONS + 5):
        store.accounts.add_session(f"session-{number}", user)
    assert [store.accounts.session_user(f"session-{n}", 0.0) for n in range(5)] == [None] * 5
    for number in range(5, MAX_SESSIONS + 5):
        assert store.accounts.session_user(f"session-{number}", 0.0) is not None
    assert store.accounts.session_user("session-9", 10**12) is None  # not seen since then: ended


def test_a_name_key_is_taken_once(store: Tables) -> None:
    store.accounts.create_user(("Alice", "alice", "hash"), [])
    with pytest.raises(NameTakenError):
        store.accounts.create_user(("ALICE", "alice", "hash"), [])


def test_a_recovery_code_is_spent_once_and_ends_the_sessions(store: Tables) -> None:
    user = store.accounts.create_user(("Alice", "alice", "old"), [("abcd", "code hash")])
    store.accounts.add_session("phone", user)
    assert store.accounts.recovery_code_hash(user, "abcd") == "code hash"
    assert store.accounts.use_recovery_code(user, "abcd", "new") is True
    assert store.accounts.use_recovery_code(user, "abcd", "newer") is False
    assert store.accounts.user_by_id(user).password_hash == "new"  # type: ignore[union-attr]
    assert store.accounts.session_user("phone", 0.0) is None


def test_a_new_password_ends_the_passkeys_and_a_passkey_is_stored_once(
    store: Tables,
) -> None:
    user = store.accounts.create_user(("Alice", "alice", "old"), [("abcd", "code hash")])
    other = store.accounts.create_user(("Bob", "bob", "hash"), [])
    assert store.accounts.add_passkey(user, ("cred-1", "key", 0)) is True
    assert (
        store.accounts.add_passkey(user, ("cred-1", "key", 0)) is False
    )  # `conflict`, never a 500
    assert store.accounts.add_passkey(other, ("cred-1", "other key", 0)) is False
    assert store.accounts.passkey("cred-1") == (user, "key", 0)
    assert store.accounts.use_recovery_code(user, "abcd", "new") is True
    assert store.accounts.passkey("cred-1") is None and store.accounts.passkey_ids(user) == []
    assert store.accounts.add_passkey(user, ("cred-2", "key", 0)) is True
    store.accounts.set_password(user, "newer")
    assert store.accounts.passkey_ids(user) == []


def test_a_claim_linking_nothing_is_not_spent(store: Tables) -> None:
    user = store.accounts.create_user(("Alice", "alice", "hash"), [])
    store.games.create_game(StoredGame("g1", SETTINGS, HEADER, 0, []), {0: "token-a", 1: "token-b"})
    assert store.accounts.claim_seats(user, [("g1", "no such")]) == []
    assert store.accounts.claim_seats(user, [("g1", "token-a")]) == ["g1"]
    assert store.accounts.claim_seats(user, [("g1", "token-b")]) is None


def test_seats_are_claimed_once_and_a_deleted_users_renamed(store: Tables) -> None:
    user = store.accounts.create_user(("Alice", "alice", "hash"), [])
    store.games.create_game(StoredGame("g1", SETTINGS, HEADER, 0, []), {0: "token-a", 1: "token-b"})
    assert store.accounts.claim_seats(user, [("g1", "token-a"), ("g1", "no such")]) == ["g1"]
    assert store.accounts.claim_seats(user, [("g1", "token-b")]) is None  # once per user
    assert store.games.load_game("g1").accounts == {0: user}  # type: ignore[union-attr]
    store.accounts.add_session("laptop", user)
    store.accounts.delete_user(user)
    assert store.accounts.session_user("laptop", 0.0) is None
    assert store.accounts.account_by_name("alice") is None
    assert store.accounts.account_seats(user) == [("g1", 0)]
    store.games.rename_seat("g1", 0, "deleted player")
    assert store.games.load_game("g1").settings["names"] == ["deleted player", None]  # type: ignore[union-attr]
