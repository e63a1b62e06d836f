"""Tuning the review's evaluation pass against Stockfish (issue 18): what our engine's numbers
at a given effort agree with, measured offline.

Two steps, so that one slow recording serves many policies:

1. ``record``: every position of the review benchmark's games (`bench/data/review_games.pgn`
   of the bench branch, read only) is searched by our engine as the review searches it (one
   `Searcher` along each game), every iteration kept: depth, score (White's view), best move,
   nodes so far. Iterations go on while the next one is predicted to stay within
   ``--nodes`` (default 70,000, about three times what half a second buys here), and the file
   is written as it goes (``--out``, default /tmp/review_tune_record.json; a rerun skips the
   games done).
2. ``analyse``: each policy picks, for every position, one of its recorded iterations (a node
   budget stands for the time budget, at ``--nps`` nodes a second, so a loaded machine does not
   blur the comparison), the plies are judged as `chesscore.review.judge` judges them, and
   the blunder marks are compared with Stockfish's (its depth-18 evaluations,
   `bench/data/review_oracle.json`, judged by the same rules): recall of Stockfish's blunders,
   the share of our blunder marks it agrees with (a mark counts as agreed when Stockfish calls
   the move a blunder, and also, in a second column, when it calls it at least a mistake), and
   the mean node cost per position, beside the goals (90 % and 80 %).

    python bench/review_tune.py record [--games N] [--nodes 70000]
    python bench/review_tune.py analyse [--nps 45000] [-v POLICY]
    python bench/review_tune.py real FIRST LAST [--seconds 0.5]   (the code itself, timed)

Policies: ``first`` (the first pass alone: the deepest iteration within the budget),
``first+verify`` (plies whose drop reaches ``VERIFY_POINTS`` get their two positions again
at three times the budget, the deeper numbers kept: `chesscore.review.evaluate`'s
`verify_positions`), and variants of them (same-parity depths, played move at the same depth).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chesscore.analysis.judgement import Evaluation, Judgement, judge_move  # noqa: E402
from chesscore.engine.search import MATE, Searcher, SearchLimits  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402
from chesscore.rules.move import Move  # noqa: E402
from chesscore.rules.pgn_import import read_games  # noqa: E402
from chesscore.rules.squares import WHITE  # noqa: E402

BENCH_DATA = Path("/work/wt-rbench/bench/data")
GAMES = BENCH_DATA / "review_games.pgn"
ORACLE = BENCH_DATA / "review_oracle.json"
RECORD = Path("/tmp/review_tune_record.json")
GROWTH = 2.5

Iteration = dict[str, Any]  # {"d": depth, "e": {"cp"|"mate": n}, "b": uci, "n": nodes}


def position_key(fen: str) -> str:
    return " ".join(fen.split()[:4])


# -- recording ---------------------------------------------------------------------------------


def record_position(searcher: Searcher, board: Board, node_cap: int) -> list[Iteration]:
    """Every iteration of one position's search while the next is predicted within the cap."""
    order, _ = searcher.begin(board, SearchLimits(depth=30, nodes=int(node_cap * 1.5)))
    if not order:
        return []
    sign = 1 if board.turn == WHITE else -1
    iterations: list[Iteration] = []
    last_cost = 0
    for depth in range(1, 31):
        if iterations and iterations[-1]["n"] + GROWTH * last_cost > node_cap:
            break
        before = searcher.nodes
        infos = searcher.iterate_lines(depth, order, 1, time.monotonic())
        if not infos:
            break
        info = infos[0]
        last_cost = searcher.nodes - before
        mate = info.mate_in
        score = {"mate": sign * mate} if mate is not None else {"cp": sign * info.score}
        pv = [m.uci() for m in info.pv]
        iterations.append({"d": depth, "e": score, "b": pv[0], "pv": pv, "n": searcher.nodes})
        if mate is not None and depth >= MATE - abs(info.score):
            break
    return iterations


def record(games_wanted: int | None, node_cap: int, out: Path) -> None:
    games = read_games(GAMES.read_text())[:games_wanted]
    done: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    for number, game in enumerate(games, 1):
        if str(number) in done:
            continue
        started = time.monotonic()
        board = Board.from_fen(game.start_fen)
        searcher = Searcher()
        positions = [record_position(searcher, board, node_cap)]
        for node in game.moves:
            board.push(node.move)
            positions.append(record_position(searcher, board, node_cap))
        done[str(number)] = positions
        out.write_text(json.dumps(done))
        seconds = time.monotonic() - started
        print(f"game {number}: {len(positions)} positions, {seconds:.0f} s", file=sys.stderr)


