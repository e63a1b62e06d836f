"""The trainer's truths against Stockfish: the share of the moves it calls right that lose material.

Usage: `python bench/train_soundness.py [--drills N] [--seed S] [--depth D] [--show N]`

For each checked kind (safe, threats, fork, and blunder checks answered "safe") it samples
`--drills` drills (30 by default) with something to claim from the shipped position set, in a
seeded order, and asks Debian's Stockfish (/usr/games/stockfish) at `--depth` (12 by default)
about every move the drill calls right. A move is unsound when it loses material against what
the mover keeps by doing nothing; a threat or fork is empty when nothing falls and nothing must
be answered: the exact definitions are in tests/support/soundness_oracle.py. Prints per kind
the drills, the claimed moves, the unsound ones and the empty ones, then `--show` examples of
each. Run it under `nice`: it keeps one core busy for a minute or two.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.support.soundness_oracle import (
    CHECKED_KINDS,
    Judgement,
    claims_of,
    find_stockfish,
    open_oracle,
    sample_drills,
)


def describe(judged: Judgement) -> str:
    claim = judged.claim
    passed = "" if judged.passed is None else f" passed {judged.passed}"
    return (
        f"    {claim.said} ({claim.uci}) in {claim.fen}\n"
        f"      best {judged.best} null {judged.null} material {judged.material} "
        f"after {judged.after}{passed}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drills", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=12)
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(CHECKED_KINDS))
    args = parser.parse_args()
    path = find_stockfish()
    if path is None:
        sys.exit("no Stockfish: install Debian's stockfish package (/usr/games/stockfish)")
    print(
        f"Stockfish {path} at depth {args.depth}, {args.drills} drills per kind, seed {args.seed}"
    )
    print(f"  {'kind':8s} {'drills':>6s} {'moves':>6s} {'unsound':>12s} {'empty':>12s}")
    shown: list[str] = []
    total_moves = total_bad = 0
    start = time.perf_counter()
    with open_oracle(path, args.depth) as oracle:
        for kind in args.kinds.split(","):
            drills = sample_drills(kind, args.drills, args.seed)
            judged = [oracle.judge(claim) for drill in drills for claim in claims_of(drill)]
            bad = [j for j in judged if j.loses_material]
            empty = [j for j in judged if j.is_empty]
            total_moves += len(judged)
            total_bad += len(bad)
            print(
                f"  {kind:8s} {len(drills):6d} {len(judged):6d} {_share(bad, judged):>12s} "
                f"{_share(empty, judged) if kind in ('threats', 'fork') else '':>12s}"
            )
            shown += [f"  {kind} unsound:\n{describe(j)}" for j in bad[: args.show]]
            shown += [f"  {kind} empty:\n{describe(j)}" for j in empty[: args.show]]
    print(f"  {'all':8s} {'':6s} {total_moves:6d} {total_bad:6d} unsound")
    print(f"({time.perf_counter() - start:.0f} s)")
    if shown:
        print("examples:")
        print("\n".join(shown))


def _share(found: list[Judgement], of: list[Judgement]) -> str:
    if not of:
        return "-"
    return f"{len(found)} ({100 * len(found) / len(of):.0f} %)"


if __name__ == "__main__":
    main()
