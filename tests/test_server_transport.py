"""The transport under bad input (server.edge.guard): answered at once, nothing leaked, the
log kept short, on the long-polling transport as on WebSocket.

A real server process is sent what no well-behaved client sends: polling POSTs above the size
limit, without a length, chunked, shorter than they say, not Engine.IO payloads; WebSocket
frames too big or empty; Socket.IO frames that do not decode. Each must be answered (or the
connection closed) while the test's socket timeout, a guard against hanging only, still runs;
the server must hold no more open files than before, and its log must grow by a few lines
without a traceback. A game is played on both transports afterwards.
"""

from __future__ import annotations

import inspect
import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import engineio.socket
import pytest
import socketio.base_server
import websocket

from server.edge.guard import LOG_BURST, LOG_PER_SECOND, MALFORMED_FRAME_LIMIT
from server.edge.security import MAX_PAYLOAD_BYTES
from tests.support.game_client import FriendGame
from tests.support.live_server import LiveServer
from tests.support.polling_client import PollingClient, RawResponse
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("transport")

UNKNOWN_GAME = "AAAAAAAAAAAA"
OVERSIZED_EVENT = '42["join",' + json.dumps({"game": "x" * (MAX_PAYLOAD_BYTES + 1000)}) + "]"
GUARD_SECONDS = 60.0  # how long a wait may last before the test calls it a hang
TCP_CLOSE_WAIT = "08"


def wait_until(condition: Callable[[], bool]) -> bool:
    """Poll `condition` until it holds or GUARD_SECONDS pass (a guard, not a measure)."""
    for _ in range(int(GUARD_SECONDS * 10)):
        if condition():
            return True
        threading.Event().wait(0.1)
    return condition()


def open_files(live: LiveServer) -> int:
    assert live.process is not None
    return len(list(Path(f"/proc/{live.process.pid}/fd").iterdir()))


def close_wait_sockets(live: LiveServer) -> int:
    """TCP sockets on the server's port in CLOSE-WAIT (the client hung up, the server did not)."""
    assert live.process is not None
    count = 0
    for table in ("tcp", "tcp6"):
        lines = Path(f"/proc/{live.process.pid}/net/{table}").read_text().splitlines()[1:]
        for line in lines:
            fields = line.split()
            port = int(fields[1].rsplit(":", 1)[1], 16)
            count += port == live.port and fields[3] == TCP_CLOSE_WAIT
    return count


def log_text(live: LiveServer) -> str:
    return (live.instance_path / "server.log").read_text(errors="replace")


@pytest.fixture
def polling(server: LiveServer) -> Iterator[PollingClient]:
    client = PollingClient(server.url).open()
    yield client
    client.close()


def is_session_closed(client: PollingClient) -> bool:
    """Whether the session is gone: a poll gets its CLOSE packet, or a 400 (unknown session)."""
    client.closed = False
    client.poll()
    return client.closed


# ---- the hooks this guard relies on ---------------------------------------------------------


def test_engineio_still_has_the_hooks_the_guard_uses() -> None:
    """Fails when python-engineio/python-socketio change what server.edge.guard hooks:
    then review the guard (and drop it if engine.io now answers bad input itself)."""
    upgrade = inspect.getsource(engineio.socket.Socket._upgrade_websocket)
    assert "self.server._async['websocket'](" in upgrade
    assert "self._websocket_handler, self.server)" in upgrade
    handler = inspect.getsource(engineio.socket.Socket._websocket_handler)
    assert "ws.wait()" in handler and "self.upgrading" in handler
    setup = inspect.getsource(socketio.base_server.BaseServer.__init__)
    assert "self.eio.on('message', self._handle_eio_message)" in setup
    assert "self.eio.on('disconnect', self._handle_eio_disconnect)" in setup
    close = inspect.getsource(engineio.socket.Socket.close)
    assert "def close(self, wait=True, abort=False, reason=None)" in close


# ---- long-polling: oversized and malformed POSTs ---------------------------------------------


def post_oversized(client: PollingClient) -> RawResponse:
    body = OVERSIZED_EVENT.encode()
    return client.post_raw(body, {"Content-Type": "text/plain", "Content-Length": str(len(body))})