# -- analysis --------------------------------------------------------------------------------


@dataclass
class Game:
    start: Board
    moves: list[Move]
    boards: list[Board]  # position k: after ply k
    ours: list[list[Iteration]]
    oracle: list[Evaluation | None]


def load_games(path: Path) -> list[Game]:
    recorded = json.loads(path.read_text())
    oracle = json.loads(ORACLE.read_text())["positions"]
    games = []
    for number, game in enumerate(read_games(GAMES.read_text()), 1):
        if str(number) not in recorded:
            continue
        board = Board.from_fen(game.start_fen)
        boards = [board.copy()]
        for node in game.moves:
            board.push(node.move)
            boards.append(board.copy())
        truth = []
        for b in boards:
            entry = oracle.get(position_key(b.fen()))
            if entry is None:
                break
            truth.append(Evaluation.from_json(entry["eval"]) if entry["eval"] else None)
        if len(truth) < len(boards):
            continue  # the oracle is not done with this game
        moves = [node.move for node in game.moves]
        games.append(Game(boards[0], moves, boards, recorded[str(number)], truth))
    return games


SCALE = [1.0]  # our centipawns are multiplied by this before judging (a policy's knob)


def evaluation_of(iteration: Iteration) -> Evaluation:
    evaluation = Evaluation.from_json(iteration["e"])
    if evaluation.cp is not None and SCALE[0] != 1.0:
        return Evaluation(cp=round(evaluation.cp * SCALE[0]))
    return evaluation


def judged(
    boards: Sequence[Board], ply: int, before: Evaluation | None, after: Evaluation | None
) -> Judgement | None:
    """The class of ply `ply` (from 1) as chesscore.review.judge judges it."""
    if before is None:
        return None
    board_after = boards[ply]
    if after is None:
        after = before if board_after.is_check() else Evaluation(cp=0)
    return judge_move(before, after, boards[ply - 1].turn)


Pick = Callable[[list[Iteration], int], Iteration | None]


def within(budget: int) -> Pick:
    """The deepest iteration the review's time policy reaches within `budget` nodes: the next
    iteration is started only when GROWTH times the last is predicted to fit."""

    def pick(iterations: list[Iteration], _: int) -> Iteration | None:
        chosen = None
        last_cost, spent = 0, 0
        for it in iterations:
            if chosen is not None and spent + GROWTH * last_cost > budget:
                break
            last_cost, spent = it["n"] - spent, it["n"]
            if spent > budget * 1.5:
                break  # the hard stop would have cut it
            chosen = it
        return chosen if chosen is not None else (iterations[0] if iterations else None)

    return pick


def with_parity(pick: Pick, parity: int) -> Pick:
    """`pick`, then back to the deepest iteration at or below it whose depth has `parity`."""

    def picked(iterations: list[Iteration], index: int) -> Iteration | None:
        chosen = pick(iterations, index)
        if chosen is None:
            return None
        fitting = [it for it in iterations if it["d"] <= chosen["d"] and it["d"] % 2 == parity]
        return fitting[-1] if fitting else chosen

    return picked


def cost(iterations: list[Iteration], chosen: Iteration | None) -> int:
    """The nodes spent to reach `chosen` (the hard stop's waste is not counted)."""
    return int(chosen["n"]) if chosen else 0


@dataclass
class Tally:
    sf_blunders: int = 0
    found: int = 0
    marks: int = 0
    agreed: int = 0
    agreed_mistake: int = 0
    nodes: int = 0
    positions: int = 0
    misses: list[str] | None = None
    false: list[str] | None = None

    def line(self, name: str) -> str:
        recall = self.found / self.sf_blunders if self.sf_blunders else 0.0
        share = self.agreed / self.marks if self.marks else 0.0
        share2 = self.agreed_mistake / self.marks if self.marks else 0.0
        per = self.nodes / self.positions if self.positions else 0
        return (
            f"{name:<34} recall {recall:6.1%} ({self.found}/{self.sf_blunders})  "
            f"agreed {share:6.1%} ({self.agreed}/{self.marks}; >= mistake {share2:5.1%})  "
            f"{per:8.0f} nodes/position"
        )


