"""How many of Stockfish's blunders our explanations give a concrete reason (issue 24).

Usage: `python bench/explain_coverage.py [--games 30] [--nodes 1000000] [--list]`

1. The blunders: every ply of `bench/data/review_games.pgn` that the oracle
   (`bench/data/review_oracle.json`, Stockfish 15.1 at the depth it was written at, 18 today)
   classes a blunder, by the rules `bench/review.py` applies (`stockfish_class`).
2. Their lines: the oracle keeps only the best move, so the position before each blunder and
   the position after it are searched again by Debian's `/usr/games/stockfish` (one thread,
   niced, `--nodes` a position) for a whole principal variation, cached in
   `bench/data/review_oracle_lines.json` (`{"nodes": n, "positions": {"<FEN's first 4
   fields>": {"eval": {"cp": 31}, "pv": ["e2e4", ...]}}}`); only what is missing is searched.
3. Each blunder explained by `explain_move` with those lines and evaluations, as the review
   does; printed: the share given a concrete reason (any kind but `positional`, goal >= 90 %),
   the share whose first sentence names what went wrong, the count of each kind, and with
   `--list` every blunder left without a concrete reason.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import review_oracle  # noqa: E402
from bench.review import stockfish_class  # noqa: E402
from chesscore.analysis.explain import Explanation, Kind, explain_move  # noqa: E402
from chesscore.analysis.judgement import Evaluation, Judgement  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402

LINES = ROOT / "bench" / "data" / "review_oracle_lines.json"
GOAL = 90.0
# Kinds of the second sentence: what the better move did, not what the played move lost.
BETTER_KINDS = frozenset(
    {
        Kind.MATE_MISSED,
        Kind.FREE_PIECE_MISSED,
        Kind.FORK_MISSED,
        Kind.PIN_MISSED,
        Kind.MATERIAL_MISSED,
    }
)
# Stockfish's lines are cut here: an explanation reads a few moves, not a whole game.
MAX_PV = 16
MIN_PV = 12  # a shorter line is continued (`_search`)

Blunder = tuple[int, int, chess.Board, chess.Move]  # game, ply, the board before, the move


def find_blunders(games: list[Any], oracle: dict[str, Any]) -> list[Blunder]:
    """Every ply the oracle classes a blunder, with the position before it."""
    found = []
    for number, game in enumerate(games, 1):
        board = game.board()
        for ply, move in enumerate(game.mainline_moves(), 1):
            before = oracle[review_oracle.position_key(board)]
            board.push(move)
            after = oracle[review_oracle.position_key(board)]
            board.pop()
            if stockfish_class(board, move, before, after) == "blunder":
                found.append((number, ply, board.copy(), move))
            board.push(move)
    return found


def load_lines(nodes: int) -> dict[str, Any]:
    if not LINES.exists():
        return {}
    data = json.loads(LINES.read_text())
    positions: dict[str, Any] = data["positions"] if data.get("nodes") == nodes else {}
    return positions


def save_lines(nodes: int, positions: dict[str, Any]) -> None:
    temporary = LINES.with_suffix(".json.tmp")
    text = json.dumps({"nodes": nodes, "positions": positions}, indent=0, sort_keys=True)
    temporary.write_text(text + "\n")
    os.replace(temporary, LINES)


def complete_lines(blunders: list[Blunder], nodes: int) -> dict[str, Any]:
    """Stockfish's evaluation and line of the positions before and after every blunder."""
    positions = load_lines(nodes)
    boards = []
    for _, _, board, move in blunders:
        after = board.copy()
        after.push(move)
        boards += [board, after]
    missing = [b for b in boards if not _complete(positions.get(review_oracle.position_key(b)))]
    if not missing:
        return positions
    engine = review_oracle.open_engine()
    try:
        for count, board in enumerate(missing, 1):
            key = review_oracle.position_key(board)
            if _complete(positions.get(key)):
                continue
            positions[key] = _search(engine, board, nodes)
            if count % 8 == 0:
                save_lines(nodes, positions)
                print(f"lines: {count}/{len(missing)}", file=sys.stderr)
    finally:
        engine.quit()
    save_lines(nodes, positions)
    return positions


