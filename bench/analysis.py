"""The analysis board's engine beside Stockfish: depth reached in a given time, and best moves.

Usage: `python bench/analysis.py [--positions N] [--times 1 3 10] [--multipv 3]
[--reference-depth 18] [--pgn-rounds 5]`

On the 20 middlegame positions of `bench/data/middlegames.epd` (famous games), our multi-PV
analysis (`chesscore.engine.analyse`, in this process, as a worker runs it) and Stockfish
(Debian's `/usr/games/stockfish`, one thread, 64 MB hash, the same number of lines, driven
through python-chess) each analyse every position for each of `--times` seconds, with fresh
tables each time; the table shows the depth each finished (for us: the deepest depth whose
every line is searched) and whether our best move is the one Stockfish picks at
`--reference-depth` (18), the "best move" of this bench. Then the import of a 200-ply PGN with
variations, comments, clocks and evaluations (`bench/data/long_game.pgn`, written by
`bench/make_long_game.py`) by `chesscore.rules.pgn_import.read_games`: the median of
`--pgn-rounds` reads. Without Stockfish installed, its columns are left out.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.machine import machine  # noqa: E402
from chesscore.engine.analyse import analyse  # noqa: E402
from chesscore.engine.search import SearchLimits  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402
from chesscore.rules.pgn_import import read_games  # noqa: E402

POSITIONS = ROOT / "bench" / "data" / "middlegames.epd"
LONG_GAME = ROOT / "bench" / "data" / "long_game.pgn"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
STOCKFISH_OPTIONS = {"Threads": 1, "Hash": 64}


@dataclass(frozen=True)
class Position:
    name: str
    fen: str


@dataclass
class Row:
    """One position's figures: per time, our depth and best move, Stockfish's depth."""

    position: Position
    ours: list[tuple[int, str]]
    theirs: list[int]
    reference: str | None


def read_positions(count: int) -> list[Position]:
    positions = []
    for line in POSITIONS.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        board, ops = chess.Board.from_epd(line)
        positions.append(Position(str(ops.get("id", "?")), board.fen()))
    return positions[:count]


def our_depth(fen: str, seconds: float, multipv: int) -> tuple[int, str]:
    """The depth our analysis finishes in `seconds`, and its best move (UCI)."""
    result = analyse(Board.from_fen(fen), SearchLimits(movetime=seconds), multipv)
    return result.depth, result.lines[0].moves[0].uci()


def their_depth(engine: chess.engine.SimpleEngine, fen: str, seconds: float, multipv: int) -> int:
    """The depth Stockfish reaches in `seconds` (a fresh hash table each time)."""
    engine.configure({"Clear Hash": None})
    infos = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds), multipv=multipv)
    return int(infos[0].get("depth", 0))


def reference_move(engine: chess.engine.SimpleEngine, fen: str, depth: int) -> str:
    engine.configure({"Clear Hash": None})
    info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=depth))
    return info["pv"][0].uci()


def measure(args: argparse.Namespace, engine: chess.engine.SimpleEngine | None) -> list[Row]:
    rows = []
    for index, position in enumerate(read_positions(args.positions), 1):
        ours = [our_depth(position.fen, seconds, args.multipv) for seconds in args.times]
        theirs: list[int] = []
        reference = None
        if engine is not None:
            theirs = [their_depth(engine, position.fen, s, args.multipv) for s in args.times]
            reference = reference_move(engine, position.fen, args.reference_depth)
        rows.append(Row(position, ours, theirs, reference))
        print(f"  {index}/{args.positions} {position.name}", file=sys.stderr, flush=True)
    return rows


def print_rows(rows: list[Row], args: argparse.Namespace, stockfish: bool) -> None:
    times = [f"{seconds:g}s" for seconds in args.times]
    header = "position".ljust(44) + "".join(f"ours {t}".rjust(10) for t in times)
    if stockfish:
        header += "".join(f"sf {t}".rjust(8) for t in times) + f"  sf d{args.reference_depth}"
    print(header)
    for row in rows:
        line = row.position.name[:43].ljust(44)
        for depth, move in row.ours:
            mark = "=" if move == row.reference else " "
            line += f"{depth:>3} {move:<5}{mark}".rjust(10)
        if stockfish:
            line += "".join(f"{depth:>8}" for depth in row.theirs) + f"  {row.reference}"
        print(line)


def print_summary(rows: list[Row], args: argparse.Namespace, stockfish: bool) -> None:
    print()
    header = "time".ljust(7) + "ours depth: median (min-max)".ljust(32)
    print(header + "stockfish depth: median (min-max)".ljust(36) + "same best move")
    for column, seconds in enumerate(args.times):
        ours = [row.ours[column][0] for row in rows]
        line = f"{seconds:<6g} {_spread(ours):<31}"
        if stockfish:
            theirs = [row.theirs[column] for row in rows]
            same = sum(row.ours[column][1] == row.reference for row in rows)
            line += f" {_spread(theirs):<35} {same}/{len(rows)} ({100 * same / len(rows):.0f}%)"
        print(line)


def _spread(values: list[int]) -> str:
    return f"{statistics.median(values):g} ({min(values)}-{max(values)})"


def time_pgn_import(rounds: int) -> None:
    text = LONG_GAME.read_text()
    seconds = []
    for _ in range(rounds):
        start = time.perf_counter()
        games = read_games(text)
        seconds.append(time.perf_counter() - start)
    plies = len(games[0].moves)
    print()
    print(
        f"PGN import ({LONG_GAME.name}: {plies} plies, {_count_nodes(games[0].moves)} moves with"
        f" the variations, {len(text):,} bytes): median {1000 * statistics.median(seconds):.1f}"
        f" ms, max {1000 * max(seconds):.1f} ms over {rounds} reads"
    )


def _count_nodes(nodes: tuple[object, ...]) -> int:
    total = 0
    for node in nodes:
        total += 1
        for line in getattr(node, "variations", ()):
            total += _count_nodes(line)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="how many (default 20)")
    parser.add_argument("--times", type=float, nargs="+", default=[1.0, 3.0, 10.0])
    parser.add_argument("--multipv", type=int, default=3, help="lines, both engines (default 3)")
    parser.add_argument("--reference-depth", type=int, default=18)
    parser.add_argument("--pgn-rounds", type=int, default=5)
    args = parser.parse_args()
    engine = None
    if Path(STOCKFISH).exists():
        engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
        engine.configure(STOCKFISH_OPTIONS)
    print(f"machine: {machine()}, Python {sys.version.split()[0]}")
    name = engine.id.get("name", "?") if engine is not None else "not installed: left out"
    print(f"ours: chesscore multi-PV {args.multipv}; Stockfish: {name} ({STOCKFISH_OPTIONS})")
    print(f"'=': our best move is Stockfish's at depth {args.reference_depth}")
    print()
    try:
        rows = measure(args, engine)
    finally:
        if engine is not None:
            engine.quit()
    print_rows(rows, args, engine is not None)
    print_summary(rows, args, engine is not None)
    time_pgn_import(args.pgn_rounds)


if __name__ == "__main__":
    main()
