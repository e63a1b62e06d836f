"""Generate the shipped puzzle set: mistakes found in real games and in engine games at varied
strength, each verified by Stockfish at a fixed budget (chesscore.puzzles.verify states the
rules), then tagged and rated by chesscore.puzzles and written in lichess's CSV format.

Two steps, each rerunnable:

    nice -n 10 python tools/make_puzzles.py generate --worker 0 --minutes 90 --pgn
    nice -n 10 python tools/make_puzzles.py generate --worker 1 --minutes 90
    python tools/make_puzzles.py assemble

`generate` appends every verified puzzle to `build/puzzles/worker-N.jsonl` (its line and the
facts its rating is estimated from) and rewrites `worker-N-stats.json` (games, positions,
candidates, kept, rejections by reason, CPU seconds of the worker and its engines) as it goes;
workers run in parallel processes, each with its own seed and engines (a different
`--worker` number each, and a new number for a new run so no figures are overwritten).
`--pgn` first reads the project's real games (server/training/data/games.pgn). Then it plays
engine games: from a random named opening (chesscore/data/openings.tsv), each side a
Stockfish at a random `Skill Level` 0-10, which searches to depth 1 + skill with 4 lines and
picks one of them as a weak player would. Every position is scored by a full-strength
Stockfish at JUDGE_NODES, and so is the position after each of the other moves the weak
player weighed: a move that swings the score (verify.is_mistake) is a candidate. A candidate
gets a glance (GLANCE_NODES, MultiPV 2) that only ever rejects (not winning, or two answers
plainly both winning), then the verification proper: every search of its line at
VERIFY_NODES with MultiPV 2, one thread, HASH_MB of hash, a fresh game (a node budget is the
same on any machine, so a rerun makes the same judgement). `assemble` reads every worker's
file, drops duplicates (the same position and setting-up move), computes themes
(chesscore.puzzles.themes) and the first rating (chesscore.puzzles.rating), writes
chesscore/data/puzzles.csv sorted by id, reads it back through chesscore.puzzles.csvformat to
check every row, and prints the figures docs/puzzles.md quotes.

Stockfish: Debian's /usr/games/stockfish when present (faster), else the npm build under Node
(`--stockfish` chooses another).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chesscore.errors import ChessError  # noqa: E402
from chesscore.puzzles.csvformat import Puzzle, make_puzzle_csv, read_puzzles  # noqa: E402
from chesscore.puzzles.rating import (  # noqa: E402
    INITIAL_DEVIATION,
    estimate_rating,
    measure_difficulty,
)
from chesscore.puzzles.themes import THEMES, find_themes  # noqa: E402
from chesscore.puzzles.verify import (  # noqa: E402
    MAX_CP_BEFORE,
    EngineLine,
    Rejected,
    Score,
    Verified,
    is_mistake,
    material_balance,
    verify_puzzle,
)
from chesscore.rules.board import Board  # noqa: E402
from chesscore.rules.pgn_import import read_games  # noqa: E402
from server.engine.puzzle_lines import engine_lines  # noqa: E402
from server.engine.stockfish import NPM_BUILD, node_command  # noqa: E402
from server.engine.uci import EngineError, SearchResult, UciEngine  # noqa: E402

OUT = ROOT / "build" / "puzzles"
SHIPPED = ROOT / "chesscore" / "data" / "puzzles.csv"
# The project's real games (bench/data/review_games.pgn holds the same 30). Not
# bench/data/long_game.pgn: its moves are random, no one's game.
PGN_FILES = (ROOT / "server/training/data/games.pgn",)
# Sources no longer read, whose puzzles an older run may have left in the workers' files.
DROPPED_SOURCES = frozenset({"https://lichess.org/abcdefgh"})  # long_game.pgn's made-up Site
OPENINGS = ROOT / "chesscore" / "data" / "openings.tsv"
NATIVE = "/usr/games/stockfish"
VERIFY_NODES = 120_000  # each MultiPV 2 search of a candidate's line
JUDGE_NODES = 3_000  # each position of a game, to find the mistakes (depth 8 or so)
PLAYER_NODES = 10_000  # a bound on a weakened player's move (it stops at depth 1 + skill)
GLANCE_NODES = 20_000  # the quick look before the full check (only ever rejects)
GLANCE_GAP = 0.1
HASH_MB = 16
WEIGHED_LINES = 4
SKILLS = range(0, 11)
MAX_GAME_PLIES = 120
# An engine game ends once one side has been this far ahead for DECIDED_PLIES plies running:
# what follows is the mopping up of a won game, no source of puzzles.
DECIDED_CP = 700
DECIDED_PLIES = 4
SEARCH_SECONDS = 120.0  # the bound on one search's wait (a far slower machine than ours)
SAVE_SECONDS = 30.0


@dataclass
class Stats:
    """A worker's figures so far."""

    games: int = 0
    positions: int = 0
    candidates: int = 0
    kept: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)