def _search(engine: chess.engine.SimpleEngine, board: chess.Board, nodes: int) -> dict[str, Any]:
    """Stockfish's evaluation and line of `board`; a line cut short (Stockfish's principal
    variation may stop at a hash hit) is continued by searching its last position again with
    a quarter of the nodes, until it is `MIN_PV` moves long or the game ends."""
    if board.is_checkmate() or board.is_stalemate():
        return {"eval": None, "pv": []}
    engine.configure({"Clear Hash": None})
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    pv = list(info.get("pv", []))
    end = board.copy()
    for move in pv:
        end.push(move)
    while len(pv) < MIN_PV and not end.is_game_over():
        more = engine.analyse(end, chess.engine.Limit(nodes=nodes // 4)).get("pv", [])
        if not more:
            break
        for move in more[: MIN_PV - len(pv)]:
            pv.append(move)
            end.push(move)
    return {"eval": review_oracle.score_json(info["score"]), "pv": [m.uci() for m in pv]}


def _complete(entry: dict[str, Any] | None) -> bool:
    """Whether a cached line is long enough (or ends the game: a mate, a stalemate)."""
    if entry is None:
        return False
    return entry["eval"] is None or len(entry["pv"]) >= MIN_PV or "mate" in entry["eval"]


def explain(blunder: Blunder, lines: dict[str, Any]) -> Explanation:
    """The review's explanation of one blunder from Stockfish's lines."""
    _, _, board, move = blunder
    after = board.copy()
    after.push(move)
    before_entry = lines[review_oracle.position_key(board)]
    after_entry = lines[review_oracle.position_key(after)]
    ours = Board.from_fen(board.fen())
    played = ours.parse_uci(move.uci())
    mine_after = ours.copy()
    mine_after.push(played)
    return explain_move(
        ours,
        played,
        Judgement.BLUNDER,
        _moves(ours, before_entry["pv"]),
        _evaluation(before_entry["eval"]),
        _moves(mine_after, after_entry["pv"]),
        _evaluation(after_entry["eval"]),
    )


def _moves(board: Board, ucis: list[str]) -> list[Any]:
    replay, moves = board.copy(), []
    for uci in ucis[:MAX_PV]:
        moves.append(replay.parse_uci(uci))
        replay.push(moves[-1])
    return moves


def _evaluation(data: dict[str, int] | None) -> Evaluation | None:
    return Evaluation.from_json(data) if data is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=1_000_000)
    parser.add_argument("--list", action="store_true", help="list the blunders left bare")
    args = parser.parse_args()
    games = review_oracle.read_games(count=args.games)
    # Whatever depth the oracle was written at (bench/review_oracle.py).
    depth = json.loads(review_oracle.ORACLE.read_text())["depth"]
    oracle = review_oracle.load(review_oracle.ORACLE, depth, False)
    blunders = find_blunders(games, oracle)
    lines = complete_lines(blunders, args.nodes)
    kinds: Counter[str] = Counter()
    concrete = first = 0
    bare = []
    for blunder in blunders:
        explanation = explain(blunder, lines)
        kinds.update(kind.value for kind in explanation.kinds)
        reasons = set(explanation.kinds) - {Kind.POSITIONAL}
        concrete += bool(reasons)
        first += bool(reasons - BETTER_KINDS)
        if not reasons:
            bare.append((blunder, explanation))
    total = len(blunders)
    print(
        f"oracle blunders (depth {depth}): {total} in {args.games} games"
        f" (Stockfish lines: {args.nodes} nodes)"
    )
    print(f"given a concrete reason: {concrete} ({100 * concrete / total:.1f} %, goal >= {GOAL} %)")
    print(f"  of which the first sentence names what went wrong: {first} "
          f"({100 * first / total:.1f} %)")  # fmt: skip
    for kind, count in kinds.most_common():
        print(f"  {kind:<28} {count}")
    if args.list:
        for (game, ply, board, _), explanation in bare:
            print(f"game {game} ply {ply}  {board.fen()}\n    {explanation.text}")


if __name__ == "__main__":
    main()
