"""How many blunders of the shipped games get an explanation whose claims hold (issue 31).

Usage: `python bench/explain_claims.py [--show N] [--list] [--as-searched]`

Reads the recorded Stockfish lines of `tests/data/explain_lines.json` (every mistake and
blunder of `bench/data/review_games.pgn` by the depth-22 oracle, written by
`bench/record_explain_lines.py`), explains each ply as the review does (the first line of
the position before the move as the best line, the first line of the position after it as the
opponent's reply), and checks every claim of every explanation against the line it cites with
python-chess (tests/support/claims_oracle.py). Prints, for the blunders and for the mistakes:

- the share with a concrete claim (material counted both ways, a mate, a stalemate) and
  every claim holding (goal >= 90 % of the blunders), and the share with any claim (a named
  factor's too) and every claim holding;
- the share with no concrete claim (a named factor only, or the class alone);
- the claims that fail, if any (each with its ply);

the count of each claim kind, and with `--show N` N blunders' texts with their lines (the
"before and after" of the issue), `--list` every blunder left without a concrete claim. The
recorder continues a first line cut short; `--as-searched` takes those moves off again, as a
review's single search would give the line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chesscore.analysis.explain import CONCRETE, Explanation, explain_move  # noqa: E402
from chesscore.analysis.judgement import Evaluation, Judgement  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402
from chesscore.rules.move import Move  # noqa: E402
from tests.support.claims_oracle import claim_errors  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "explain_lines.json"
GOAL = 90.0


def load_fixture(path: Path = FIXTURE, continued: bool = True) -> dict[str, Any]:
    """The fixture; without `continued`, each first line as Stockfish gave it, the moves the
    recorder added to a line cut short taken off (what a review's single search sees)."""
    data: dict[str, Any] = json.loads(path.read_text())
    if not continued:
        for entry in data["plies"]:
            for lines in (entry["before"], entry["after"]):
                if lines and lines[0].get("continued"):
                    lines[0]["pv"] = lines[0]["pv"][: -lines[0]["continued"]]
    return data


def moves_of(board: Board, ucis: list[str]) -> list[Move]:
    """The UCI moves as chesscore's moves, each legal in turn from `board`."""
    replay, moves = board.copy(), []
    for uci in ucis:
        moves.append(replay.parse_uci(uci))
        replay.push(moves[-1])
    return moves


def explain_ply(entry: dict[str, Any]) -> Explanation:
    """The review's explanation of one recorded ply from its first lines."""
    board = Board.from_fen(entry["fen"])
    played = board.parse_uci(entry["move"])
    after = board.copy()
    after.push(played)
    before = entry["before"][0]
    reply = entry["after"][0] if entry["after"] else {"eval": None, "pv": []}
    return explain_move(
        board,
        played,
        Judgement[entry["class"].upper()],
        moves_of(board, before["pv"]),
        Evaluation.from_json(before["eval"]),
        moves_of(after, reply["pv"]),
        Evaluation.from_json(reply["eval"]) if reply["eval"] else None,
    )


def tally(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Per class: plies, those with a concrete claim all of whose claims hold, those with no
    concrete claim, the failing claims, the claim kinds."""
    result: dict[str, Any] = {}
    for name in ("blunder", "mistake"):
        rows = [entry for entry in entries if entry["class"] == name]
        held = bare = any_held = 0
        failures, kinds = [], Counter[str]()
        for entry in rows:
            explanation = explain_ply(entry)
            errors = [error for claim in explanation.claims for error in claim_errors(claim)]
            concrete = any(claim.kind in CONCRETE for claim in explanation.claims)
            kinds.update(claim.kind.value for claim in explanation.claims)
            held += concrete and not errors
            any_held += bool(explanation.claims) and not errors
            bare += not concrete
            failures += [(entry, explanation.text, error) for error in errors]
        result[name] = {"plies": len(rows), "held": held, "bare": bare, "any": any_held,
                        "failures": failures, "kinds": kinds}  # fmt: skip
    return result


def sans(board: Board, moves: list[Move]) -> str:
    replay, words = board.copy(), []
    for move in moves:
        words.append(replay.san(move))
        replay.push(move)
    return " ".join(words)


def show(entries: list[dict[str, Any]], count: int) -> None:
    """`count` blunders spread over the fixture, each text with the lines it rests on."""
    blunders = [entry for entry in entries if entry["class"] == "blunder"]
    step = len(blunders) / count
    for entry in (blunders[int(i * step)] for i in range(count)):
        board = Board.from_fen(entry["fen"])
        played = board.parse_uci(entry["move"])
        after = board.copy()
        after.push(played)
        before, reply = entry["before"][0], (entry["after"] or [{"eval": None, "pv": []}])[0]
        explanation = explain_ply(entry)
        print(f"## game {entry['game']}, ply {entry['ply']}: {board.san(played)}\n")
        print(f"- position before: `{entry['fen']}`")
        print(f"- best line ({before['eval']}): {sans(board, moves_of(board, before['pv']))}")
        print(
            f"- line after the move ({reply['eval']}): {sans(after, moves_of(after, reply['pv']))}"
        )
        print(f'- explanation: "{explanation.text}"')
        for claim in explanation.claims:
            state = "; ".join(claim_errors(claim)) or "holds"
            line = sans(
                Board.from_fen(claim.fen), moves_of(Board.from_fen(claim.fen), list(claim.line))
            )
            print(f"  - claim {claim.kind.value} (line {line}): {state}")
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=0, help="print N blunders' explanations")
    parser.add_argument("--list", action="store_true", help="list blunders without a claim")
    parser.add_argument(
        "--as-searched", action="store_true",
        help="the first lines as one search gave them, without the recorder's continuations",
    )  # fmt: skip
    args = parser.parse_args()
    data = load_fixture(continued=not args.as_searched)
    entries = data["plies"]
    if args.show:
        show(entries, args.show)
        return
    lines = "as searched" if args.as_searched else "short lines continued"
    print(f"{data['engine']}, {data['nodes']} nodes a position, first lines ({lines})")
    for name, row in tally(entries).items():
        plies = row["plies"]

        def share(count: int) -> str:
            return f"{count} ({100 * count / plies:.1f} %)"  # noqa: B023 (used at once)

        goal = ", goal >= 90 %" if name == "blunder" else ""
        print(
            f"{name}s: {plies}; a concrete claim, every claim holding: {share(row['held'])}"
            f"{goal}; some claim, every claim holding: {share(row['any'])}; no concrete "
            f"claim: {share(row['bare'])}; claims failing: {len(row['failures'])}"
        )
        print("  claims: " + ", ".join(f"{k} {n}" for k, n in row["kinds"].most_common()))
        for entry, text, error in row["failures"]:
            print(f"  FAILS game {entry['game']} ply {entry['ply']}: {error}\n    {text}")
    if args.list:
        for entry in entries:
            explanation = explain_ply(entry)
            if entry["class"] == "blunder" and not any(
                claim.kind in CONCRETE for claim in explanation.claims
            ):
                where = f"game {entry['game']} ply {entry['ply']} {entry['fen']}"
                print(f"{where}\n    {explanation.text}")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # `| head`
        sys.stderr.close()
