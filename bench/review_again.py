"""The review's search again before a mark (issue 31): what a deeper look at the positions
around a `?` or `??` does to the marks' agreement with a deep Stockfish, measured offline.

Two steps, so that one slow recording serves several rules:

1. ``record``: every game of `bench/data/review_games.pgn` reviewed by Stockfish as the
   server's jobs run it (the npm build unless CHESS_STOCKFISH says otherwise; the positions in
   two runs, each walked backwards by one warm engine, `--nodes` a position, the server's
   default unless given), and as the positions come, those before and after every ply whose
   drop reaches `--points` (10: every mark, so a recording serves the stricter rules too) are
   searched again at `--again` nodes on the same warm engine, the neighbours of a position
   searched again judged again with its new numbers. Written as it goes to `--out`
   (default /tmp/review_again_record.json; a rerun skips the games done).
2. ``analyse``: the plies judged from the first pass alone, then as the server's jobs end
   with the deeper look (server.review.look_again's own code, its share of positions
   included, fed the recorded numbers in the jobs' order), and each set of marks compared
   with the oracle's (`bench/data/review_oracle.json`, Stockfish 15.1
   at depth 22) by `bench/review.py`'s measures: the oracle's blunders marked at least `?`
   (tolerant recall) and our `??` that are at least a mistake for the oracle (tolerant
   precision); with `-v`, every `??` the oracle calls less than a mistake. With `--deep D`,
   the plies the measures count (our `??`, the oracle's mistakes and blunders) are judged
   again by the oracle searching their positions to depth D (cached in
   `bench/data/review_oracle_deep.json`): at depth 22 the oracle is itself a short search,
   and a deeper one settles which of the two was wrong where they part.

    python bench/review_again.py record [--games 30] [--nodes N] [--again 1000000]
    python bench/review_again.py analyse [-v] [--deep 27]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import chess

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import review_oracle  # noqa: E402
from bench.review import CLASSES, MISTAKE_OR_WORSE, Ply, agreement_measures, share, stockfish_class  # noqa: E402
from chesscore.review.evaluate import PositionEval  # noqa: E402
from chesscore.review.judge import ply_drop, review_ply  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402
from server.review.look_again import LookAgain  # noqa: E402
from server.review.record import eval_from_json, eval_to_json  # noqa: E402

RECORD = Path("/tmp/review_again_record.json")
DEEP_ORACLE = ROOT / "bench" / "data" / "review_oracle_deep.json"


def record_game(job: tuple[int, str, list[str], int, int, float]) -> dict[str, Any]:
    """One game's first pass and the positions searched again, as the job would search them."""
    from server.engine.positions import evaluate_position
    from server.engine.stockfish import choose_stockfish, worker_engine
    from server.review.stockfish_job import split_positions

    number, fen, ucis, nodes, again_nodes, points = job
    spec = choose_stockfish(os.environ.get("CHESS_STOCKFISH"))
    assert spec is not None, "no Stockfish to review with (npm ci, or CHESS_STOCKFISH)"
    start = Board.from_fen(fen)
    board, moves, boards = start.copy(), [], [start.copy()]
    for uci in ucis:
        moves.append(board.push_uci(uci))
        boards.append(board.copy())
    first: dict[int, PositionEval] = {}
    deeper: dict[int, PositionEval] = {}
    began = time.perf_counter()

    def search(index: int, budget: int) -> PositionEval:
        found = evaluate_position(
            engine, fen, ucis[:index], boards[index], index, budget, final=index == len(ucis)
        )
        assert found is not None
        return found

    def current(index: int) -> PositionEval | None:
        return deeper.get(index, first.get(index))

    def settle(changed: list[int]) -> None:
        waiting = [ply for index in changed for ply in (index, index + 1)]
        while waiting:
            ply = waiting.pop()
            before, after = current(ply - 1), current(ply)
            if not 1 <= ply <= len(moves) or before is None or after is None:
                continue
            if before.evaluation is None or before.line[:1] == (moves[ply - 1],):
                continue
            if ply_drop(boards[ply - 1], moves[ply - 1], before, after) < points:
                continue
            for index in (ply - 1, ply):
                if index not in deeper:
                    deeper[index] = search(index, again_nodes)
                    waiting += [index, index + 1]

    for run in split_positions(range(len(boards)), 2):
        engine = worker_engine(spec)
        engine.new_game()
        for index in run:
            first[index] = search(index, nodes)
            settle([index])
    settle(list(range(len(boards))))  # the plies between the runs, as the summary judges them
    return {
        "game": number,
        "seconds": round(time.perf_counter() - began, 1),
        "first": [eval_to_json(first[index], False) for index in range(len(boards))],
        "again": [eval_to_json(deeper[index], True) for index in sorted(deeper)],
    }