def run_policy(
    games: Sequence[Game], first: Pick, verify: Pick | None, verify_points: float,
    same_depth: bool = False, best_rule: bool = True,
) -> Tally:  # fmt: skip
    tally = Tally(misses=[], false=[])
    for number, game in enumerate(games, 1):
        chosen = [first(its, k) for k, its in enumerate(game.ours)]
        tally.positions += len(chosen)
        tally.nodes += sum(cost(its, c) for its, c in zip(game.ours, chosen, strict=True))
        if verify is not None:
            again: set[int] = set()
            for ply in range(1, len(game.moves) + 1):
                if _drop(game, chosen, ply) >= verify_points:
                    again.update((ply - 1, ply))
            for k in sorted(again):
                deeper = verify(game.ours[k], k)
                if deeper is not None and chosen[k] is not None and deeper["d"] > chosen[k]["d"]:
                    tally.nodes += cost(game.ours[k], deeper)
                    chosen[k] = deeper
        for ply in range(1, len(game.moves) + 1):
            before_it, after_it = chosen[ply - 1], chosen[ply]
            before = evaluation_of(before_it) if before_it else None
            after = evaluation_of(after_it) if after_it else None
            if same_depth and before_it and after_it:
                # The played move at the same depth as the best move: the after position one
                # ply shallower than the before position.
                wanted = before_it["d"] - 1
                match = [it for it in game.ours[ply] if it["d"] == max(1, wanted)]
                if match:
                    after = evaluation_of(match[0])
            ours = judged(game.boards, ply, before, after)
            if best_rule and before_it and before_it["b"] == game.moves[ply - 1].uci():
                ours = None
            truth = judged(game.boards, ply, game.oracle[ply - 1], game.oracle[ply])
            where = f"g{number} ply {ply} {game.boards[ply - 1].san(game.moves[ply - 1])}"
            if truth == Judgement.BLUNDER:
                tally.sf_blunders += 1
                if ours == Judgement.BLUNDER:
                    tally.found += 1
                else:
                    tally.misses.append(
                        f"{where}: ours {ours and ours.name} "
                        f"{before and before.text()}->{after and after.text()}"
                        f" sf {_txt(game.oracle[ply - 1])}->{_txt(game.oracle[ply])}"
                    )
            if ours == Judgement.BLUNDER:
                tally.marks += 1
                if truth == Judgement.BLUNDER:
                    tally.agreed += 1
                else:
                    tally.false.append(
                        f"{where}: sf {truth and truth.name} "
                        f"{_txt(game.oracle[ply - 1])}->{_txt(game.oracle[ply])}"
                        f" ours {before and before.text()}->{after and after.text()}"
                    )
                if truth in (Judgement.BLUNDER, Judgement.MISTAKE):
                    tally.agreed_mistake += 1
    return tally


def _txt(e: Evaluation | None) -> str:
    return e.text() if e else "none"


def _drop(game: Game, chosen: list[Iteration | None], ply: int) -> float:
    """The mover's loss of winning chances in points (100 for a mate rule's blunder)."""
    from chesscore.analysis.judgement import winning_chances

    b, a = chosen[ply - 1], chosen[ply]
    if b is None:
        return 0.0
    before = evaluation_of(b)
    after = evaluation_of(a) if a else (before if game.boards[ply].is_check() else Evaluation(cp=0))
    mover = game.boards[ply - 1].turn
    mine_b, mine_a = before.for_color(mover), after.for_color(mover)
    if mine_b.cp is not None and mine_a.cp is not None:
        return 100 * (winning_chances(mine_b.cp) - winning_chances(mine_a.cp))
    verdict = judge_move(before, after, mover)
    return 100.0 if verdict is not None else 0.0


# (name, first pass seconds, second look factor or None, second look points, scale, options)
POLICIES: list[tuple[float, float | None, float, float, dict[str, Any]]] = [
    (0.3, None, 0, 1.0, {}),
    (0.5, None, 0, 1.0, {}),
    (1.0, None, 0, 1.0, {}),
    (1.5, None, 0, 1.0, {}),
    (0.5, None, 0, 1.0, {"same_depth": True}),
    (0.5, None, 0, 1.0, {"best_rule": False}),
    (0.5, 3, 20, 1.0, {}),
    (0.5, 3, 15, 1.0, {}),
    (0.4, 4, 15, 1.0, {}),
    (0.5, None, 0, 1.25, {}),
    (0.5, None, 0, 1.5, {}),
    (0.5, None, 0, 1.75, {}),
    (0.5, 3, 15, 1.25, {}),
    (0.5, 3, 15, 1.5, {}),
    (0.5, 3, 20, 1.5, {}),
    (0.5, 3, 15, 1.75, {}),
    (0.4, 4, 15, 1.5, {}),
    (0.5, None, 0, 1.0, {"parity": 0}),
    (0.5, None, 0, 1.0, {"parity": 1}),
    (1.0, None, 0, 1.0, {"parity": 0}),
    (1.0, None, 0, 1.0, {"parity": 1}),
    (0.5, 3, 15, 1.0, {"parity": 0}),
    (0.5, 3, 15, 1.0, {"parity": 1}),
]