class Engines:
    """A worker's Stockfish, one process in three roles, each with its options set before
    its search: the judge scans games (MultiPV 1), the verifier checks candidates (MultiPV 2),
    the player plays the engine games at a chosen skill (Skill Level chooses among 4 lines
    whatever MultiPV says; MultiPV 4 has them printed too)."""

    def __init__(self, command: tuple[str, ...]) -> None:
        self.engine = start_engine(command, {})
        self.options: dict[str, int] = {}

    def configured(self, options: dict[str, int]) -> UciEngine:
        for name, value in options.items():
            if self.options.get(name) != value:
                self.engine.set_option(name, value)
                self.options[name] = value
        return self.engine

    @property
    def judge(self) -> UciEngine:
        return self.configured({"MultiPV": 1, "Skill Level": 20})

    @property
    def verifier(self) -> UciEngine:
        return self.configured({"MultiPV": 2, "Skill Level": 20})

    def player(self, skill: int) -> UciEngine:
        return self.configured({"MultiPV": WEIGHED_LINES, "Skill Level": skill})

    def all(self) -> tuple[UciEngine, ...]:
        return (self.engine,)

    def close(self) -> None:
        self.engine.close()


def start_engine(command: tuple[str, ...], options: dict[str, int]) -> UciEngine:
    engine = UciEngine.start(command)
    for name, value in {"Threads": 1, "Hash": HASH_MB, **options}.items():
        engine.set_option(name, value)
    engine.ping()
    return engine


def stockfish_command(path: str | None) -> tuple[str, ...]:
    """The native Stockfish if there is one, else the npm build under Node."""
    if path:
        return (path,)
    if os.access(NATIVE, os.X_OK):
        return (NATIVE,)
    command = node_command(NPM_BUILD, shutil.which("node"))
    if command is None:
        raise SystemExit("no Stockfish: install Debian's stockfish, or Node and `npm ci`")
    return command


# -- finding and verifying candidates --------------------------------------------------------


