"""A bounded pool of worker processes for the requests that compute for long.

`WorkPool.run(function, *args)` runs a top-level function in one of `size` worker processes
(started on first use, spawned, niced so the serving process keeps its CPU) and returns its
value, or raises the `RequestError` it raised. The pool bounds what it costs the server: at
most `waiting` jobs wait for a worker (more are refused `busy` at once, never queued without
end), and a job running past `job_seconds` has its worker killed and replaced, and is answered
`too_slow`. The server talks to a worker over a socket pair with length-prefixed pickles, so
under gevent every wait (sending a large body, the reply) yields to the other greenlets, and a
socket timeout is the job's time bound. A worker leaves when its socket closes: the server
stopped, or was killed.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from server.shared.errors import N_, RequestError
from server.shared.slots import Slot

log = logging.getLogger(__name__)

T = TypeVar("T")

# How much a worker yields the CPU (os.nice), as the engine workers do: an attacker's export
# must not delay a player's move.
WORKER_NICENESS = 10
# Seconds a worker may take to start and say it is ready (imports, under load).
START_SECONDS = 60.0
_LENGTH = struct.Struct("!Q")


class WorkerGone(Exception):
    """The worker's socket closed or failed mid-job: it died."""


def _send_frame(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_LENGTH.pack(len(payload)) + payload)


def _receive_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = sock.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            raise WorkerGone("the worker closed its socket")
        chunks += chunk
    return bytes(chunks)


def _receive_frame(sock: socket.socket) -> bytes:
    (size,) = _LENGTH.unpack(_receive_exactly(sock, _LENGTH.size))
    return _receive_exactly(sock, size)


def serve(sock: socket.socket, modules: tuple[str, ...]) -> None:
    """A worker's life: import `modules` (the jobs' own, so no job's time goes to imports),
    then run each (function, args) it is sent and send back its answer, until the server
    closes the socket."""
    os.nice(WORKER_NICENESS)
    for module in modules:
        importlib.import_module(module)
    # The server's gevent made the socket pair non-blocking; a worker waits for its next job.
    sock.setblocking(True)
    _send_frame(sock, pickle.dumps(("ready", None)))
    while True:
        try:
            function, args = pickle.loads(_receive_frame(sock))
        except (WorkerGone, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", function(*args))
        except RequestError as error:
            # The message and its values, not the English sentence: the server says it in the
            # language of the request it answers.
            answer = ("refused", (error.code, error.said))
        except Exception as error:  # any bug is answered, and the worker lives on
            log.exception("a job failed in the work pool")
            answer = ("failed", repr(error)[:200])
        try:
            _send_frame(sock, pickle.dumps(answer))
        except OSError:
            return


class Worker:
    """One worker process and the server's end of its socket."""

    def __init__(self, context: Any, modules: tuple[str, ...]) -> None:
        ours, theirs = socket.socketpair()
        self.socket = ours
        self.process = context.Process(target=serve, args=(theirs, modules), daemon=True)
        self.process.start()
        theirs.close()
        self.socket.settimeout(START_SECONDS)
        try:
            _receive_frame(self.socket)  # "ready": the imports are done
        except (OSError, WorkerGone):
            self.stop()
            raise

    def run(self, function: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        """`function(*args)` in the worker; socket.timeout (an OSError) past `seconds`."""
        deadline = time.monotonic() + seconds
        self.socket.settimeout(seconds)
        _send_frame(self.socket, pickle.dumps((function, args)))
        self.socket.settimeout(max(0.001, deadline - time.monotonic()))
        kind, value = pickle.loads(_receive_frame(self.socket))
        if kind == "refused":
            code, said = value
            raise RequestError(code, said)
        if kind == "failed":
            raise RequestError("internal", N_("the server failed on this request"))
        return value

    def stop(self) -> None:
        """Kill the process (a job past its bound may be stuck) and close the socket."""
        self.socket.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)


class WorkPool:
    """`size` workers, at most `waiting` jobs waiting for one, `job_seconds` per job; each
    worker imports `modules` before it takes a job."""

    def __init__(
        self, size: int, waiting: int, job_seconds: float, modules: tuple[str, ...] = ()
    ) -> None:
        self.modules = modules
        self.size = size
        self.waiting = waiting
        self.job_seconds = job_seconds
        # spawn, as the engine pool: forking a process that runs threads could copy a held lock.
        self.context = multiprocessing.get_context("spawn")
        self.idle: list[Worker] = []
        self.slots = threading.BoundedSemaphore(size)
        self.lock = threading.Lock()
        self.admitted = 0  # jobs running or waiting for a worker
        self.closed = False

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)` in a worker: `busy` when `waiting` jobs wait already, `too_slow`
        past `job_seconds`, the function's own RequestError as it raised it."""
        with self.lock:
            if self.admitted >= self.size + self.waiting:
                raise RequestError(
                    "busy",
                    N_("the server is busy with other large requests; try again in a moment"),
                )
            self.admitted += 1
        try:
            with self.slots:
                return self._run_on_worker(function, args)
        finally:
            with self.lock:
                self.admitted -= 1

    def _run_on_worker(self, function: Callable[..., T], args: tuple[Any, ...]) -> T:
        worker = self._take()
        try:
            value: T = worker.run(function, args, self.job_seconds)
        except RequestError:
            self._give_back(worker)
            raise
        except (OSError, WorkerGone, EOFError, pickle.PickleError) as error:
            worker.stop()  # past its bound or dead: a new worker takes its place next time
            if isinstance(error, TimeoutError):
                raise RequestError(
                    "too_slow",
                    N_(
                        "the request needed more than {seconds} s of work and was stopped;"
                        " send a smaller one"
                    ),
                    seconds=f"{self.job_seconds:g}",
                ) from error
            log.warning("a work pool worker failed: %r", error)
            raise RequestError("internal", N_("the server failed on this request")) from error
        self._give_back(worker)
        return value

    def _take(self) -> Worker:
        with self.lock:
            if self.idle:
                return self.idle.pop()
        try:
            return Worker(self.context, self.modules)
        except (OSError, WorkerGone) as error:
            log.warning("a work pool worker did not start: %r", error)
            raise RequestError(
                "busy", N_("the server could not start a worker; try again")
            ) from error

    def _give_back(self, worker: Worker) -> None:
        with self.lock:
            if not self.closed:
                self.idle.append(worker)
                return
        worker.stop()

    def close(self) -> None:
        """Stop the idle workers; a running job's worker stops when it is given back."""
        with self.lock:
            self.closed = True
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.stop()


WORK: Slot[WorkPool] = Slot("work pool")
