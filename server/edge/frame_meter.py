"""WebSocket frames measured by their headers, for a WebSocket layer that only counts payload.

simple-websocket (threading mode) hands what it reads to wsproto and counts a message's payload
as it is decoded: a frame announcing 1 GiB was refused only once 64 KiB of it had been read, and
the connection was left open, the client's send stalled on a full TCP window. `MeteredSocket`
stands between simple-websocket and the socket: every byte read goes through a `FrameMeter`,
which follows the frames' headers (RFC 6455, section 5.2) and skips their payload; a header that
takes the message past the limit (the lengths of its fragments so far and its own) is refused as
it is read: the client is sent a close frame with 1009 (message too big), the connection is shut
down at once (both ways, whoever else holds the descriptor), and the read fails as a dead socket
would. Control frames may carry 125 bytes at most (the RFC's limit).
"""

from __future__ import annotations

import contextlib
import socket
import struct
from typing import Any

from server.edge.guard import LogThrottle

# A close frame from the server (unmasked): 1009, message too big.
TOO_BIG_CLOSE = b"\x88\x11" + struct.pack("!H", 1009) + b"message too big"
MAX_CONTROL_PAYLOAD = 125
# One for the whole process: a flood of oversized frames is a few lines, not one per frame.
METER_LOG = LogThrottle()


class FrameMeter:
    """Follows a client's frames through the bytes it sends; `feed` says why a frame is refused,
    or None."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.head = bytearray()  # the header being read
        self.skip = 0  # payload bytes of the current frame still to come
        self.message = 0  # payload bytes announced for the message so far

    def feed(self, data: bytes) -> str | None:
        index, size = 0, len(data)
        while index < size:
            if self.skip:
                step = min(self.skip, size - index)
                self.skip -= step
                index += step
                continue
            self.head.append(data[index])
            index += 1
            wanted = header_length(self.head)
            if wanted is not None and len(self.head) == wanted:
                refused = self._frame(bytes(self.head))
                self.head.clear()
                if refused is not None:
                    return refused
        return None

    def _frame(self, head: bytes) -> str | None:
        """A whole header read: note its payload to skip, or say why it is refused."""
        fin, opcode, length = head[0] & 0x80, head[0] & 0x0F, payload_length(head)
        if opcode & 0x8:  # close, ping, pong: between a message's fragments, not part of it
            if length > MAX_CONTROL_PAYLOAD:
                return f"a control frame of {length} bytes announced"
        else:
            self.message += length
            if self.message > self.limit:
                return f"a message of more than {self.limit} bytes announced"
            if fin:
                self.message = 0
        self.skip = length
        return None


def header_length(head: bytearray) -> int | None:
    """The length of the header `head` begins (None until its second byte is in)."""
    if len(head) < 2:
        return None
    extended = {126: 2, 127: 8}.get(head[1] & 0x7F, 0)
    return 2 + extended + (4 if head[1] & 0x80 else 0)


def payload_length(head: bytes) -> int:
    short = head[1] & 0x7F
    if short == 126:
        return int(struct.unpack("!H", head[2:4])[0])
    if short == 127:
        return int(struct.unpack("!Q", head[2:10])[0])
    return short


class MeteredSocket:
    """A socket whose reads go through a `FrameMeter` (everything else is the socket's own):
    a refused frame closes the connection at once, and the read raises ConnectionError."""

    def __init__(self, sock: socket.socket, limit: int, peer: str) -> None:
        self.sock = sock
        self.meter = FrameMeter(limit)
        self.peer = peer

    def recv(self, size: int, *flags: int) -> bytes:
        data = self.sock.recv(size, *flags)
        refused = self.meter.feed(data)
        if refused is not None:
            METER_LOG.warn("closed a WebSocket from %s: %s", self.peer, refused)
            self.refuse()
            raise ConnectionAbortedError(refused)
        return data

    def refuse(self) -> None:
        """Say 1009 and end the connection now (shutdown: simple-websocket's own close would
        leave it open while the request's handler holds the descriptor)."""
        with contextlib.suppress(OSError):
            self.sock.sendall(TOO_BIG_CLOSE)
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)
