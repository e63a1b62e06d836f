"""Concurrent copies of one move against the real server: exactly one is applied.

Flask-SocketIO runs events concurrently, from one connection and from many; the game's lock and
the ply check (and under them the (game, ply) key in SQLite) must let exactly one copy through.
The stored moves are read back from the SQLite file itself.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest

from tests.support.game_client import FriendGame, GameClient, api_state, create_game, invite_token
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

COPIES = 20


server = module_server("concurrency")


def stored_moves(server: LiveServer, game: str) -> list[tuple[int, str]]:
    with sqlite3.connect(server.instance_path / "games.sqlite3") as db:
        rows = db.execute("SELECT ply, uci FROM moves WHERE game_id = ? ORDER BY ply", (game,))
        return [(int(ply), str(uci)) for ply, uci in rows]


def race(clients: list[GameClient], payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send one payload per client at the same moment; the replies in order."""
    barrier = threading.Barrier(len(clients))
    replies: list[dict[str, Any]] = [{} for _ in clients]

    def send(index: int) -> None:
        barrier.wait()
        replies[index] = clients[index].move(**payloads[index])

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return replies


def test_twenty_connections_send_the_same_move(server: LiveServer) -> None:
    table = FriendGame(server.url)
    copies = [GameClient(server.url) for _ in range(COPIES)]
    try:
        for client in copies:
            client.join(table.id, seat=table.white_seat)
        replies = race(copies, [{"game": table.id, "ply": 0, "uci": "e2e4"}] * COPIES)
        assert sum(reply["ok"] for reply in replies) == 1
        assert {reply["code"] for reply in replies if not reply["ok"]} == {"stale_ply"}
        assert api_state(server.url, table.id)["moves"] == [{"uci": "e2e4", "san": "e4"}]
        assert stored_moves(server, table.id) == [(0, "e2e4")]
        # Every connection sees the one move once, with one version.
        for client in copies:
            assert [s["ply"] for s in client.states if s["ply"] == 1][:1] == [1]
    finally:
        for client in copies:
            client.close()
        table.close()


def test_one_connection_sends_twenty_copies_at_once(server: LiveServer) -> None:
    table = FriendGame(server.url)
    try:
        table.play("d2d4")
        threading.Event().wait(0.5)  # let the rate limiter's bucket refill after the setup
        replies: list[dict[str, Any]] = []
        done = threading.Event()

        def record(reply: dict[str, Any]) -> None:
            replies.append(reply)
            if len(replies) == COPIES:
                done.set()

        payload = {"game": table.id, "ply": 1, "uci": "d7d5"}
        for _ in range(COPIES):
            table.black.client.emit("move", payload, callback=record)
        assert done.wait(30)
        assert sum(reply["ok"] for reply in replies) == 1
        assert {reply["code"] for reply in replies if not reply["ok"]} == {"stale_ply"}
        assert stored_moves(server, table.id) == [(0, "d2d4"), (1, "d7d5")]
    finally:
        table.close()


def test_different_moves_for_the_same_ply_apply_once(server: LiveServer) -> None:
    table = FriendGame(server.url)
    ucis = ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "g1f3", "b1c3"]
    clients = [GameClient(server.url) for _ in ucis]
    try:
        for client in clients:
            client.join(table.id, seat=table.white_seat)
        replies = race(clients, [{"game": table.id, "ply": 0, "uci": uci} for uci in ucis])
        winners = [uci for uci, reply in zip(ucis, replies, strict=True) if reply["ok"]]
        assert len(winners) == 1
        assert stored_moves(server, table.id) == [(0, winners[0])]
    finally:
        for client in clients:
            client.close()
        table.close()


def test_ten_people_open_the_invitation_at_once(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    guests = [GameClient(server.url) for _ in range(10)]
    barrier = threading.Barrier(len(guests))
    replies: list[dict[str, Any]] = [{} for _ in guests]

    def open_link(index: int) -> None:
        barrier.wait()
        replies[index] = guests[index].join(created["game"], invite=invite_token(created))

    threads = [threading.Thread(target=open_link, args=(index,)) for index in range(len(guests))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        roles = sorted(reply["role"] for reply in replies)
        assert roles == ["black"] + ["spectator"] * 9
        assert sum("seat" in reply for reply in replies) == 1
        assert all("notice" in reply for reply in replies if reply["role"] == "spectator")
    finally:
        for guest in guests:
            guest.close()
