"""The lobby's table in both stores (server/lobby/tables.py): a visitor's entry replaces its
earlier one, an address holds few, a seek is taken once and never by its owner, pairing takes
the oldest wait of the same control or waits, and a dead process's seeks are removed by a live
one's heartbeat. PostgreSQL runs under the `cluster` marker (tests/test_server_store_postgres.py
starts it; skipped without one)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.lobby.tables import OwnSeekError, SeekLimitError, StoredSeek
from server.tables import Tables
from tests.support.stored import sqlite_tables
from tests.test_server_store_postgres import database  # noqa: F401 - the PostgreSQL fixture

pytestmark = pytest.mark.server


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.cluster)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Tables]:
    opened: Any
    if request.param == "sqlite":
        opened = sqlite_tables(tmp_path / "games.sqlite3")
    else:
        from tests.support.stored import postgres_tables

        opened = postgres_tables(request.getfixturevalue("database"))
        opened.lobby.clear_seeks()
    yield opened
    opened.lobby.clear_seeks()
    opened.close()


def entry(
    seek_id: str,
    owner: str,
    kind: str = "seek",
    control: str = "3+2",
    address: str = "10.0.0.1",
    created: float = 1.0,
    host: str = "h1",
) -> StoredSeek:
    body = {"name": f"name of {owner}", "color": None, "assisted": True}
    return StoredSeek(seek_id, kind, owner, address, control, body, created, host)


def test_an_entry_replaces_its_owners_earlier_one(store: Tables) -> None:
    assert store.lobby.add_seek(entry("a", "alice"), 10) == []
    assert store.lobby.add_seek(entry("b", "bob", created=2), 10) == []
    assert store.lobby.add_seek(entry("c", "alice", created=3), 10) == ["a"]
    assert [seek.id for seek in store.lobby.list_seeks(10)] == ["b", "c"]
    listed = store.lobby.list_seeks(10)[1]
    assert listed == entry("c", "alice", created=3)


def test_an_address_holds_at_most_its_limit(store: Tables) -> None:
    store.lobby.add_seek(entry("a", "alice"), 2)
    store.lobby.add_seek(entry("b", "bob"), 2)
    with pytest.raises(SeekLimitError):
        store.lobby.add_seek(entry("c", "carol"), 2)
    assert store.lobby.add_seek(entry("d", "bob"), 2) == ["b"]  # a replacement fits
    assert store.lobby.add_seek(entry("e", "dave", address="10.0.0.2"), 2) == []
    assert sorted(seek.id for seek in store.lobby.list_seeks(10)) == ["a", "d", "e"]


def test_a_seek_is_taken_once_and_never_by_its_owner(store: Tables) -> None:
    store.lobby.add_seek(entry("a", "alice"), 10)
    with pytest.raises(OwnSeekError):
        store.lobby.take_seek("a", "alice")
    taken = store.lobby.take_seek("a", "bob")
    assert taken is not None and taken.owner == "alice"
    assert store.lobby.take_seek("a", "carol") is None
    assert store.lobby.list_seeks(10) == []


def test_pairing_takes_the_oldest_wait_of_the_same_control(store: Tables) -> None:
    assert store.lobby.pair_or_wait(entry("w1", "ann", "pair", "1+0", created=1), 10) == (None, [])
    assert store.lobby.pair_or_wait(entry("w2", "ben", "pair", "1+0", created=2), 10)[0] is not None
    assert store.lobby.pair_or_wait(entry("w3", "cat", "pair", "5+3", created=3), 10) == (None, [])
    assert store.lobby.pair_or_wait(entry("w4", "dan", "pair", "5+3", created=4), 10)[0] == entry(
        "w3", "cat", "pair", "5+3", created=3
    )
    assert store.lobby.pair_or_wait(entry("w5", "eve", "pair", "5+3", created=5), 10) == (None, [])
    # Waiting again replaces one's own wait instead of pairing with it.
    assert store.lobby.pair_or_wait(entry("w6", "eve", "pair", "5+3", created=6), 10) == (
        None,
        ["w5"],
    )
    assert store.lobby.list_seeks(10) == []  # waits are never listed
    assert [seek.id for seek in store.lobby.remove_seeks("eve")] == ["w6"]


def test_a_heartbeat_removes_the_seeks_of_dead_processes(store: Tables) -> None:
    assert store.lobby.beat("h1", 100.0, 70.0) == []
    assert store.lobby.beat("h2", 100.0, 70.0) == []
    store.lobby.add_seek(entry("a", "alice", host="h1"), 10)
    store.lobby.pair_or_wait(entry("b", "bob", "pair", host="h2"), 10)
    assert store.lobby.beat("h1", 120.0, 90.0) == []  # h2 was seen at 100: still alive
    assert store.lobby.beat("h1", 140.0, 110.0) == ["b"]  # h2 is silent past its lease
    assert [seek.id for seek in store.lobby.list_seeks(10)] == ["a"]
    assert store.lobby.pair_or_wait(entry("c", "carl", "pair", host="h1"), 10) == (None, [])
