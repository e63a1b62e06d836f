"""The speed benchmarks still run: each is started as a user starts it, on a tiny sample, and
must finish and print its figures. Nothing here judges a figure (that is the benchmarks' job,
side by side with a reference run); a benchmark that no longer runs fails here instead of
rotting until someone next needs it (bench/state.py once broke unnoticed when the position
facts grew a field)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (script, tiny arguments, a row its report must hold)
BENCHES = [
    ("explain_coverage.py", ["--games", "3"], "given a concrete reason"),
    ("explain_claims.py", [], "blunders: 67; a concrete claim, every claim holding"),
    ("update.py", ["--games", "1", "--plies", "12", "--rounds", "1"], "chesscore"),
    ("insight.py", ["--positions", "8", "--repeat", "1"], "make_insight"),
    ("state.py", ["--positions", "8", "--repeat", "1"], "a move's states, with insight"),
    ("perft.py", ["--rounds", "1", "--shallow"], "start"),
    (
        "analysis.py",
        ["--positions", "1", "--times", "0.2", "--reference-depth", "6", "--pgn-rounds", "1"],
        "PGN import (long_game.pgn: 200 plies",
    ),
    ("lobby.py", ["--visitors", "10", "--clients", "1"], "paired twice, bad games, seeks left"),
    (
        "analysis_page.py",
        ["--steps", "2", "--pause", "0", "--no-depth"],
        "node change -> first engine line on screen (browser): 2 steps",
    ),
    ("preview.py", ["--rounds", "3"], "previews:"),
    ("puzzles.py", ["--requests", "20", "--size", "3000"], "puzzles: median"),
    ("signin.py", ["--repeat", "2"], "HTTP sign-in, unknown name"),
    ("signup_flood.py", ["--addresses", "2", "--each", "1"], "owner's sign-in during"),
    ("ratings.py", ["--games", "20"], "SQLite store rate_game (one transaction)"),
    ("store_write.py", ["--games", "3", "--plies", "4"], "us per write"),
    (
        "profile.py",
        [
            "--games",
            "30",
            "--rounds",
            "1",
            "--exports",
            "1",
            "--data",
            "{tmp}/history.sqlite3",
        ],
        "first (worker starting)",
    ),
    (
        "offload.py",
        [
            "--tree-moves",
            "100",
            "--rounds",
            "1",
            "--attackers",
            "1",
            "--moves",
            "2",
            "--pages",
            "1",
        ],
        "computer reply, attacked",
    ),
]


@pytest.mark.parametrize(("script", "arguments", "row"), BENCHES, ids=[b[0] for b in BENCHES])
def test_the_benchmark_runs_and_reports(
    script: str, arguments: list[str], row: str, tmp_path: Path
) -> None:
    """`{tmp}` in an argument is the test's own folder: no file is shared between runs."""
    arguments = [argument.replace("{tmp}", str(tmp_path)) for argument in arguments]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *arguments],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert row in done.stdout, done.stdout[-2000:]


def test_the_comparison_runs_a_benchmark_at_two_revisions() -> None:
    """bench/compare.py against HEAD (a temporary worktree) on insight.py's tiny sample: every
    row the benchmark prints comes back with both figures and a ratio."""
    alone = subprocess.run(
        [sys.executable, "bench/insight.py", "--repeat", "1", "--positions", "4"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert alone.returncode == 0, alone.stderr[-2000:]
    rows = [re.split(r"\s{2,}", line)[0] for line in alone.stdout.splitlines()[2:]]
    driver = ["bench/compare.py", "--before", "HEAD", "--rounds", "1", "bench/insight.py"]
    done = subprocess.run(
        [sys.executable, *driver, "--args", "insight.py=--positions 4", "--", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "bench/insight.py --repeat 1 --positions 4: median" in done.stdout, done.stdout
    assert "make_insight" in rows, alone.stdout
    for row in rows:
        figures = rf"^{re.escape(row)}\s+\d+\s+\d+\s+\d+\.\d\dx"
        assert re.search(figures, done.stdout, re.MULTILINE), done.stdout
