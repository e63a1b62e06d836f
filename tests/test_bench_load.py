"""bench/load.py end to end on a tiny load, so the load benchmark cannot rot unnoticed: it starts
its own server (the real one, or bench/floor_server.py with `--floor`), seats games over the
HTTP API and Socket.IO, plays them and reports every figure. The figures themselves are the
benchmark's business, not asserted here; that moves were made, seen and not refused is."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES, SECONDS = 2, 3


def figure(pattern: str, text: str) -> str:
    found = re.search(pattern, text)
    assert found is not None, f"{pattern!r} not in the report:\n{text}"
    return found.group(1)


@pytest.mark.parametrize("server", ["server", "floor"])
def test_the_load_benchmark_plays_its_games_and_reports(server: str) -> None:
    command = [sys.executable, "bench/load.py", "--games", str(GAMES), "--seconds", str(SECONDS)]
    command += ["--clients", "1", *(["--floor"] if server == "floor" else [])]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    report = result.stdout
    assert result.returncode == 0, result.stderr
    # Each game moves once a second from a random start within the first second.
    assert int(figure(r"moves acknowledged: (\d+)", report)) >= GAMES * (SECONDS - 1)
    assert figure(r"errors: (\d+)", report) == "0"
    assert figure(r"moves the opponent never saw: (\d+)", report) == "0"
    assert float(figure(r"p99 ([\d.]+)", report)) > 0
    assert float(figure(r"([\d.]+) KiB per game", report)) > 0
    assert ("floor_server" in report) == (server == "floor")
