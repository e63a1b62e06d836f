"""Run the real server as a child process on 127.0.0.1 for tests.

The process is started exactly as a user starts it (`python -m server`), on a free port, with
its own instance folder, so tests see real sockets, real storage and can even kill it.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

# Ports the kernel never hands out to outgoing connections (below Linux's ephemeral range,
# 32768-60999): a port chosen by binding to 0 comes from that range, and between choosing it and
# the server binding it another test's client connection could take it (seen once in CI: the
# server exited at start-up). Here only another test choosing the same port can collide, and
# `start` then tries a new one.
PORTS = range(20_000, 32_000)
START_ATTEMPTS = 5

# How long a start may take before the test gives up: the server needs about a second alone,
# many more on 2 cores at load 8 while other tests start servers and browsers; at load 24 one
# was seen with under a second of CPU after 98 s. Only a server that is stuck, not a slow one,
# should fail a test (one that exits fails it at once).
START_SECONDS = 240.0
# How long one readiness request may wait for its answer (the server is listening by then).
ANSWER_SECONDS = 30.0
# What the server prints once it listens (server/__main__.py).
READY_LINE = b"Chess server running on "


class ServerExited(Exception):
    """The server process ended while a test waited for it."""


def free_port() -> int:
    """A port in PORTS that nothing on 127.0.0.1 holds right now."""
    while True:
        port = random.choice(PORTS)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def log_tail(path: Path, start: int = 0, lines: int = 20) -> str:
    """The last `lines` lines a server wrote to its log from byte `start` on, for an error."""
    try:
        with path.open("rb") as log:
            log.seek(start)
            text = log.read().decode(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


@dataclass
class LiveServer:
    """A server process; `start()` waits until it answers HTTP."""

    instance_path: Path
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = START_SECONDS) -> LiveServer:
        """Start the process and wait until it answers; a first start whose port was taken
        meanwhile moves to another port (a restart keeps its port: clients know it)."""
        first = self.process is None
        for _ in range(START_ATTEMPTS):
            if self._launch(timeout) or not first:
                return self._started()
            self.port = free_port()
        return self._started()

    def _launch(self, timeout: float) -> bool:
        """Run the process until it answers (True) or exits because its port is taken (False)."""
        environment = {**os.environ, "CHESS_INSTANCE_PATH": str(self.instance_path), **self.env}
        self.instance_path.mkdir(parents=True, exist_ok=True)
        log_path = self.instance_path / "server.log"
        log = open(log_path, "ab")  # noqa: SIM115 - lives with the process
        start = log.tell()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        try:

            def printed() -> bool:
                return READY_LINE in log_path.read_bytes()[start:]

            self._wait_for(printed, deadline, f"its line {READY_LINE.decode()!r}")
            self._wait_for(self._answers, deadline, "an answer to GET /")
        except ServerExited:
            tail = log_tail(log_path, start)
            if "Address already in use" in tail:
                return False
            raise RuntimeError(f"server exited early; its log ends:\n{tail}") from None
        except TimeoutError as waited:
            self.stop()
            raise RuntimeError(
                f"server on port {self.port} not ready within {timeout:.0f} s: {waited}; "
                f"its log ends:\n{log_tail(log_path, start)}"
            ) from None
        return True

    def _wait_for(self, condition: Callable[[], bool], deadline: float, what: str) -> None:
        """Poll `condition` while the process lives (ServerExited once it is gone), until the
        deadline (TimeoutError naming the condition)."""
        assert self.process is not None
        while not condition():
            if self.process.poll() is not None:
                raise ServerExited
            if time.monotonic() >= deadline:
                raise TimeoutError(f"waited for {what}")
            time.sleep(0.05)

    def _answers(self) -> bool:
        """True once GET / is answered. Asked after the "running" line, when the server
        listens: a slow first answer on a busy machine is waited for, not abandoned."""
        try:
            with urllib.request.urlopen(self.url + "/", timeout=ANSWER_SECONDS):
                return True
        except OSError:
            return False

    def _started(self) -> LiveServer:
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(
                f"port {self.port} stayed taken; the log ends:\n"
                f"{log_tail(self.instance_path / 'server.log')}"
            )
        return self

    def kill(self) -> None:
        """Kill -9: no chance to flush or clean up, as in a crash."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