def record(args: argparse.Namespace) -> None:
    from bench.review import _default_nodes, game_job

    games = review_oracle.read_games(count=args.games)
    done = json.loads(args.out.read_text()) if args.out.exists() else {}
    nodes = args.nodes or _default_nodes()
    jobs = [
        (*game_job(number, game), nodes, args.again, args.points)
        for number, game in enumerate(games, 1)
        if str(number) not in done
    ]
    jobs.sort(key=lambda job: -len(job[2]))
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.processes) as pool:
        for result in pool.imap_unordered(record_game, jobs):
            done[str(result["game"])] = result
            args.out.write_text(json.dumps(done))
            print(
                f"game {result['game']}: {len(result['first'])} positions,"
                f" {len(result['again'])} again, {result['seconds']} s",
                file=sys.stderr,
                flush=True,
            )


def judged_rows(
    games: list[Any], recorded: dict[str, Any], oracle: dict[str, Any], mode: str
) -> list[Ply]:
    """Every ply judged from the first pass (`first`), as the jobs with the deeper look end
    (`look`), or (`lesser`) with the lesser of the two marks where a ply was looked at again,
    beside the oracle's class."""
    rows = []
    for number, game in enumerate(games, 1):
        data = recorded[str(number)]
        first = {item["index"]: eval_from_json(item) for item in data["first"]}
        deeper = {item["index"]: eval_from_json(item) for item in data["again"]}
        evals = dict(first)
        start = Board.from_fen(game.board().fen())
        boards, moves = [start.copy()], []
        for move in game.mainline_moves():
            moves.append(boards[-1].parse_uci(move.uci()))
            boards.append(boards[-1].copy())
            boards[-1].push(moves[-1])
        if mode != "first":
            evals = _look_again(boards, moves, first, deeper)
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), 1):
            ours = review_ply(boards[ply - 1], moves[ply - 1], evals[ply - 1], evals[ply], ply)
            before = oracle[review_oracle.position_key(board)]
            san = board.san(move)
            board.push(move)
            after = oracle[review_oracle.position_key(board)]
            board.pop()
            theirs = stockfish_class(board, move, before, after)
            board.push(move)
            ours_class = ours.judgement.name.lower() if ours.judgement is not None else "none"
            looked = evals[ply - 1] is not first[ply - 1] or evals[ply] is not first[ply]
            if mode == "lesser" and looked:
                shallow = review_ply(
                    boards[ply - 1], moves[ply - 1], first[ply - 1], first[ply], ply
                )
                shallow_class = shallow.judgement.name.lower() if shallow.judgement else "none"
                ours_class = min(ours_class, shallow_class, key=CLASSES.index)
            first_before = evals[ply - 1].evaluation
            rows.append(
                Ply(number, ply, san, move.uci(),
                    first_before.to_json() if first_before is not None else None,
                    ours.evaluation.to_json() if ours.evaluation is not None else None,
                    ours_class, ours.best.uci() if ours.best is not None else None,
                    before["eval"], after["eval"], theirs, before["best"])
            )  # fmt: skip
    return rows


