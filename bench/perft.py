"""Perft speed of chesscore beside python-chess, measured side by side in one process.

Usage: `python bench/perft.py [--deep | --shallow] [--rounds N]`

Both libraries count the same trees the same way: the legal moves at the last ply are counted
without being made ("bulk counting": chesscore's `perft`, python-chess's
`board.legal_moves.count()`). Rounds alternate which library goes first, per position, so
that a busy machine slows both alike. For each position the table shows the nodes, each side's
nodes per second (total nodes over total time across rounds) and the ratio; the last line is
the overall ratio of total nodes over total time. Node counts are checked against each other
and against the published counts before any time is reported. The start position, Kiwipete
and position 3 come from tests/data/standard.epd; the classic positions 4, 5 and 6 (with their
published counts) are not in that file and are written out here. `--deep` goes one ply further
and takes hours (position 6 at depth 5 alone is 164 million nodes per side and round);
`--shallow` stops one ply short, seconds in all, for tests/test_bench_smoke.py.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine import cpu_name
from chesscore import Board, perft

EPD = Path(__file__).resolve().parent.parent / "tests" / "data" / "standard.epd"

# name -> (FEN, published counts by depth); the first three are looked up in the EPD file.
CLASSIC = {
    "position 4": (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        {1: 6, 2: 264, 3: 9467, 4: 422333, 5: 15833292},
    ),
    "position 5": (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        {1: 44, 2: 1486, 3: 62379, 4: 2103487, 5: 89941194},
    ),
    "position 6": (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        {1: 46, 2: 2079, 3: 89890, 4: 3894594, 5: 164075551},
    ),
}
EPD_NAMES = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "Kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
}
RUNS = [
    ("start", 4),
    ("Kiwipete", 3),
    ("position 3", 5),
    ("position 4", 3),
    ("position 4", 4),
    ("position 5", 3),
    ("position 5", 4),
    ("position 6", 3),
    ("position 6", 4),
]


def load_positions() -> dict[str, tuple[str, dict[int, int]]]:
    """name -> (FEN, published counts) for every benchmark position."""
    by_fen = {}
    for line in EPD.read_text().splitlines():
        fen, *fields = (part.strip() for part in line.split(";"))
        by_fen[fen] = {int(f.split()[0][1:]): int(f.split()[1]) for f in fields}
    positions = {name: (fen, by_fen[fen]) for name, fen in EPD_NAMES.items()}
    positions.update(CLASSIC)
    return positions


def python_chess_perft(board: chess.Board, depth: int) -> int:
    """python-chess perft with the same bulk counting at the last ply."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_chess_perft(board, depth - 1)
        board.pop()
    return nodes


def timed(function: object, board: object, depth: int) -> tuple[int, float]:
    start = time.perf_counter()
    nodes = function(board, depth)  # type: ignore[operator]
    return nodes, time.perf_counter() - start


def machine() -> str:
    return (
        f"{cpu_name()}, {os.cpu_count()} cores; {platform.python_implementation()} "
        f"{platform.python_version()}; python-chess {chess.__version__}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="one ply deeper on every position")
    parser.add_argument("--shallow", action="store_true", help="one ply less on every position")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per position (default 3)")
    args = parser.parse_args()
    positions = load_positions()
    print("perft with bulk counting at the last ply (both sides count, not make, the last ply)")
    print(f"machine: {machine()}; {args.rounds} alternating rounds")
    print(f"{'position':<12} {'depth':>5} {'nodes':>10} {'ours n/s':>10} {'python-chess':>12} "
          f"{'ratio':>6}")  # fmt: skip
    totals = [0, 0.0, 0.0]  # nodes, our time, their time
    for name, depth in RUNS:
        depth += args.deep - args.shallow
        fen, published = positions[name]
        ours_time = theirs_time = 0.0
        for round_index in range(args.rounds):
            order = [("ours", perft, Board(fen)), ("theirs", python_chess_perft, chess.Board(fen))]
            for side, function, board in order[:: 1 if round_index % 2 == 0 else -1]:
                nodes, seconds = timed(function, board, depth)
                expected = published.get(depth, nodes)
                if nodes != expected:
                    sys.exit(
                        f"{side} counted {nodes} nodes for {name} depth {depth}, not {expected}"
                    )
                if side == "ours":
                    ours_time += seconds
                else:
                    theirs_time += seconds
        total_nodes = nodes * args.rounds
        totals[0] += total_nodes
        totals[1] += ours_time
        totals[2] += theirs_time
        ours_rate, theirs_rate = total_nodes / ours_time, total_nodes / theirs_time
        print(f"{name:<12} {depth:>5} {nodes:>10} {ours_rate:>10,.0f} {theirs_rate:>12,.0f} "
              f"{ours_rate / theirs_rate:>6.2f}")  # fmt: skip
    nodes_total, ours_total, theirs_total = totals
    print(
        f"overall: ours {nodes_total / ours_total:,.0f} n/s, python-chess "
        f"{nodes_total / theirs_total:,.0f} n/s, ratio {theirs_total / ours_total:.2f}"
    )


if __name__ == "__main__":
    main()
