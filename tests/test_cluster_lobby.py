"""The lobby across server processes sharing PostgreSQL and Redis: a seek made on one process
is seen, taken and withdrawn on the other; the waiting side's private `paired` crosses Redis;
visitors pairing at once on both processes are each paired exactly once. Skipped without
PostgreSQL, Redis and nginx like tests/test_cluster.py, whose fixtures start them."""

from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import pytest

from tests.support.lobby_client import LobbyClient
from tests.test_cluster import Cluster, backends, two_processes  # noqa: F401 - fixtures

pytestmark = [pytest.mark.cluster, pytest.mark.server]


def test_a_seek_crosses_processes(two_processes: Cluster) -> None:  # noqa: F811
    first, second = two_processes.urls
    onlooker, owner, taker = LobbyClient(first), LobbyClient(second), LobbyClient(first)
    try:
        for client in (onlooker, owner, taker):
            client.enter()
        seek = owner.call("seek", {"control": "3+2", "color": "black", "name": "Far away"})["seek"]
        assert onlooker.wait_message("seek_added")["seek"] == seek
        assert [listed["id"] for listed in taker.call("lobby_enter", {})["seeks"]] == [seek["id"]]
        taken = taker.call("seek_accept", {"seek": seek["id"]})
        assert taken["ok"] and taken["color"] == "white", taken
        told = owner.wait_message("paired")  # emitted on the first process, held by the second
        assert told["game"] == taken["game"] and told["color"] == "black"
        assert onlooker.wait_message("seeks_removed")["ids"] == [seek["id"]]
        owner.join(taken["game"], seat=told["seat"])
        taker.join(taken["game"], seat=taken["seat"])
        assert taker.move(taken["game"], 0, "e2e4")["ok"]
        assert owner.wait_version(1)["players"]["black"]["name"] == "Far away"

        again = owner.call("seek", {})["seek"]
        onlooker.wait_message("seek_added", lambda m: m["seek"]["id"] == again["id"])
        owner.close()
        onlooker.wait_message("seeks_removed", lambda m: again["id"] in m["ids"])
        assert onlooker.call("lobby_enter", {})["seeks"] == []
    finally:
        for client in (onlooker, owner, taker):
            client.close()


def test_visitors_pairing_at_once_on_both_processes_pair_once(two_processes: Cluster) -> None:  # noqa: F811
    urls = two_processes.urls
    visitors = [LobbyClient(urls[index % 2]) for index in range(20)]
    replies: list[Any] = [None] * len(visitors)
    start = threading.Barrier(len(visitors))

    def ask(index: int) -> None:
        start.wait()
        replies[index] = visitors[index].call("pair", {"control": "1+0"})

    try:
        threads = [threading.Thread(target=ask, args=(index,)) for index in range(len(visitors))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seats: dict[int, dict[str, Any]] = {}
        for index, reply in enumerate(replies):
            assert reply["ok"], reply
            if reply["paired"]:
                seats[index] = reply
        completed = set(seats)
        for index, visitor in enumerate(visitors):
            if index not in seats:
                seats[index] = visitor.wait_message("paired")
        time.sleep(0.5)  # a second pairing, were there one, would have arrived
        for index, visitor in enumerate(visitors):
            assert len(visitor.received("paired")) == (0 if index in completed else 1)
        games = Counter(seat["game"] for seat in seats.values())
        assert len(games) == 10 and set(games.values()) == {2}
        for game in games:
            colors = sorted(seat["color"] for seat in seats.values() if seat["game"] == game)
            assert colors == ["black", "white"]
    finally:
        for visitor in visitors:
            visitor.close()