def _look_again(
    boards: list[Board],
    moves: list[Any],
    first: dict[int, PositionEval],
    deeper: dict[int, PositionEval],
) -> dict[int, PositionEval]:
    """The evaluations the server's jobs end with (server.review.look_again's own rules, its
    share included): each run fed its positions in the jobs' order, each knowing only its own
    as in the server, then the summary's look at all of them; a position searched again gets
    its recorded deeper numbers (its first ones if the recording has none)."""
    from server.review.stockfish_job import split_positions

    def search(index: int) -> PositionEval:
        return deeper.get(index, first[index])

    verified: set[int] = set()
    evals: dict[int, PositionEval] = {}
    for run in split_positions(range(len(boards)), 2):
        own: dict[int, PositionEval] = {}
        look = LookAgain(boards, moves, own, verified, search)
        for index in run:
            own[index] = first[index]
            look.settle([index])
        verified |= look.verified
        evals.update(own)
    LookAgain(boards, moves, evals, verified, search).settle(range(len(boards)))
    return evals


def judged_deeper(games: list[Any], rows: list[Ply], depth: int) -> list[Ply]:
    """`rows` with the oracle's class searched again to `depth` on every ply the measures
    count (our `??`, the oracle's mistakes and blunders); the other plies keep theirs."""
    counted = [row for row in rows if row.ours == "blunder" or row.theirs in MISTAKE_OR_WORSE]
    pairs = {}
    for row in counted:
        boards = review_oracle.game_boards(games[row.game - 1])
        pairs[row.game, row.ply] = boards[row.ply - 1], boards[row.ply]
    deep = review_oracle.complete_boards(
        [board for pair in pairs.values() for board in pair],
        depth,
        path=DEEP_ORACLE,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    judged = []
    for row in rows:
        if (row.game, row.ply) not in pairs:
            judged.append(row)
            continue
        before_board, after_board = pairs[row.game, row.ply]
        before = deep[review_oracle.position_key(before_board)]
        after = deep[review_oracle.position_key(after_board)]
        theirs = stockfish_class(before_board, chess.Move.from_uci(row.uci), before, after)
        judged.append(
            replace(
                row,
                theirs=theirs,
                theirs_before=before["eval"],
                theirs_after=after["eval"],
                theirs_best=before["best"],
            )
        )
    return judged


def analyse(args: argparse.Namespace) -> None:
    recorded = json.loads(args.out.read_text())
    count = max(int(key) for key in recorded)
    games = review_oracle.read_games(count=count)
    games = [game for number, game in enumerate(games, 1) if str(number) in recorded]
    recorded = {str(n): recorded[str(g)] for n, g in enumerate(sorted(map(int, recorded)), 1)}
    oracle = review_oracle.complete(games, 22)
    positions = sum(len(recorded[key]["first"]) for key in recorded)
    again = sum(len(recorded[key]["again"]) for key in recorded)
    print(f"{len(games)} games, {positions} positions, {again} searched again in the recording")
    for label, mode in (("first pass", "first"), ("deeper look", "look"), ("lesser", "lesser")):
        rows = judged_rows(games, recorded, oracle, mode)
        if args.deep:
            label = f"{label}, oracle at depth {args.deep}"
            rows = judged_deeper(games, rows, args.deep)
        for name, (part, whole) in agreement_measures(rows).items():
            print(f"{label}: {name:<19} {share(part, whole)}")
        if args.verbose:
            for row in rows:
                if row.ours == "blunder" and row.theirs not in MISTAKE_OR_WORSE:
                    print(
                        f"   false ??: game {row.game} ply {row.ply} {row.san}: ours"
                        f" {row.ours_before} -> {row.ours_after}, oracle {row.theirs_before}"
                        f" -> {row.theirs_after} ({row.theirs})"
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("record", "analyse"))
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=None, help="first pass's nodes a position")
    parser.add_argument("--again", type=int, default=1_000_000, help="nodes of a search again")
    parser.add_argument("--points", type=float, default=10.0, help="drop recorded again")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RECORD)
    parser.add_argument("--deep", type=int, default=0, help="the counted plies' oracle depth")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.step == "record":
        record(args)
    else:
        analyse(args)


if __name__ == "__main__":
    main()
