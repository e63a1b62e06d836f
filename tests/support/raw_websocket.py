"""A WebSocket spoken by hand over a plain socket, for sending what no client library would:
a frame header announcing gigabytes, a message cut short. `open_websocket` makes the Engine.IO
WebSocket handshake on /socket.io/ and reads the server's open packet; `frame_header` builds a
client frame's header (masked, as RFC 6455 requires of clients); `read_close_code` reads frames
until the server's close frame and returns its status code."""

from __future__ import annotations

import base64
import os
import socket
import struct

OPCODE_TEXT = 0x1
OPCODE_CLOSE = 0x8
MASK = b"\x01\x02\x03\x04"


def open_websocket(
    port: int, timeout: float = 15.0, source: str = "127.0.0.1", host: str = "127.0.0.1"
) -> socket.socket:
    """A socket upgraded to an Engine.IO WebSocket on the server at `port`, open packet read."""
    sock, _ = upgrade(port, timeout, source, host)
    return sock


def upgrade(
    port: int,
    timeout: float = 15.0,
    source: str = "127.0.0.1",
    host: str = "127.0.0.1",
    extra_headers: str = "",
) -> tuple[socket.socket, bytes]:
    """`open_websocket`'s socket and the head of the server's 101 answer, the request carrying
    `extra_headers` ("Name: value\r\n" lines) besides the handshake's own."""
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=timeout, source_address=(source, 0)
    )
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
            f"Host: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra_headers}\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError(f"the server closed the handshake: {head[:200]!r}")
        head += chunk
    status, _, rest = head.partition(b"\r\n\r\n")
    if b" 101 " not in status.split(b"\r\n")[0]:
        raise ConnectionError(f"no upgrade: {status[:200]!r}")
    opcode, payload = read_frame(sock, rest)
    if opcode != OPCODE_TEXT or not payload.startswith(b"0"):
        raise ConnectionError(f"no Engine.IO open packet: {payload[:200]!r}")
    return sock, status


def frame_header(length: int, opcode: int = OPCODE_TEXT, fin: bool = True) -> bytes:
    """A masked client frame's header announcing a payload of `length` bytes."""
    first = (0x80 if fin else 0) | opcode
    if length < 126:
        return struct.pack("!BB", first, 0x80 | length) + MASK
    if length < 1 << 16:
        return struct.pack("!BBH", first, 0x80 | 126, length) + MASK
    return struct.pack("!BBQ", first, 0x80 | 127, length) + MASK


def masked(payload: bytes) -> bytes:
    return bytes(byte ^ MASK[index % 4] for index, byte in enumerate(payload))


def read_frame(sock: socket.socket, buffered: bytes = b"") -> tuple[int, bytes]:
    """The next server frame (unmasked, as servers send them): its opcode and payload."""
    data = bytearray(buffered)

    def take(count: int) -> bytes:
        while len(data) < count:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection without a close frame")
            data.extend(chunk)
        taken = bytes(data[:count])
        del data[:count]
        return taken

    first, second = take(2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack("!H", take(2))
    elif length == 127:
        (length,) = struct.unpack("!Q", take(8))
    return first & 0x0F, take(length)


def read_close_code(sock: socket.socket) -> int:
    """Read frames until the server's close frame; its status code (1005 when it has none)."""
    while True:
        opcode, payload = read_frame(sock)
        if opcode == OPCODE_CLOSE:
            return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
