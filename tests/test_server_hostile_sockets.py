"""Sockets without bound (issue 26, point 4), against the real server on 127.0.0.1 in both
async modes (gevent's server, Werkzeug's in threading mode): one address holds at most
CHESS_MAX_CONNECTIONS connections, the ones past it are refused (and logged once) while another
address is still served, and a connection that sends
its request a byte at a time, each byte well within the idle timeout, is closed once the idle
timeout has passed in all, whether it trickles its headers or its body. Bounded loops, other
addresses of 127.0.0.0/8 as other visitors; the order of events is asserted, not durations."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
import requests

from tests.support.live_server import LiveServer

pytestmark = pytest.mark.server

LIMIT = 8
IDLE = 4.0
TRICKLE_GAP = 1.0  # seconds between two bytes: well within the idle timeout
TRICKLE_BYTES = 60  # a minute of trickling: fifteen times the idle timeout
ATTACKER = "127.0.0.3"


@pytest.fixture(scope="module", params=["gevent", "threading"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    mode = request.param
    env = {
        "CHESS_ASYNC_MODE": mode,
        "CHESS_MAX_CONNECTIONS": str(LIMIT),
        "CHESS_IDLE_TIMEOUT": str(IDLE),
    }
    live = LiveServer(tmp_path_factory.mktemp(f"sockets-{mode}"), env=env).start(timeout=90)
    yield live
    live.stop()


def connect(server: LiveServer, source: str = ATTACKER) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=30, source_address=(source, 0)
    )


def is_refused(sock: socket.socket) -> bool:
    """Whether the server ended this connection without being asked anything (a 503, or a
    close): a connection it holds stays silent until the read times out."""
    sock.settimeout(2 * IDLE / 3)
    try:
        data = sock.recv(4096)
    except TimeoutError:
        return False
    except ConnectionError:
        return True
    return data == b"" or data.startswith(b"HTTP/1.1 503")


def test_an_address_holds_at_most_its_limit(server: LiveServer) -> None:
    held = [connect(server) for _ in range(LIMIT)]
    extra = [connect(server) for _ in range(10)]
    try:
        assert all(is_refused(sock) for sock in extra)
        # Another visitor is served meanwhile, and the held connections still work.
        assert requests.get(server.url + "/", timeout=15).status_code == 200
        held[0].sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert held[0].recv(12) == b"HTTP/1.1 200"
    finally:
        for sock in held + extra:
            sock.close()
    # Once they are closed the address is served again (the server notices the closes soon).
    for _ in range(100):
        again = connect(server)
        again.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        reply = again.recv(12)
        again.close()
        if reply == b"HTTP/1.1 200":
            break
        time.sleep(0.2)
    assert reply == b"HTTP/1.1 200"
    lines = (server.instance_path / "server.log").read_text().splitlines()
    refusals = [line for line in lines if f"refused a connection from {ATTACKER}" in line]
    assert len(refusals) == 1, refusals  # ten refusals, one line a minute


def trickle(sock: socket.socket, start: bytes, byte: bytes) -> int:
    """Send `start`, then `byte` every TRICKLE_GAP seconds; how many were sent before the
    server closed the connection (TRICKLE_BYTES when it never did)."""
    sock.sendall(start)
    for sent in range(TRICKLE_BYTES):
        time.sleep(TRICKLE_GAP)
        try:
            sock.sendall(byte)
        except OSError:
            return sent
        sock.settimeout(0.01)
        try:
            sock.recv(4096)
            return sent  # an answer (a 400) or the close (b""): either way, the end
        except TimeoutError:
            pass  # still waiting for our bytes
        except OSError:
            return sent
    return TRICKLE_BYTES


BODY_HEAD = (
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n{"
)


@pytest.mark.parametrize(
    ("source", "start", "byte"),
    [
        ("127.0.0.4", b"GET /", b"a"),  # the request line
        ("127.0.0.5", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", b"a"),  # headers
        ("127.0.0.6", BODY_HEAD, b" "),  # the body
    ],
)
def test_a_request_trickled_a_byte_at_a_time_is_closed(
    server: LiveServer, source: str, start: bytes, byte: bytes
) -> None:
    sock = connect(server, source)
    try:
        sent = trickle(sock, start, byte)
    finally:
        sock.close()
    assert sent < TRICKLE_BYTES
