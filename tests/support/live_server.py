"""Run the real server as a child process on 127.0.0.1 for tests.

The process is started exactly as a user starts it (`python -m server`), on a free port, with
its own instance folder, so tests see real sockets, real storage and can even kill it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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

    def start(self, timeout: float = 20.0) -> LiveServer:
        environment = {**os.environ, "CHESS_INSTANCE_PATH": str(self.instance_path), **self.env}
        self.instance_path.mkdir(parents=True, exist_ok=True)
        log = open(self.instance_path / "server.log", "ab")  # noqa: SIM115 - lives with the process
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.instance_path}/server.log")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not answer within {timeout}s")

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
