"""How long the threat insight takes per position: the figures behind "fast enough to feel instant".

Usage: `python bench/insight.py [--positions N] [--seed S] [--repeat R]`

Positions come from seeded random games (a random mover on both sides, one position every few
plies, the game replayed from its start), so the sample holds openings, middlegames with many
pieces and bare endgames alike. For each position, and for one seeded random legal move of it,
each operation the server runs is timed with `time.perf_counter_ns`, `--repeat` times (3 by
default), keeping the fastest call: other processes can only add time, so the best of a few
calls shows the cost of the position rather than the machine's load (`--repeat 1` shows it
with the load):

- `classify_destinations`: the safe/contested/losing label of every legal move (sent with the
  legal destinations after every move);
- `preview`: the threat map after one move with its derived facts (asked while a piece is held
  over a square), both without and with the current threat map handed in, as the server can;
- `describe_change`: what the last move changed (after every move), the map handed in;
- `make_insight`: x-rays, pin lines, the last move's change and words, every square in words
  (after every move; the position's last move is the one played to reach it);
- `threat_map` and `make_xray_map`, for scale: the state already carries the first.

The table gives the median, the 99th percentile and the maximum in microseconds over all
positions.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore import Board, Move
from chesscore.analysis.insight import describe_change, make_insight, preview
from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import ThreatMap, make_threat_map
from chesscore.analysis.xray import make_xray_map


def sample_positions(count: int, seed: int, stride: int = 4) -> list[tuple[Board, Move]]:
    """`count` (position, random legal move) pairs from seeded random games."""
    rng = random.Random(seed)
    samples: list[tuple[Board, Move]] = []
    while len(samples) < count:
        board = Board()
        while board.outcome() is None and board.ply < 300 and len(samples) < count:
            moves = sorted(board.legal_moves(), key=lambda move: move.uci())
            if board.ply % stride == 0:
                samples.append((board.copy(), rng.choice(moves)))
            board.push(rng.choice(moves))
    return samples


def time_once(
    operation: Callable[[Board, Move, ThreatMap], object],
    board: Board,
    move: Move,
    threats: ThreatMap,
) -> float:
    """Microseconds one call takes."""
    start = time.perf_counter_ns()
    operation(board, move, threats)
    return (time.perf_counter_ns() - start) / 1000


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def parse_sampling_args(description: str) -> argparse.Namespace:
    """--positions, --seed and --repeat, the options of the benches over sampled positions
    (this one and bench/state.py)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="calls per sample; best kept")
    return parser.parse_args()


def print_table(heading: str, rows: dict[str, list[float]], count: int, seed: int) -> None:
    """The median, 99th percentile and maximum of each row, under a line naming the sample."""
    print(f"{count} positions from seeded random games (seed {seed}); "
          f"Python {platform.python_version()} on {platform.machine()}")  # fmt: skip
    print(f"{heading:<32}{'median':>10}{'p99':>10}{'max':>10}")
    for name, values in rows.items():
        print(
            f"{name:<32}{statistics.median(values):>10.0f}"
            f"{percentile(values, 0.99):>10.0f}{max(values):>10.0f}"
        )


def main() -> None:
    args = parse_sampling_args(__doc__.splitlines()[0])
    samples = sample_positions(args.positions, args.seed)
    operations: dict[str, Callable[[Board, Move, ThreatMap], object]] = {
        "classify_destinations": lambda board, move, threats: classify_destinations(board),
        "preview (one move)": lambda board, move, threats: preview(board, move),
        "preview, map handed in": lambda board, move, threats: preview(board, move, threats),
        "describe_change": lambda board, move, threats: describe_change(board, move, threats),
        "make_insight": lambda board, move, threats: make_insight(board, threats),
        "threat_map": lambda board, move, threats: make_threat_map(board),
        "make_xray_map": lambda board, move, threats: make_xray_map(board),
    }
    times: dict[str, list[float]] = {name: [] for name in operations}
    for board, move in samples:
        threats = make_threat_map(board)
        for name, operation in operations.items():
            best = min(time_once(operation, board, move, threats) for _ in range(args.repeat))
            times[name].append(best)
    print_table("operation (microseconds)", times, len(samples), args.seed)


if __name__ == "__main__":
    main()
