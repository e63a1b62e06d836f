"""Stockfish's evaluations of every position of the review benchmark's games, cached on disk.

The oracle of `bench/review.py`: Debian's `/usr/games/stockfish` (one thread, 64 MB hash,
niced, driven through python-chess) searches every position of `bench/data/review_games.pgn`
to a fixed depth and writes its score (White's view, `{"cp": n}` or `{"mate": n}`) and best
move to `bench/data/review_oracle.json`:

    {"depth": 22, "positions": {"<FEN's first 4 fields>": {"eval": {"cp": 31}, "best": "e2e4"}}}

A position with no legal move (checkmate or stalemate on the board) gets `"eval": null,
"best": null` without a search, as our review gives it no evaluation either. The file is
rewritten atomically every few positions, so a stopped run loses little and a rerun computes
only what is missing; a cache of another depth is started afresh. Stockfish's searches keep
their hash table along a game (positions follow each other, as in our review).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "bench" / "data" / "review_games.pgn"
ORACLE = ROOT / "bench" / "data" / "review_oracle.json"
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
STOCKFISH_OPTIONS = {"Threads": 1, "Hash": 64}
SAVE_EVERY = 8  # positions between two writes of the cache

Entry = dict[str, Any]


def read_games(path: Path = GAMES, count: int | None = None) -> list[chess.pgn.Game]:
    """The benchmark's games, in file order (the first `count` of them)."""
    games: list[chess.pgn.Game] = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            if game.errors:
                raise ValueError(f"{path}: game {len(games) + 1}: {game.errors[0]}")
            games.append(game)
            if count is not None and len(games) == count:
                break
    return games


def position_key(board: chess.Board) -> str:
    """A position's key in the cache: its FEN without the move counters."""
    return " ".join(board.fen().split()[:4])


def game_boards(game: chess.pgn.Game) -> list[chess.Board]:
    """Every position of a game's main line: the start, then the position after each ply."""
    board = game.board()
    boards = [board.copy()]
    for move in game.mainline_moves():
        board.push(move)
        boards.append(board.copy())
    return boards


def load(path: Path, depth: int, fresh: bool) -> dict[str, Entry]:
    """The cached positions at `depth` (none when `fresh`, absent, or of another depth)."""
    if fresh or not path.exists():
        return {}
    data = json.loads(path.read_text())
    if data.get("depth") != depth:
        print(
            f"oracle: {path.name} holds depth {data.get('depth')}, not {depth}: recomputed",
            file=sys.stderr,
        )
        return {}
    positions: dict[str, Entry] = data["positions"]
    return positions


def save(path: Path, depth: int, positions: dict[str, Entry]) -> None:
    """Write the cache atomically (a reader never sees half a file)."""
    temporary = path.with_suffix(".json.tmp")
    text = json.dumps({"depth": depth, "positions": positions}, indent=0, sort_keys=True)
    temporary.write_text(text + "\n")
    os.replace(temporary, path)


def score_json(score: chess.engine.PovScore) -> dict[str, int]:
    white = score.white()
    mate = white.mate()
    if mate is not None:
        return {"mate": mate}
    cp = white.score()
    assert cp is not None
    return {"cp": cp}


def search(engine: chess.engine.SimpleEngine, board: chess.Board, depth: int) -> Entry:
    """Stockfish's evaluation and best move of one position."""
    if board.is_checkmate() or board.is_stalemate():
        return {"eval": None, "best": None}
    info = engine.analyse(board, chess.engine.Limit(depth=depth))
    best = info["pv"][0].uci() if info.get("pv") else None
    return {"eval": score_json(info["score"]), "best": best}


class StockfishMissingError(RuntimeError):
    """Positions to search and no Stockfish to search them (names the path looked at)."""


def open_engine() -> chess.engine.SimpleEngine:
    """Stockfish at low priority: the machine is shared and the oracle is the slow part."""
    if not Path(STOCKFISH).exists():
        raise StockfishMissingError(
            f"Stockfish is not at {STOCKFISH} and positions are missing from the oracle's"
            " cache: install it (apt-get install stockfish)"
        )
    engine = chess.engine.SimpleEngine.popen_uci(["nice", "-n", "10", STOCKFISH])
    engine.configure(STOCKFISH_OPTIONS)
    return engine


def complete(
    games: Sequence[chess.pgn.Game],
    depth: int,
    fresh: bool = False,
    path: Path = ORACLE,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Entry]:
    """The oracle's entry for every position of `games`, searching those not cached yet."""
    return complete_boards(_unique(games), depth, fresh, path, progress)


def complete_boards(
    boards: Sequence[chess.Board],
    depth: int,
    fresh: bool = False,
    path: Path = ORACLE,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Entry]:
    """The oracle's entry for each of `boards` (and whatever else `path` holds at `depth`),
    searching those not cached yet."""
    positions = load(path, depth, fresh)
    missing = list(
        {position_key(b): b for b in boards if position_key(b) not in positions}.values()
    )
    if fresh or missing:
        _fill(positions, missing, depth, path, progress)
    return positions


def _unique(games: Iterable[chess.pgn.Game]) -> list[chess.Board]:
    seen: set[str] = set()
    boards = []
    for game in games:
        for board in game_boards(game):
            key = position_key(board)
            if key not in seen:
                seen.add(key)
                boards.append(board)
    return boards


def _fill(
    positions: dict[str, Entry],
    missing: Sequence[chess.Board],
    depth: int,
    path: Path,
    progress: Callable[[str], None] | None,
) -> None:
    if not missing:
        save(path, depth, positions)
        return
    engine = open_engine()
    started = time.perf_counter()
    try:
        for done, board in enumerate(missing, 1):
            positions[position_key(board)] = search(engine, board, depth)
            if done % SAVE_EVERY == 0 or done == len(missing):
                save(path, depth, positions)
                if progress is not None:
                    rate = (time.perf_counter() - started) / done
                    progress(f"oracle: {done}/{len(missing)} positions, {rate:.2f} s each")
    finally:
        engine.quit()
        save(path, depth, positions)


if __name__ == "__main__":
    # Only the oracle (bench/review.py runs it too): `python bench/review_oracle.py [depth]`.
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 22
    complete(read_games(), wanted, progress=lambda line: print(line, file=sys.stderr, flush=True))
