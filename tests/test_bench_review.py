"""bench/review.py still runs (issue 18's review benchmark), on a tiny sample: the agreement
with Stockfish on the first plies of one game, and the timing through a real server on a short
game. As in tests/test_bench_smoke.py nothing here judges a figure; a benchmark that no longer
runs fails here. The agreement case reads the committed oracle (`bench/data/review_oracle.json`
holds every position of the benchmark's games), copied so nothing is written into the
repository, and starts no Stockfish: the run must say it searched nothing."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORACLE = ROOT / "bench" / "data" / "review_oracle.json"


def run_bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "review.py"), *arguments],
        capture_output=True,
        text=True,
        timeout=540,  # against hanging only: Stockfish in a niced worker crawls at load 15
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_agreement_runs_on_the_first_plies_of_one_game(tmp_path: Path) -> None:
    oracle = tmp_path / "oracle.json"
    shutil.copy(ORACLE, oracle)
    cached = oracle.read_bytes()
    done = run_bench("--games", "1", "--plies", "8", "--skip-timing", "--oracle", str(oracle))
    assert "1 games, 8 plies, 9 positions (" in done.stdout, done.stdout
    assert "blunders: recall of Stockfish's" in done.stdout, done.stdout
    assert "(goal >= 90%)" in done.stdout and "(goal >= 80%)" in done.stdout, done.stdout
    assert "confusion (rows: Stockfish's class, columns: ours)" in done.stdout, done.stdout
    assert "oracle:" not in done.stderr, done.stderr  # all cached: no search
    assert oracle.read_bytes() == cached


def test_the_timing_runs_on_a_short_game_through_a_real_server() -> None:
    done = run_bench("--games", "1", "--skip-agreement", "--timing-plies", "10", "--moves", "4")
    assert "10 plies, posted as PGN" in done.stdout, done.stdout
    assert "first judged ply pushed:" in done.stdout, done.stdout
    assert "review done:" in done.stdout, done.stdout
