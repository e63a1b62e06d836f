"""The threat trainer: how long choosing and judging a drill takes, and how the shipped set spreads.

Usage: `python bench/train.py [--rounds N] [--sample N] [--seed S]`

First the shipped position set (server/training/data/games.pgn): its games and positions, and
for `--sample` positions of it (400 by default) the level of the drill of every kind made on
each, so the spread of the difficulty over the three levels shows per kind. Then the server's
own `TrainingService` (as the API calls it, without HTTP) hands out a drill of every kind at
every level and judges its right answer, `--rounds` times (20 by default) each: the time of
`next_drill` plus `answer` per drill, in milliseconds, median, 90th percentile and maximum,
per kind and overall. The positions' facts are cached by the service as on the game page, so
the rounds after the first find most positions' facts already made (the first round, a cold
cache, is timed apart). The goal of issue 28: under 5 ms median on this machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore.rules.pgn_import import read_games
from chesscore.training import KINDS, Drill, PositionFacts, make_drill
from chesscore.training.difficulty import LEVELS
from chesscore.training.drills import MOVE_KINDS, SQUARE_KINDS
from chesscore.training.judging import Answer, PinAnswer, move_key
from server.shared.buckets import AddressBuckets
from server.training.positions import GAMES_FILE, shipped_positions
from server.training.requests import AnswerRequest
from server.training.service import TrainingService


def right_answer(drill: Drill) -> tuple[str, Answer]:
    """The drill's own answer in the form a client sends it (parsed)."""
    if drill.kind == "pins":
        return "pairs", PinAnswer(frozenset(drill.pin_pairs))
    if drill.kind in SQUARE_KINDS:
        return "squares", frozenset(drill.squares)
    if drill.kind in MOVE_KINDS:
        return "moves", frozenset(move_key(move) for move in drill.moves)
    if drill.kind == "count":
        return "count", (*drill.count, drill.exchange)
    return "yesno", drill.safe


def print_spread(sample: int, seed: int) -> None:
    positions = shipped_positions()
    games = len(read_games(GAMES_FILE.read_text(encoding="utf-8")))
    print(f"shipped set: {games} games, {len(positions)} positions")
    rng = random.Random(seed)
    chosen = rng.sample(positions, min(sample, len(positions)))
    print(
        f"levels of the drills made on {len(chosen)} of them (share of level 1 / 2 / 3; "
        "of the finding kinds, of the drills with something to find):"
    )
    for kind in KINDS:
        levels: Counter[int] = Counter()
        empty = 0
        for position in chosen:
            drill = make_drill(PositionFacts(position.fen), kind, rng, position.played)
            if drill is not None and drill.finds_nothing:
                empty += 1
            elif drill is not None:
                levels[drill.level] += 1
        total = sum(levels.values())
        shares = " / ".join(f"{100 * levels[level] / total:3.0f} %" for level in LEVELS)
        nothing = f", {empty} with nothing to find" if empty else ""
        print(f"  {kind:9s} {shares}   ({total} drills{nothing})")


def time_service(rounds: int, seed: int) -> None:
    unlimited = AddressBuckets(10**9, 1e-6)
    service = TrainingService(rng=random.Random(seed), buckets=unlimited)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cold: list[float] = []
    for round_number in range(rounds):
        for kind in KINDS:
            for level in LEVELS:
                start = time.perf_counter()
                given = service.next_drill(kind, level, "bench")
                form, value = right_answer(given.drill)
                judged = service.answer(AnswerRequest(given.id, form, value), "bench")
                spent = (time.perf_counter() - start) * 1000
                assert judged.verdict.correct
                (cold if round_number == 0 else times[kind]).append(spent)
    print(f"choose + judge, ms per drill ({rounds - 1} warm rounds x 3 levels per kind):")
    print(f"  {'kind':9s} {'median':>7s} {'p90':>7s} {'max':>7s}")
    for kind, kind_times in times.items():
        print(f"  {kind:9s} {_figures(kind_times)}")
    every = [value for kind_times in times.values() for value in kind_times]
    print(f"  {'all':9s} {_figures(every)}")
    print(f"  {'cold':9s} {_figures(cold)}   (first round, empty facts cache)")


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):7.2f} {p90:7.2f} {ordered[-1]:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print_spread(args.sample, args.seed)
    time_service(max(2, args.rounds), args.seed)


if __name__ == "__main__":
    main()