def test_an_oversized_polling_post_is_answered_413_and_closes_the_session(
    polling: PollingClient,
) -> None:
    response = post_oversized(polling)  # the client's socket timeout guards against a hang
    assert response.status == 413
    assert response.json()["code"] == "payload_too_large"
    assert str(MAX_PAYLOAD_BYTES) in response.json()["error"]
    assert response.headers["connection"] == "close"
    assert is_session_closed(polling)


def test_oversized_polling_posts_leave_no_open_file_behind(server: LiveServer) -> None:
    PollingClient(server.url).open().close()  # the first session's one-off files
    before = open_files(server)
    for _ in range(50):
        client = PollingClient(server.url).open()
        assert post_oversized(client).status == 413
        client.close()
    assert wait_until(lambda: open_files(server) <= before + 5), (before, open_files(server))
    assert wait_until(lambda: close_wait_sockets(server) == 0)


def chunked(body: bytes) -> bytes:
    return f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n\r\n"


# id, headers, body, what the error names
MALFORMED_POSTS: list[tuple[str, dict[str, str], bytes, str]] = [
    ("no_content_length", {}, b"42[]", "Content-Length"),
    ("chunked", {"Transfer-Encoding": "chunked"}, chunked(b'42["join",{}]'), "chunked"),
    ("shorter_than_declared", {"Content-Length": "20"}, b"42[", "before the 20 bytes"),
    ("not_utf8", {"Content-Length": "4"}, b"4\xff\xfe\x00", "not an Engine.IO payload"),
    ("empty_packet", {"Content-Length": "3"}, b"40\x1e", "not an Engine.IO payload"),
    ("not_a_packet_type", {"Content-Length": "5"}, b"junk!", "not an Engine.IO payload"),
    ("unknown_packet_type", {"Content-Length": "1"}, b"9", "packet type 9"),
    ("open_packet_from_client", {"Content-Length": "1"}, b"0", "packet type 0"),
    ("ping_from_client", {"Content-Length": "1"}, b"2", "packet type 2"),
    ("too_many_packets", {"Content-Length": "33"}, b"\x1e".join([b"3"] * 17), "Too many"),
]


@pytest.mark.parametrize(
    ("headers", "body", "named"),
    [case[1:] for case in MALFORMED_POSTS],
    ids=[case[0] for case in MALFORMED_POSTS],
)
def test_a_malformed_polling_post_is_answered_400(
    polling: PollingClient, headers: dict[str, str], body: bytes, named: str
) -> None:
    response = polling.post_raw(body, {"Content-Type": "text/plain", **headers})
    assert response.status == 400
    reply = response.json()
    assert reply["ok"] is False and reply["code"] == "bad_request"
    assert named in reply["error"]
    assert is_session_closed(polling)


def test_a_content_length_that_is_not_a_number_is_answered_400(polling: PollingClient) -> None:
    # gevent's server answers this one itself (an empty 400) before any application sees it.
    response = polling.post_raw(b"42[]", {"Content-Length": "four"})
    assert response.status == 400


# ---- Socket.IO frames that do not decode, on both transports --------------------------------

BAD_FRAMES = ["42[", "4299", '42{"game": 1}', "42[]", "49", '42["move"']


def test_a_malformed_frame_over_polling_is_answered_and_the_session_goes_on(
    polling: PollingClient,
) -> None:
    assert polling.post("42[").status_code == 200
    reply = polling.call("join", {"game": UNKNOWN_GAME})
    assert reply is not None and reply["code"] == "not_found"


def test_polling_is_closed_after_a_few_malformed_frames(polling: PollingClient) -> None:
    for frame in BAD_FRAMES[:MALFORMED_FRAME_LIMIT]:
        response = polling.post(frame)
        assert response.status_code in (200, 400)  # 400 once the session is gone
    assert is_session_closed(polling)


def raw_websocket(live: LiveServer) -> websocket.WebSocket:
    url = f"ws://127.0.0.1:{live.port}/socket.io/?EIO=4&transport=websocket"
    ws = websocket.create_connection(url, timeout=GUARD_SECONDS)
    assert ws.recv().startswith("0")
    ws.send("40")
    assert ws.recv().startswith("40{")  # the connect acknowledgement
    return ws


def websocket_answers(ws: websocket.WebSocket) -> bool:
    """Whether an acknowledged `join` is answered (False: the server closed the connection)."""
    try:
        ws.send("4277" + json.dumps(["join", {"game": UNKNOWN_GAME}]))
        while True:
            message = ws.recv()
            if not message or message == "1":
                return False
            if isinstance(message, str) and message.startswith("4377"):
                return True
    except (websocket.WebSocketException, OSError):
        return False


