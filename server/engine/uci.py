"""A UCI client: one engine process, spoken to over its stdin and stdout, every wait bounded.

`UciEngine.start` runs the command (a native Stockfish, or Node with a Stockfish WebAssembly
build), says `uci` and waits for `uciok`, then `isready`/`readyok`. A thread of its own reads
the engine's lines into a queue, so a wait is a `get` with a timeout, and the end of the
engine's output (it died, it was killed) reaches every wait at once as `EngineTerminated`. An
engine that does not answer within a wait's bound is killed and the caller gets
`EngineTimeout`: never a hang. `go` sends a search (`nodes`, `movetime`, `depth`), parses each
`info` line (`parse_info`: depth, seldepth, multipv, score cp|mate with its bound, nodes, nps,
pv) and returns at `bestmove`; a `cancel` it polls sends `stop`, after which the engine has
`STOP_SECONDS` to say its best move. Scores are as UCI says them: from the side to move's view.
python-chess's `chess.engine` is the model (a protocol object, a timeout on each command,
`quit` on close, a dead process noticed at once); it is a test oracle here, never imported.

On Linux the engine is asked to die with the thread that started it (PR_SET_PDEATHSIG), so an
engine worker killed outright leaves no engine behind.
"""

from __future__ import annotations

import ctypes
import logging
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

log = logging.getLogger(__name__)

START_SECONDS = 20.0  # `uci` to `uciok`: Node compiles the WebAssembly first
READY_SECONDS = 10.0  # `isready` to `readyok` (a new hash is allocated before it answers)
STOP_SECONDS = 2.0  # `stop` to `bestmove`
QUIT_SECONDS = 1.0  # `quit` to the process's end, then it is killed
POLL_SECONDS = 0.02  # how often a search looks at its cancel signal
PR_SET_PDEATHSIG = 1


class EngineError(Exception):
    """The engine could not do what was asked; the message says what and which engine."""


class EngineTerminated(EngineError):
    """The engine process ended (it died, or was killed)."""


class EngineTimeout(EngineError):
    """The engine did not answer within the bound; it has been killed."""


@dataclass(frozen=True)
class Score:
    """A score from the side to move's view: centipawns or mate in `mate` moves (negative:
    the side to move is mated); `bound` is "lower", "upper" or None for an exact score."""

    cp: int | None = None
    mate: int | None = None
    bound: str | None = None


@dataclass(frozen=True)
class Info:
    """One `info` line's search figures (None or empty for what the line did not say)."""

    depth: int | None = None
    seldepth: int | None = None
    multipv: int = 1
    score: Score | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    pv: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchResult:
    """What a `go` ended with: the best move in UCI (None for `bestmove (none)`: no legal
    move), the ponder move, the `info` lines with a score in order, and whether it was
    stopped."""

    bestmove: str | None
    ponder: str | None
    infos: tuple[Info, ...]
    stopped: bool

    def best_info(self, multipv: int = 1) -> Info | None:
        """The last exact score of line `multipv` (a bound only when no exact one came)."""
        lines = [info for info in self.infos if info.multipv == multipv and info.score]
        exact = [info for info in lines if info.score is not None and info.score.bound is None]
        chosen = exact or lines
        return chosen[-1] if chosen else None


INT_FIELDS = {"depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull", "tbhits"}


def parse_info(line: str) -> Info:
    """The figures of one `info ...` line; unknown fields are skipped. ValueError naming the
    line when a number is not one."""
    tokens = line.split()
    if not tokens or tokens[0] != "info":
        raise ValueError(f"not an info line: {line!r}")
    fields: dict[str, int] = {}
    score: Score | None = None
    pv: tuple[str, ...] = ()
    index = 1
    try:
        while index < len(tokens):
            key = tokens[index]
            if key in INT_FIELDS and index + 1 < len(tokens):
                fields[key] = int(tokens[index + 1])
                index += 2
            elif key == "score":
                score, index = parse_score(tokens, index + 1)
            elif key == "pv":
                pv = tuple(tokens[index + 1 :])
                break
            elif key == "string":
                break
            else:
                index += 1
    except (ValueError, IndexError):
        raise ValueError(f"a bad number in the engine's info line {line!r}") from None
    return Info(
        fields.get("depth"), fields.get("seldepth"), fields.get("multipv", 1), score,
        fields.get("nodes"), fields.get("nps"), fields.get("time"), pv,
    )  # fmt: skip


def parse_score(tokens: list[str], index: int) -> tuple[Score, int]:
    """`cp N` or `mate N`, then an optional `lowerbound` / `upperbound`, from `index`."""
    kind, value = tokens[index], int(tokens[index + 1])
    index += 2
    bound = None
    if index < len(tokens) and tokens[index] in ("lowerbound", "upperbound"):
        bound = tokens[index].removesuffix("bound")
        index += 1
    if kind == "cp":
        return Score(cp=value, bound=bound), index
    if kind == "mate":
        return Score(mate=value, bound=bound), index
    raise ValueError(f"score {kind!r}")