def analyse(path: Path, nps: int, verbose: int | None) -> None:
    games = load_games(path)
    print(
        f"{len(games)} games, {sum(len(g.moves) for g in games)} plies; goals: recall >= 90%,"
        f" agreed >= 80%; {nps} nodes/s stands for the time"
    )
    for number, (seconds, factor, points, scale, options) in enumerate(POLICIES):
        SCALE[0] = scale
        budget = int(seconds * nps)
        again = within(int(budget * factor)) if factor else None
        first = within(budget)
        if "parity" in options:
            first = with_parity(first, options["parity"])
            again = with_parity(again, options["parity"]) if again else None
        rest = {key: value for key, value in options.items() if key != "parity"}
        tally = run_policy(games, first, again, points, **rest)
        name = f"{number:2} x{scale} {seconds} s" + (
            f" + look x{factor} >= {points}" if factor else ""
        )
        name += "".join(f" {key}={value}" for key, value in options.items())
        print(tally.line(name))
        if verbose == number:
            print("\n".join(["misses:", *(tally.misses or []), "false:", *(tally.false or [])]))
    SCALE[0] = 1.0


def real(first: int, last: int, setting_seconds: float) -> None:
    """The review itself (both passes, `chesscore.review`) on games `first`..`last` (from 1),
    judged against the oracle: the check that the simulation's policy is the code's."""
    from chesscore.review.evaluate import (
        ReviewSetting,
        evaluate_positions,
        merge_positions,
        verify_positions,
    )
    from chesscore.review.judge import positions_to_verify, review_plies

    oracle = json.loads(ORACLE.read_text())["positions"]
    setting = ReviewSetting(seconds=setting_seconds)
    tally = Tally(misses=[], false=[])
    for number, game in enumerate(read_games(GAMES.read_text()), 1):
        if not first <= number <= last:
            continue
        start = Board.from_fen(game.start_fen)
        moves = [node.move for node in game.moves]
        began = time.monotonic()
        evals = evaluate_positions(start, moves, setting)
        middle = time.monotonic()
        again = positions_to_verify(start, moves, evals)
        evals = merge_positions(evals, verify_positions(start, moves, evals, again, setting))
        ended = time.monotonic()
        board = start.copy()
        boards = [board.copy()]
        for move in moves:
            board.push(move)
            boards.append(board.copy())
        truth = [oracle.get(position_key(b.fen())) for b in boards]
        if any(entry is None for entry in truth):
            print(f"game {number}: not in the oracle yet", file=sys.stderr)
            continue
        sf = [Evaluation.from_json(t["eval"]) if t["eval"] else None for t in truth]
        for ply in review_plies(start, moves, evals):
            verdict = judged(boards, ply.ply, sf[ply.ply - 1], sf[ply.ply])
            tally.sf_blunders += verdict == Judgement.BLUNDER
            tally.found += verdict == Judgement.BLUNDER and ply.judgement == Judgement.BLUNDER
            if ply.judgement == Judgement.BLUNDER:
                tally.marks += 1
                tally.agreed += verdict == Judgement.BLUNDER
                tally.agreed_mistake += verdict in (Judgement.BLUNDER, Judgement.MISTAKE)
        tally.positions += len(evals)
        tally.nodes += sum(e.nodes for e in evals)
        print(
            f"game {number}: {len(moves)} plies, first pass {middle - began:.1f} s, "
            f"second look {len(again)} positions {ended - middle:.1f} s",
            file=sys.stderr,
        )
        print(tally.line(f"real, games {first}-{number}"), file=sys.stderr)
    print(tally.line(f"real {setting_seconds} s, games {first}-{last}"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("--games", type=int)
    rec.add_argument("--nodes", type=int, default=70_000)
    rec.add_argument("--out", type=Path, default=RECORD)
    ana = commands.add_parser("analyse")
    ana.add_argument("--nps", type=int, default=45_000)
    ana.add_argument("--out", type=Path, default=RECORD)
    ana.add_argument("-v", "--verbose", type=int, help="list the misses of policy N")
    actual = commands.add_parser("real")
    actual.add_argument("first", type=int)
    actual.add_argument("last", type=int)
    actual.add_argument("--seconds", type=float, default=0.5)
    args = parser.parse_args()
    if args.command == "record":
        record(args.games, args.nodes, args.out)
    elif args.command == "real":
        real(args.first, args.last, args.seconds)
    else:
        analyse(args.out, args.nps, args.verbose)


if __name__ == "__main__":
    main()