class Worker:
    """Scans games for mistakes and verifies them, writing what passes."""

    def __init__(self, engines: Engines, out: Path, number: int, rng: random.Random) -> None:
        self.engines = engines
        self.out = out
        self.number = number
        self.rng = rng
        self.stats = Stats()
        self.seen: set[str] = set()
        self.saved_at = time.monotonic()

    def judge(self, board: Board) -> EngineLine | None:
        """The judge's best line (side to move's view); None when the game is over there."""
        if not board.legal_moves():
            return None
        return engine_lines(self.engines.judge, board, JUDGE_NODES, SEARCH_SECONDS)[0]

    def examine(self, fen: str, move: str, judged: EngineLine, source: str) -> None:
        """Verify the candidate `move` played in `fen` and keep it if it passes."""
        key = " ".join(fen.split()[:4]) + " " + move
        if key in self.seen:
            return
        self.seen.add(key)
        self.stats.candidates += 1
        verifier = self.engines.verifier
        verifier.new_game()
        failed = self.glance(fen, move)
        if failed:
            self.stats.rejected[failed] += 1
            return
        verdict = verify_puzzle(
            fen, move, lambda b: engine_lines(verifier, b, VERIFY_NODES, SEARCH_SECONDS)
        )
        if isinstance(verdict, Rejected):
            self.stats.rejected[verdict.reason] += 1
            return
        self.stats.kept += 1
        self.write(fen, verdict, judged, source)

    def glance(self, fen: str, move: str) -> str | None:
        """A quick look (GLANCE_NODES) that spares the full check of a candidate plainly
        failing: why it fails (not winning, or its two best answers both win within
        GLANCE_GAP of win chance of each other), else None."""
        board = Board.from_fen(fen)
        board.push_uci(move)
        if len(board.legal_moves()) < 2:
            return None
        lines = engine_lines(self.engines.verifier, board, GLANCE_NODES, SEARCH_SECONDS)
        if not lines[0].score.is_winning:
            return "not winning at a glance"
        if len(lines) < 2 or not lines[1].score.is_winning:
            return None
        plain = lines[1].score.chance >= lines[0].score.chance - GLANCE_GAP
        return "ambiguous at a glance" if plain else None

    def write(self, fen: str, verdict: Verified, judged: EngineLine, source: str) -> None:
        first = verdict.first
        record = {
            "fen": fen,
            "moves": list(verdict.moves),
            "mate": verdict.mate,
            "gain": verdict.gain,
            "source": source,
            "judge_move": judged.move,
            "best": _score_json(first[0].score),
            "second": _score_json(first[1].score) if len(first) > 1 else None,
        }
        with (self.out / f"worker-{self.number}.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    def scan(
        self, board: Board, move: str, before: EngineLine | None, source: str
    ) -> EngineLine | None:
        """Play `move` on `board` after judging it; the judge's line after the move."""
        fen = board.fen()
        board.push_uci(move)
        self.stats.positions += 1
        after = self.judge(board)
        if before is not None and after is not None:
            balance = material_balance(board, board.turn)
            if is_mistake(before.score.negated(), after.score, balance):
                self.examine(fen, move, after, source)
        self.save_stats()
        return after

    def try_alternatives(
        self, board: Board, moves: list[str], before: EngineLine, source: str
    ) -> None:
        """Judge the moves the weakened player also weighed (not played) as mistakes too."""
        if before.score.mate is not None or abs(before.score.cp) > MAX_CP_BEFORE:
            return
        for move in moves:
            self.scan(board, move, before, source + " (weighed)")
            board.pop()

    def scan_pgn(self, path: Path) -> None:
        for number, game in enumerate(read_games(path.read_text(encoding="utf-8")), 1):
            board = Board.from_fen(game.start_fen)
            site = game.headers.get("Site", "")
            source = site if site.startswith("http") else f"{path.name}#{number}"
            judged = self.judge(board)
            for node in game.moves:
                judged = self.scan(board, node.move.uci(), judged, source)
            self.stats.games += 1

    def play_game(self, openings: list[list[str]]) -> None:
        board = Board()
        for san in self.rng.choice(openings):
            board.push_san(san)
        skills = (self.rng.choice(SKILLS), self.rng.choice(SKILLS))
        source = f"stockfish skill {skills[0]} v {skills[1]}"
        self.engines.engine.new_game()
        judged = self.judge(board)
        decided = 0
        while board.outcome(claim_draw=True) is None and board.ply < MAX_GAME_PLIES:
            player = self.engines.player(skills[board.turn])
            player.position(board.fen())
            depth = 1 + skills[board.turn]  # where Skill Level picks its move
            result = player.go(depth=depth, nodes=PLAYER_NODES, timeout=SEARCH_SECONDS)
            move = result.bestmove
            if move is None:
                break
            if judged is not None:
                weighed = weighed_moves(result, skills[board.turn], move)
                self.try_alternatives(board, weighed, judged, source)
            judged = self.scan(board, move, judged, source)
            score = judged.score if judged is not None else Score()
            decided = decided + 1 if score.mate is not None or abs(score.cp) >= DECIDED_CP else 0
            if decided >= DECIDED_PLIES:
                break
        self.stats.games += 1

    def save_stats(self, force: bool = False) -> None:
        if not force and time.monotonic() - self.saved_at < SAVE_SECONDS:
            return
        self.saved_at = time.monotonic()
        stats = self.stats
        figures = {
            "games": stats.games,
            "positions": stats.positions,
            "candidates": stats.candidates,
            "kept": stats.kept,
            "rejected": dict(stats.rejected),
            "wall_seconds": round(time.monotonic() - stats.started),
            "cpu_seconds": round(cpu_seconds(self.engines), 1),
        }
        path = self.out / f"worker-{self.number}-stats.json"
        path.write_text(json.dumps(figures, indent=1) + "\n")


def weighed_moves(result: SearchResult, skill: int, played: str) -> list[str]:
    """The other first moves of the lines a player at `skill` chose among: Stockfish's
    `Skill Level` picks its move from its best WEIGHED_LINES lines at depth 1 + skill."""
    depth = 1 + skill
    lines = [info for info in result.infos if info.depth == depth and info.pv]
    moves = {info.multipv: info.pv[0] for info in lines}
    return [move for _, move in sorted(moves.items()) if move != played]


def _score_json(score: Score) -> dict[str, int]:
    return {"mate": score.mate} if score.mate is not None else {"cp": score.cp}


def cpu_seconds(engines: Engines) -> float:
    """CPU seconds of this process and of its engines so far (Linux's /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for engine in engines.all():
        try:
            fields = Path(f"/proc/{engine.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
        except (OSError, IndexError, ValueError):
            pass
    return total


def read_openings(path: Path = OPENINGS) -> list[list[str]]:
    """The SAN moves of every named opening."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [
        [token for token in line.split("\t")[2].split() if not token.endswith(".")]
        for line in lines
    ]


