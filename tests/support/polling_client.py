"""A raw Engine.IO long-polling client over plain HTTP, for tests that need the polling transport
byte by byte.

`PollingClient` opens a session (`GET ...&transport=polling`), connects the Socket.IO namespace
(`POST 40`), emits events with acknowledgement ids and reads what the server pushes, one GET at
a time, keeping acknowledgements and events apart. `post_raw` and `send_raw` send any body with
any headers over a socket of their own, so a test can send what no library would (no
Content-Length, a chunked body, a lying length). Every read has a socket timeout only as a guard
against a server that never answers; nothing here measures speed.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from typing import Any

import requests

WAIT_SECONDS = 60.0  # against hanging only
RECORD_SEPARATOR = "\x1e"


@dataclass
class RawResponse:
    """An HTTP response as read off the socket: status, lower-cased headers, body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def send_raw(port: int, request: bytes, timeout: float = WAIT_SECONDS) -> RawResponse:
    """Write `request` (a whole HTTP request, as bytes) on a new connection and read the reply
    until the server closes it or its Content-Length is read; a timeout raises."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(
            (name.strip().lower(), value.strip())
            for name, _, value in (line.partition(":") for line in lines[1:])
        )
        length = int(headers.get("content-length", "-1"))
        while length < 0 or len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return RawResponse(int(lines[0].split()[1]), headers, body)


@dataclass
class PollingClient:
    """One Engine.IO session on the polling transport, connected to the default namespace."""

    url: str
    sid: str = ""
    acks: dict[int, Any] = field(default_factory=dict)
    events: list[list[Any]] = field(default_factory=list)
    closed: bool = False
    http: requests.Session = field(default_factory=requests.Session)
    next_ack: int = 1

    @property
    def path(self) -> str:
        return f"/socket.io/?EIO=4&transport=polling&sid={self.sid}"

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def open(self) -> PollingClient:
        """Open the session and connect the namespace (its acknowledgement is read)."""
        response = self.http.get(
            self.url + "/socket.io/?EIO=4&transport=polling", timeout=WAIT_SECONDS
        )
        assert response.status_code == 200, response.text
        assert response.text.startswith("0"), response.text
        self.sid = json.loads(response.text[1:])["sid"]
        assert self.post("40").status_code == 200
        while not any(text.startswith("40") for text in self.poll()):
            pass
        return self

    def post(self, body: str | bytes, headers: dict[str, str] | None = None) -> requests.Response:
        """POST `body` to the session as it is."""
        return self.http.post(
            self.url + self.path, data=body, headers=headers or {}, timeout=WAIT_SECONDS
        )

    def poll(self) -> list[str]:
        """One GET: the packets the server had (or got) for this session, also recorded."""
        response = self.http.get(self.url + self.path, timeout=WAIT_SECONDS)
        if response.status_code != 200:
            self.closed = True
            return []
        packets = response.text.split(RECORD_SEPARATOR)
        for text in packets:
            self.record(text)
        return packets

    def record(self, text: str) -> None:
        if text.startswith("1") or text.startswith("41"):
            self.closed = True
        elif text == "2":
            self.post("3")  # answer the server's ping, as a client must
        elif text.startswith("43"):
            digits = len(text[2:]) - len(text[2:].lstrip("0123456789"))
            self.acks[int(text[2 : 2 + digits])] = json.loads(text[2 + digits :])[0]
        elif text.startswith("42"):
            self.events.append(json.loads(text[2:]))

    def emit(self, event: str, payload: Any) -> int:
        """Send `event` with one argument, asking for an acknowledgement; its id."""
        ack_id = self.next_ack
        self.next_ack += 1
        assert self.post(f"42{ack_id}" + json.dumps([event, payload])).status_code == 200
        return ack_id

    def call(self, event: str, payload: Any) -> Any:
        """Emit and poll until the acknowledgement comes (or the session ends: None)."""
        ack_id = self.emit(event, payload)
        while ack_id not in self.acks and not self.closed:
            self.poll()
        return self.acks.get(ack_id)

    def post_raw(self, body: bytes, headers: dict[str, str]) -> RawResponse:
        """POST `body` on a connection of its own with exactly `headers` (and Host)."""
        lines = [f"POST {self.path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode()
        return send_raw(self.port, head + body)

    def close(self) -> None:
        if not self.closed:
            self.post("1")
            self.closed = True
        self.http.close()
