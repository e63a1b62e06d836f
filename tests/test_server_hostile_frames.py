"""One WebSocket frame cannot freeze the server (issue 26, point 1), against the real server on
127.0.0.1 in both async modes: a frame whose header announces 16 MiB, or 1 GiB, is refused by
that header, before its payload is read. The attacker is closed with 1009 (message too big)
having sent only the header; a client streaming a whole 16 MiB frame is cut off long before it
has sent it; meanwhile another client's round trip is answered, and the server's peak memory
does not grow by the frame's size. The order of events is asserted, never a duration."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest

from tests.support.game_client import GameClient
from tests.support.live_server import LiveServer
from tests.support.raw_websocket import (
    frame_header,
    masked,
    open_websocket,
    read_close_code,
    upgrade,
)

pytestmark = pytest.mark.server

MIB = 1 << 20
MESSAGE_TOO_BIG = 1009
# Long enough that the idle timeout, which also ends a stalled frame, cannot be what closes it.
IDLE_TIMEOUT = "600"


@pytest.fixture(scope="module", params=["gevent", "threading"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    mode = request.param
    env = {"CHESS_ASYNC_MODE": mode, "CHESS_IDLE_TIMEOUT": IDLE_TIMEOUT}
    live = LiveServer(tmp_path_factory.mktemp(f"frames-{mode}"), env=env).start(timeout=90)
    yield live
    live.stop()


@pytest.fixture
def victim(server: LiveServer) -> Iterator[GameClient]:
    client = GameClient(server.url)
    yield client
    client.close()


def peak_memory(server: LiveServer) -> int:
    """The server process's peak resident memory in bytes (VmHWM)."""
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024


def round_trip(client: GameClient) -> None:
    reply = client.call("analysis_position", {"fen": chess.STARTING_FEN})
    assert reply["ok"], reply


@pytest.mark.parametrize("announced", [16 * MIB, 1 << 30])
def test_a_huge_frame_header_is_refused_before_its_payload(
    server: LiveServer, victim: GameClient, announced: int
) -> None:
    attacker = open_websocket(server.port, timeout=120)
    attacker.sendall(frame_header(announced))
    # The victim is answered while the attacker's frame stays unsent ...
    round_trip(victim)
    # ... and the attacker is closed by its header, having sent nothing more.
    assert read_close_code(attacker) == MESSAGE_TOO_BIG
    attacker.close()
    round_trip(victim)


def test_no_compression_is_agreed(server: LiveServer) -> None:
    """A compressed frame's header gives its compressed length: a small frame could inflate to
    megabytes before the message limit saw it. Neither mode agrees to permessage-deflate
    (gevent-websocket knows no extensions; threading mode drops the client's offer)."""
    sock, head = upgrade(
        server.port,
        timeout=120,
        extra_headers="Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n",
    )
    sock.close()
    assert b"sec-websocket-extensions" not in head.lower(), head


def test_the_header_alone_is_refused(server: LiveServer) -> None:
    attacker = open_websocket(server.port, timeout=120)
    attacker.sendall(frame_header(1 << 40))
    assert read_close_code(attacker) == MESSAGE_TOO_BIG  # nothing unread: a clean close
    attacker.close()


def test_a_message_split_into_small_fragments_is_bounded_too(
    server: LiveServer, victim: GameClient
) -> None:
    """64 fragments of 4 KiB, none final: each is small, the message they make is not."""
    attacker = open_websocket(server.port, timeout=60)
    fragment = masked(b"4" + b"x" * 4095)
    try:
        attacker.sendall(frame_header(len(fragment), fin=False) + fragment)
        for _ in range(63):
            attacker.sendall(frame_header(len(fragment), opcode=0, fin=False) + fragment)
    except OSError:
        pass  # closed while sending: the refusal
    # Ended (a close frame, or a reset for the fragments left unread), not left waiting for
    # more fragments: a timeout here fails the test.
    assert connection_end(attacker) in (MESSAGE_TOO_BIG, "reset")
    attacker.close()
    round_trip(victim)


def connection_end(sock: socket.socket) -> int | str:
    """How the server ended the connection: its close code, or "reset" when the close came as
    a reset (the kernel resets a connection closed with data unread)."""
    try:
        return read_close_code(sock)
    except (ConnectionError, OSError) as error:
        if isinstance(error, socket.timeout):
            raise
        return "reset"


def test_a_streamed_16_mib_frame_is_cut_off_and_memory_stays(
    server: LiveServer, victim: GameClient
) -> None:
    before = peak_memory(server)
    attacker = open_websocket(server.port, timeout=120)
    sent = [0]
    chunk = masked(b"x" * (1 << 16))

    def stream() -> None:
        try:
            attacker.sendall(frame_header(16 * MIB))
            while sent[0] < 16 * MIB:
                attacker.sendall(chunk)
                sent[0] += len(chunk)
        except OSError:
            pass  # the server closed the connection: what should happen

    sender = threading.Thread(target=stream, daemon=True)
    sender.start()
    round_trip(victim)
    sender.join(timeout=120)
    assert not sender.is_alive()  # closed (the idle timeout is 600 s): the send failed
    attacker.close()
    sender.join(timeout=120)
    round_trip(victim)
    # The kernel's buffers take a few MiB before the reset is seen; never the whole frame.
    assert sent[0] < 16 * MIB, "the server read the whole 16 MiB frame"
    assert peak_memory(server) - before < 8 * MIB


def test_a_message_within_the_limit_still_passes(server: LiveServer) -> None:
    attacker = open_websocket(server.port)
    attacker.settimeout(5)
    payload = b'42["x","' + b"y" * 8000 + b'"]'
    attacker.sendall(frame_header(len(payload)) + masked(payload))
    with pytest.raises(socket.timeout):
        attacker.recv(1)  # no close: a message within the limit is carried as before
    attacker.close()