def die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """In the child: ask Linux to kill it when the thread that started it ends."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class UciEngine:
    """One engine process; its methods are called from one thread at a time."""

    def __init__(self, process: subprocess.Popen[str], label: str) -> None:
        self.process = process
        self.label = label
        self.name = label  # `id name` once the handshake has told it
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.ended = False
        threading.Thread(target=self._read, name=f"uci-{process.pid}", daemon=True).start()

    @classmethod
    def start(
        cls, command: Sequence[str], label: str | None = None, timeout: float = START_SECONDS
    ) -> UciEngine:
        """Start `command` and shake hands (`uci`, `isready`); EngineError when it cannot be
        started or does not answer within `timeout` (it is killed then)."""
        label = label or " ".join(command)
        try:
            process = subprocess.Popen(
                list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1,
                preexec_fn=die_with_parent if sys.platform == "linux" else None,
            )  # fmt: skip
        except OSError as error:
            raise EngineError(f"the engine {label!r} could not be started: {error}") from None
        engine = cls(process, label)
        try:
            engine.send("uci")
            for line in engine._lines_until("uciok", timeout, "uci"):
                if line.startswith("id name "):
                    engine.name = line.removeprefix("id name ").strip()
            engine.ping(timeout)
        except EngineError:
            engine.close()
            raise
        return engine

    # -- the process ----------------------------------------------------------------------

    def _read(self) -> None:
        """The reader thread: every line into the queue, then None for the end."""
        assert self.process.stdout is not None
        try:
            for line in self.process.stdout:
                self.lines.put(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    @property
    def alive(self) -> bool:
        return not self.ended and self.process.poll() is None

    def send(self, command: str) -> None:
        """One command line; EngineTerminated when the engine is gone."""
        if not self.alive:
            raise EngineTerminated(f"the engine {self.label!r} has ended")
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._ended()
            raise EngineTerminated(f"the engine {self.label!r} has ended") from None

    def _poll(self, until: float, waiting_for: str) -> str | None:
        """The next line, or None if none came before `until`; EngineTerminated at the end of
        the output."""
        if self.ended:
            raise EngineTerminated(f"the engine {self.label!r} has ended")
        try:
            line = self.lines.get(timeout=max(0.0, until - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self._ended()
            raise EngineTerminated(
                f"the engine {self.label!r} ended while we waited for {waiting_for!r}"
            )
        return line

    def _next_line(self, deadline: float, waiting_for: str) -> str:
        """The next line before `deadline`; past it the engine is killed: EngineTimeout."""
        line = self._poll(deadline, waiting_for)
        if line is None:
            self.kill()
            raise EngineTimeout(
                f"the engine {self.label!r} did not answer {waiting_for!r} in time; it was killed"
            )
        return line

    def _lines_until(self, last: str, timeout: float, waiting_for: str) -> list[str]:
        """The lines up to the one that is `last` (left out)."""
        deadline = time.monotonic() + timeout
        lines = []
        while (line := self._next_line(deadline, waiting_for)) != last:
            lines.append(line)
        return lines

    def _ended(self) -> None:
        self.ended = True

    # -- commands -------------------------------------------------------------------------

    def ping(self, timeout: float = READY_SECONDS) -> None:
        """`isready` and wait for `readyok` (the lines before it are dropped)."""
        self.send("isready")
        self._lines_until("readyok", timeout, "isready")

    def set_option(self, name: str, value: str | int) -> None:
        self.send(f"setoption name {name} value {value}")

    def new_game(self) -> None:
        self.send("ucinewgame")

    def position(self, fen: str | None, moves: Sequence[str] = ()) -> None:
        """`position startpos|fen <fen> [moves ...]`."""
        where = "startpos" if fen is None else f"fen {fen}"
        self.send(f"position {where}" + (" moves " + " ".join(moves) if moves else ""))

    def go(
        self,
        *,
        nodes: int | None = None,
        movetime_ms: int | None = None,
        depth: int | None = None,
        timeout: float,
        cancel: Callable[[], bool] | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> SearchResult:
        """Search the position set last within the limits and wait for `bestmove`: at most
        `timeout` seconds (then the engine is killed: EngineTimeout); `cancel`, polled every
        POLL_SECONDS, sends `stop`. Each scored `info` goes to `on_info` as it comes."""
        limits = [f"{name} {value}" for name, value in
                  (("nodes", nodes), ("movetime", movetime_ms), ("depth", depth))
                  if value is not None]  # fmt: skip
        if not limits:
            raise ValueError("a search needs a limit: nodes, movetime or depth")
        self.send("go " + " ".join(limits))
        deadline = time.monotonic() + timeout
        infos: list[Info] = []
        stopped = False
        while True:
            line = self._poll(min(deadline, time.monotonic() + POLL_SECONDS), "go")
            if line is None and time.monotonic() >= deadline:
                self.kill()
                raise EngineTimeout(
                    f"the engine {self.label!r} did not end its search in time; it was killed"
                )
            if line is None:
                pass
            elif line.startswith("bestmove"):
                return self._result(line, infos, stopped)
            elif line.startswith("info") and " score " in line:
                info = parse_info(line)
                infos.append(info)
                if on_info is not None:
                    on_info(info)
            if cancel is not None and not stopped and cancel():
                stopped = True
                self.send("stop")
                deadline = min(deadline, time.monotonic() + STOP_SECONDS)

    def _result(self, line: str, infos: list[Info], stopped: bool) -> SearchResult:
        tokens = line.split()
        best = tokens[1] if len(tokens) > 1 and tokens[1] != "(none)" else None
        ponder = tokens[3] if len(tokens) > 3 and tokens[2] == "ponder" else None
        return SearchResult(best, ponder, tuple(infos), stopped)

    # -- the end --------------------------------------------------------------------------

    def kill(self) -> None:
        """End the process at once and reap it."""
        self._ended()
        try:
            self.process.kill()
            self.process.wait(QUIT_SECONDS)
        except (OSError, subprocess.TimeoutExpired):  # pragma: no cover - already gone
            pass

    def close(self) -> None:
        """`quit`, and kill the engine if it has not ended within QUIT_SECONDS."""
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(QUIT_SECONDS)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:  # pragma: no cover
                pass
