"""The gevent server's idle timeout and throttled error log (server.edge.http_server),
against a real server whose idle timeout is two seconds.

A connection that sends nothing, or half a request, is closed by the server (before: held until
the client hung up, an open file each); a flood of malformed requests writes a few log lines,
not one per request, and no traceback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support.game_client import FriendGame
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

GUARD_SECONDS = 60  # against hanging only: the server closes after 2 s of silence

server = module_server("http_server", env={"CHESS_IDLE_TIMEOUT": "2"})


def connect(live: LiveServer) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", live.port))
    connection.settimeout(GUARD_SECONDS)
    return connection


def read_until_closed(connection: socket.socket) -> bytes:
    received = b""
    while chunk := connection.recv(4096):
        received += chunk
    return received


def test_a_silent_connection_is_closed(server: LiveServer) -> None:
    with connect(server) as connection:
        assert read_until_closed(connection) == b""


def test_half_a_request_is_answered_400_and_closed(server: LiveServer) -> None:
    with connect(server) as connection:
        connection.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        assert read_until_closed(connection).startswith(b"HTTP/1.1 400")


def test_a_body_shorter_than_announced_is_answered_400(server: LiveServer) -> None:
    with connect(server) as connection:
        connection.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"opponent"'
        )
        answer = read_until_closed(connection)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b'"code":"bad_request"' in answer  # werkzeug's: the client sent less than it said
    assert "Traceback" not in log_of(server)


def log_of(live: LiveServer) -> str:
    return Path(live.instance_path / "server.log").read_text(errors="replace")


def test_malformed_requests_write_a_few_lines_in_all(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "instance").start()  # its own log, the throttle's budget full
    try:
        before = log_of(live).count("\n")
        for _ in range(200):
            with connect(live) as connection:
                connection.sendall(b"POST /api/games HTTP/1.1\r\nContent-Length: abc\r\n\r\n")
                assert read_until_closed(connection).startswith(b"HTTP/1.1 400")
        log = log_of(live)
        assert "invalid literal for int()" in log  # the first ones are logged
        assert log.count("\n") - before <= 8
        assert "Traceback" not in log
    finally:
        live.stop()


def test_a_game_is_played_as_usual(server: LiveServer) -> None:
    table = FriendGame(server.url)
    try:
        assert table.play("e2e4", "e7e5")["ply"] == 2
    finally:
        table.close()
