"""`python -m chesscore.uci` as a real subprocess: the protocol answers as UCI says.

A reader thread collects the engine's output lines into a queue, so a test can wait for a given
line without blocking forever (pytest-timeout guards the whole run, and each wait has its own
generous limit; nothing here asserts how fast the engine is).
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest

ROOT = Path(__file__).resolve().parent.parent
WAIT = 30.0


class EngineProcess:
    """The engine in a child process, with line-by-line access to what it prints."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "chesscore.uci"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        """Every line up to and including the first one starting with `prefix`."""
        seen = []
        while True:
            line = self.lines.get(timeout=WAIT)
            assert line is not None, f"engine exited before {prefix!r}; saw {seen}"
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def close(self) -> int:
        if self.process.poll() is None:
            self.send("quit")
        return self.process.wait(timeout=WAIT)


@pytest.fixture
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess()
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def bestmove(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove ")
    return lines[-1].split()[1]


def test_uci_handshake_names_the_engine_and_its_level_option(engine: EngineProcess):
    engine.send("uci")
    lines = engine.read_until("uciok")
    assert lines[0] == "id name chesscore"
    assert any(line.startswith("id author ") for line in lines)
    assert "option name Level type spin default 8 min 1 max 8" in lines
    assert lines[-1] == "uciok"
    engine.send("isready")
    assert engine.read_until("readyok") == ["readyok"]


def test_go_movetime_answers_a_legal_bestmove_after_info_lines(engine: EngineProcess):
    engine.send("uci")
    engine.read_until("uciok")
    engine.send("ucinewgame")
    engine.send("position startpos moves e2e4 e7e5 g1f3")
    engine.send("go movetime 300")
    lines = engine.read_until("bestmove")
    oracle = chess.Board()
    for text in ("e2e4", "e7e5", "g1f3"):
        oracle.push_uci(text)
    assert chess.Move.from_uci(bestmove(lines)) in oracle.legal_moves
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert infos
    for words in infos:
        assert {"score", "nodes", "nps", "time", "pv"} <= set(words)
    assert engine.close() == 0


def test_position_fen_with_moves_and_go_depth_finds_the_mate(engine: EngineProcess):
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves g1f1 g8h8 f1e1 h8g8")
    engine.send("go depth 3")
    lines = engine.read_until("bestmove")
    assert bestmove(lines) == "a1a8"
    assert any("score mate 1" in line for line in lines)


def test_stop_ends_an_infinite_search_with_a_bestmove(engine: EngineProcess):
    engine.send("position startpos")
    engine.send("go infinite")
    engine.read_until("info depth 2")
    engine.send("isready")
    assert engine.read_until("readyok")[-1] == "readyok"
    engine.send("stop")
    move = bestmove(engine.read_until("bestmove"))
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


def test_quit_during_a_search_exits_cleanly(engine: EngineProcess):
    engine.send("position startpos")
    engine.send("go infinite")
    engine.read_until("info depth 1")
    engine.send("quit")
    assert engine.process.wait(timeout=WAIT) == 0


def test_clock_based_go_uses_the_side_to_moves_clock(engine: EngineProcess):
    engine.send("position startpos moves d2d4")
    engine.send("go wtime 1 btime 2000 winc 0 binc 100")
    move = bestmove(engine.read_until("bestmove"))
    oracle = chess.Board()
    oracle.push_uci("d2d4")
    assert chess.Move.from_uci(move) in oracle.legal_moves


@pytest.mark.parametrize("level", [1, 2, 3])
def test_lower_levels_answer_a_legal_move(engine: EngineProcess, level: int):
    engine.send(f"setoption name Level value {level}")
    engine.send("position startpos moves e2e4")
    engine.send("go movetime 100")
    move = bestmove(engine.read_until("bestmove"))
    oracle = chess.Board()
    oracle.push_uci("e2e4")
    assert chess.Move.from_uci(move) in oracle.legal_moves


BAD_COMMANDS = [
    ("position fen not a fen", "invalid FEN"),
    ("position startpos moves e2e5", "illegal move"),
    ("position startpos moves e2e4 zz", "not a UCI move"),
    ("position sideways", "expected 'position startpos|fen"),
    ("setoption name Level value 9", "Level must be 1 to 8"),
    ("setoption name Hash value 16", "unknown option"),
    ("setoption Level 3", "expected 'setoption name"),
    ("go depth", "go depth needs a number"),
    ("go movetime soon", "go movetime needs a number"),
]


@pytest.mark.parametrize(("command", "message"), BAD_COMMANDS)
def test_bad_commands_are_reported_and_change_nothing(
    engine: EngineProcess, command: str, message: str
):
    engine.send("position startpos moves e2e4")
    engine.send(command)
    error = engine.read_until("info string")[-1]
    assert error.startswith("info string error: ")
    assert message in error
    # The position and the level are what they were: black to move after e2e4, level 8 search.
    engine.send("go depth 1")
    lines = engine.read_until("bestmove")
    oracle = chess.Board()
    oracle.push_uci("e2e4")
    assert chess.Move.from_uci(bestmove(lines)) in oracle.legal_moves
    assert any(line.startswith("info depth 1") for line in lines)


def test_unknown_commands_are_ignored_with_a_note(engine: EngineProcess):
    engine.send("xyzzy 1 2 3")
    assert engine.read_until("info string") == ["info string unknown command: 'xyzzy 1 2 3'"]
    engine.send("isready")
    assert engine.read_until("readyok") == ["readyok"]


def test_end_of_input_ends_the_engine(engine: EngineProcess):
    assert engine.process.stdin is not None
    engine.process.stdin.close()
    assert engine.process.wait(timeout=WAIT) == 0


def test_a_level_caps_the_depth_and_a_bare_go_uses_its_time(engine: EngineProcess):
    engine.send("setoption name Level value 4")
    engine.send("position startpos")
    engine.send("go depth 9")
    depths = [int(line.split()[2]) for line in engine.read_until("bestmove")[:-1]]
    assert depths == [1, 2]
    engine.send("go")
    lines = engine.read_until("bestmove")
    assert [line.split()[2] for line in lines[:-1]] == ["1", "2"]