def generate(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    # A worker stopped with SIGTERM still writes its figures (the `finally` below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    engines = Engines(stockfish_command(args.stockfish))
    worker = Worker(engines, out, args.worker, random.Random(args.seed * 1000 + args.worker))
    deadline = time.monotonic() + args.minutes * 60
    try:
        if args.pgn:
            for path in PGN_FILES:
                worker.scan_pgn(path)
        openings = read_openings()
        while time.monotonic() < deadline:
            try:
                worker.play_game(openings)
            except (ChessError, EngineError) as error:
                print(f"worker {args.worker}: game abandoned: {error}", file=sys.stderr)
                engines.close()
                engines = worker.engines = Engines(stockfish_command(args.stockfish))
    finally:
        worker.save_stats(force=True)
        engines.close()


# -- assembling the shipped file --------------------------------------------------------------

ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ID_LENGTH = 6  # lichess's ids have 5 characters: ours can never be taken for one of theirs


def puzzle_id(fen: str, moves: list[str]) -> str:
    """A stable id from the puzzle's position and line."""
    number = int.from_bytes(hashlib.sha1((fen + " " + " ".join(moves)).encode()).digest())
    letters = []
    for _ in range(ID_LENGTH):
        number, digit = divmod(number, len(ID_ALPHABET))
        letters.append(ID_ALPHABET[digit])
    return "".join(letters)


def read_records(folder: Path) -> list[dict[str, Any]]:
    """Every worker's verified puzzles, each position and setting-up move once."""
    records: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("worker-*.jsonl")):
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(text)
            except json.JSONDecodeError:  # the last line of a worker stopped mid-write
                continue
            key = " ".join(record["fen"].split()[:4]) + " " + record["moves"][0]
            if record["source"] not in DROPPED_SOURCES:
                records.setdefault(key, record)
    return list(records.values())


def make_puzzle(record: dict[str, Any]) -> Puzzle:
    fen, moves = record["fen"], record["moves"]
    difficulty = measure_difficulty(fen, moves, record["judge_move"] == moves[1])
    return Puzzle(
        puzzle_id(fen, moves), fen, tuple(moves), estimate_rating(difficulty),
        INITIAL_DEVIATION, 0, 0, find_themes(fen, moves), record["source"], (),
    )  # fmt: skip


def assemble(args: argparse.Namespace) -> None:
    folder, target = Path(args.out), Path(args.file)
    started = time.process_time()
    puzzles = sorted((make_puzzle(record) for record in read_records(folder)), key=lambda p: p.id)
    text = make_puzzle_csv(puzzles)
    read_back = list(read_puzzles(text.splitlines()))
    if read_back != puzzles:
        raise SystemExit("the written file does not read back as written")
    target.write_text(text, encoding="utf-8")
    print(f"{len(puzzles)} puzzles -> {target} ({len(text.encode()):,} bytes); "
          f"themes and ratings in {time.process_time() - started:.1f} s of CPU")  # fmt: skip
    print_figures(folder, puzzles)


def print_figures(folder: Path, puzzles: list[Puzzle]) -> None:
    """The generator's figures: the workers' sums, the themes and the ratings."""
    totals: Counter[str] = Counter()
    rejected: Counter[str] = Counter()
    for path in sorted(folder.glob("worker-*-stats.json")):
        figures = json.loads(path.read_text())
        rejected.update(figures.pop("rejected"))
        totals.update({key: value for key, value in figures.items()})
    print("generator: " + ", ".join(f"{key} {value:,}" for key, value in totals.items()))
    print("rejected: " + ", ".join(f"{key} {value:,}" for key, value in rejected.most_common()))
    themes = Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    print("themes: " + ", ".join(f"{key} {themes[key]}" for key in THEMES))
    buckets = Counter(puzzle.rating // 200 * 200 for puzzle in puzzles)
    print("ratings: " + ", ".join(f"{low}-{low + 199}: {buckets[low]}" for low in sorted(buckets)))
    sources = Counter("engine" if p.game_url.startswith("stockfish") else "game" for p in puzzles)
    print(f"sources: {dict(sources)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("generate", help="find and verify puzzles")
    run.add_argument("--worker", type=int, default=0)
    run.add_argument("--minutes", type=float, default=60.0)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--pgn", action="store_true", help="read the project's games first")
    run.add_argument("--stockfish", help="the engine to run (default: native, else npm)")
    run.add_argument("--out", default=str(OUT))
    build = commands.add_parser("assemble", help="write the shipped CSV from the workers' files")
    build.add_argument("--out", default=str(OUT))
    build.add_argument("--file", default=str(SHIPPED))
    args = parser.parse_args(argv)
    if args.command == "generate":
        generate(args)
    else:
        assemble(args)


if __name__ == "__main__":
    main()
