"""Puzzles' core: how long reading a row of lichess's CSV and judging a puzzle's themes take,
the work `python -m server.puzzles import FILE` does per row of a file of millions.

Usage: `python bench/puzzles_core.py [--rows N]`

Reads the shipped set (chesscore/data/puzzles.csv) `--rows` rows at a time through
`read_puzzles` (every move of each row played on a board, the themes mapped), then judges
each puzzle's themes again with `find_themes` and measures its first rating's difficulty
facts. Times are per puzzle in microseconds: median, 90th percentile and maximum, and the
import's rows per second. No figure is judged here: an import runs in a worker, not in the
serving loop.
"""

from __future__ import annotations

import argparse
import csv
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chesscore.puzzles import find_themes, measure_difficulty, parse_puzzle_row  # noqa: E402
from chesscore.puzzles.csvformat import HEADER  # noqa: E402

SHIPPED = ROOT / "chesscore" / "data" / "puzzles.csv"


def report(label: str, seconds: list[float]) -> None:
    micros = sorted(s * 1e6 for s in seconds)
    p90 = micros[int(len(micros) * 0.9) - 1] if len(micros) >= 10 else micros[-1]
    print(
        f"{label:<32} {len(micros):>6} puzzles  median {statistics.median(micros):8.1f} us"
        f"  p90 {p90:8.1f} us  max {micros[-1]:8.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()
    rows = list(csv.reader(SHIPPED.read_text(encoding="utf-8").splitlines()))[1:][: args.rows]
    print(f"{platform.python_implementation()} {platform.python_version()}; {len(rows)} rows")
    assert len(HEADER) == len(rows[0])
    parsing, judging, measuring = [], [], []
    puzzles = []
    for number, fields in enumerate(rows, 2):
        started = time.perf_counter()
        puzzles.append(parse_puzzle_row(fields, number))
        parsing.append(time.perf_counter() - started)
    for puzzle in puzzles:
        started = time.perf_counter()
        find_themes(puzzle.fen, puzzle.moves)
        judging.append(time.perf_counter() - started)
        started = time.perf_counter()
        measure_difficulty(puzzle.fen, puzzle.moves, found_quickly=True)
        measuring.append(time.perf_counter() - started)
    report("a row read and checked", parsing)
    report("its themes judged", judging)
    report("its difficulty measured", measuring)
    # The median, not the mean: on a machine shared with other work a few rows wait for the CPU.
    print(f"import: {1 / statistics.median(parsing):,.0f} rows a second at the median (one core)")


if __name__ == "__main__":
    main()