@pytest.fixture
def ws(server: LiveServer) -> Iterator[websocket.WebSocket]:
    connection = raw_websocket(server)
    yield connection
    connection.close(timeout=0.2)


@pytest.mark.parametrize("frame", ["", "42[", b"\x00\xff\x10\x80"], ids=["empty", "json", "bin"])
def test_a_malformed_websocket_frame_is_survived(ws: websocket.WebSocket, frame: str) -> None:
    (ws.send_binary if isinstance(frame, bytes) else ws.send)(frame)
    assert websocket_answers(ws)


def test_an_oversized_websocket_frame_closes_the_connection(
    server: LiveServer, ws: websocket.WebSocket
) -> None:
    ws.send(OVERSIZED_EVENT)
    assert not websocket_answers(ws)
    assert "Traceback" not in log_text(server)


def test_websocket_is_closed_after_a_few_malformed_frames(ws: websocket.WebSocket) -> None:
    for frame in ["", *BAD_FRAMES][:MALFORMED_FRAME_LIMIT]:
        ws.send(frame)
    assert not websocket_answers(ws)


# ---- the log --------------------------------------------------------------------------------


def send_malformed_frames(live: LiveServer, count: int) -> None:
    """`count` malformed frames on one WebSocket, until the server closes it."""
    connection = raw_websocket(live)
    try:
        for number in range(count):
            connection.send(BAD_FRAMES[number % len(BAD_FRAMES)])
    except (websocket.WebSocketException, OSError):
        pass  # closed by the server, as it should be
    finally:
        connection.close(timeout=0.2)


def logged_after(live: LiveServer, flood: Callable[[], None]) -> str:
    """What the server logged while `flood` ran (and a moment after)."""
    before = log_text(live)
    flood()
    threading.Event().wait(0.5)  # lets the server write what it would; not a measure
    return log_text(live)[len(before) :]


def flood_from_many_connections(live: LiveServer) -> None:
    for _ in range(40):
        send_malformed_frames(live, 5)
    for _ in range(20):
        client = PollingClient(live.url).open()
        client.post("\x1e".join(BAD_FRAMES))
        post_oversized(client)
        client.close()


# A server of its own, so its process-wide log budget is untouched when the test starts.
quiet_server = module_server("transport_log")


def test_malformed_frames_log_a_line_per_connection_and_a_few_in_all(
    quiet_server: LiveServer,
) -> None:
    started = time.monotonic()
    first = logged_after(quiet_server, lambda: send_malformed_frames(quiet_server, 200))
    assert "Traceback" not in first, first[:2000]
    assert first.count("\n") == 1 and "malformed frame on connection" in first, first
    added = logged_after(quiet_server, lambda: flood_from_many_connections(quiet_server))
    assert "Traceback" not in added, added[:2000]
    # The guard's budget, a line for each 1 / LOG_PER_SECOND seconds the floods took (its
    # rule, not a speed requirement: a busy machine floods more slowly and gets more lines by
    # the same rule), engine.io's once-only "Invalid session". Hundreds were written unguarded.
    refilled = math.ceil((time.monotonic() - started) * LOG_PER_SECOND)
    assert first.count("\n") + added.count("\n") <= LOG_BURST + refilled + 1, added


# ---- and the games go on --------------------------------------------------------------------


@pytest.mark.parametrize("transport", ["websocket", "polling"])
def test_a_game_is_played_on_either_transport_afterwards(
    server: LiveServer, transport: str
) -> None:
    send_malformed_frames(server, 10)
    post_oversized(PollingClient(server.url).open())
    table = FriendGame(server.url, transports=(transport,))
    try:
        state = table.play("e2e4", "e7e5", "g1f3")
        assert state["ply"] == 3
        assert table.black.wait_version(table.version)["ply"] == 3
    finally:
        table.close()


@pytest.mark.parametrize("frame", ['4277["join",', "4277", '4277{"game": 1}'])
def test_a_malformed_event_with_an_ack_id_is_refused_through_it(
    ws: websocket.WebSocket, frame: str
) -> None:
    ws.send(frame)
    while not (message := ws.recv()).startswith("4377"):
        pass
    reply = json.loads(message[4:])[0]
    assert reply["ok"] is False and reply["code"] == "bad_request"
    assert "not a valid Socket.IO event" in reply["error"]
