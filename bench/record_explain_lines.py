"""Record Stockfish's lines around every mistake and blunder of the shipped games (issue 31).

Usage: `python bench/record_explain_lines.py [--nodes 1000000] [--games 30]`

The fixture of the explanation harness (tests/test_explain_claims.py) and of
`bench/explain_claims.py`: for every ply of `bench/data/review_games.pgn` that the oracle
(`bench/data/review_oracle.json`, Stockfish 15.1 at depth 22) classes a mistake or a blunder,
by the review's own rules (`bench/review.py`'s `stockfish_class`), Debian's
`/usr/games/stockfish` (niced, one thread, 64 MB hash cleared before each position) searches
the position before the move and the position after it with MultiPV 2 and a fixed node budget;
each position keeps its two lines (UCI) and their scores from White's view. Written to
`tests/data/explain_lines.json`:

    {"engine": "Stockfish 15.1", "nodes": 1000000, "multipv": 2,
     "plies": [{"game": 1, "ply": 23, "class": "blunder", "fen": "<before>", "move": "e2e4",
                "before": [{"eval": {"cp": 31}, "pv": ["d2d4", ...]}, {...}],
                "after": [{"eval": {"mate": -3}, "pv": [...]}, ...]}, ...]}

Stockfish's principal variation may stop short at a hash hit ("Nc5 e5" and no more): the first
line of each position, when shorter than `MIN_PV` plies, is continued from its end by searching
that position again with a quarter of the nodes (its `"continued"` is the count of moves added),
as often as needed, so the explanation has a line long enough to read.

The engine's output is kept as data so the tests need no engine. Rerunnable: plies already in
the file at the same node budget are kept, only the missing ones are searched (and short first
lines continued).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import review_oracle  # noqa: E402
from bench.review import stockfish_class  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "explain_lines.json"
MULTIPV = 2
MIN_PV = 12  # a shorter first line is continued from its end
CLASSES = ("mistake", "blunder")


def marked_plies(games: list[Any], oracle: dict[str, Any]) -> list[dict[str, Any]]:
    """Every mistake and blunder of the games by the oracle's classes, in game order."""
    found = []
    for number, game in enumerate(games, 1):
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), 1):
            before = oracle[review_oracle.position_key(board)]
            board.push(move)
            after = oracle[review_oracle.position_key(board)]
            board.pop()
            judged = stockfish_class(board, move, before, after)
            if judged in CLASSES:
                found.append(
                    {"game": number, "ply": ply, "class": judged, "fen": board.fen(),
                     "move": move.uci()}
                )  # fmt: skip
            board.push(move)
    return found


def search_lines(engine: chess.engine.SimpleEngine, board: chess.Board, nodes: int) -> list[Any]:
    """The engine's `MULTIPV` lines of `board` at `nodes`, from a cleared hash; [] when the
    side to move has no legal move."""
    if board.is_checkmate() or board.is_stalemate():
        return []
    engine.configure({"Clear Hash": None})
    infos = engine.analyse(board, chess.engine.Limit(nodes=nodes), multipv=MULTIPV)
    return [
        {"eval": review_oracle.score_json(info["score"]), "pv": [m.uci() for m in info["pv"]]}
        for info in infos
        if info.get("pv")
    ]


def continue_line(
    engine: chess.engine.SimpleEngine, board: chess.Board, lines: list[Any], nodes: int
) -> None:
    """The first of `lines` (of `board`), when shorter than `MIN_PV` and not ending the game,
    continued from its end with a quarter of the nodes, until long enough."""
    if not lines:
        return
    first = lines[0]
    end = board.copy()
    for uci in first["pv"]:
        end.push_uci(uci)
    while len(first["pv"]) < MIN_PV and not end.is_game_over():
        engine.configure({"Clear Hash": None})
        more = engine.analyse(end, chess.engine.Limit(nodes=nodes // 4)).get("pv", [])
        if not more:
            break
        for move in more[: MIN_PV - len(first["pv"])]:
            first["pv"].append(move.uci())
            first["continued"] = first.get("continued", 0) + 1
            end.push(move)


def load(nodes: int) -> dict[tuple[int, int], Any]:
    if not FIXTURE.exists():
        return {}
    data = json.loads(FIXTURE.read_text())
    if data.get("nodes") != nodes:
        return {}
    return {(entry["game"], entry["ply"]): entry for entry in data["plies"]}


def save(engine_name: str, nodes: int, plies: list[dict[str, Any]]) -> None:
    """The fixture written one ply a line (a diff of a new recording reads ply by ply)."""
    temporary = FIXTURE.with_suffix(".json.tmp")
    head = json.dumps({"engine": engine_name, "nodes": nodes, "multipv": MULTIPV})
    rows = ",\n".join(json.dumps(entry) for entry in plies)
    temporary.write_text(head[:-1] + ', "plies": [\n' + rows + "\n]}\n")
    os.replace(temporary, FIXTURE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    games = review_oracle.read_games(count=args.games)
    depth = json.loads(review_oracle.ORACLE.read_text())["depth"]
    oracle = review_oracle.load(review_oracle.ORACLE, depth, False)
    wanted = marked_plies(games, oracle)
    known = load(args.nodes)
    engine = review_oracle.open_engine()
    name = engine.id.get("name", "Stockfish")
    plies = []
    try:
        for count, entry in enumerate(wanted, 1):
            key = (entry["game"], entry["ply"])
            board = chess.Board(entry["fen"])
            after_board = board.copy()
            after_board.push_uci(entry["move"])
            if key in known:
                entry = known[key]
            else:
                before = search_lines(engine, board, args.nodes)
                after = search_lines(engine, after_board, args.nodes)
                entry = {**entry, "before": before, "after": after}
            continue_line(engine, board, entry["before"], args.nodes)
            continue_line(engine, after_board, entry["after"], args.nodes)
            plies.append(entry)
            if count % 8 == 0:
                save(name, args.nodes, plies)
                print(f"{count}/{len(wanted)}", file=sys.stderr)
    finally:
        engine.quit()
    save(name, args.nodes, plies)
    print(f"{len(plies)} plies recorded in {FIXTURE.relative_to(ROOT)} at {args.nodes} nodes")


if __name__ == "__main__":
    main()
