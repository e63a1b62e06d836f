"""How strong are the computer levels? Matches over UCI against engines nobody here wrote.

Every player is a UCI engine in its own process, driven through python-chess's engine module
(python-chess is also the referee: it keeps the game and decides how it ended, with draws by
threefold repetition and the fifty-move rule claimed). Ours is `python -m chesscore.uci` with
its `Level` option (level 1 is the random mover, level 2 the careful beginner, 3-8 search);
Stockfish is Debian's `/usr/games/stockfish` weakened with `Skill Level`; sunfish is the
`sunfish-uci` script of the `sunfish` package. Games start from a fixed set of balanced
openings, each played twice with colours swapped, and a game still running after `--max-plies`
plies is scored a draw. For each match the bench prints wins, draws and losses of the first
player, its score, and the Elo difference with a 95% error margin (from the per-game score
variance). `nps` measures our search's nodes per second beside sunfish's on the same
positions, each searching in this process for the same time, per CPU second (nodes as each
engine counts them).

    .venv/bin/python bench/strength.py nps --seconds 2
    .venv/bin/python bench/strength.py random --games 20 --movetime 100
    .venv/bin/python bench/strength.py ladder --games 10 --movetime 200
    .venv/bin/python bench/strength.py sunfish --games 20 --movetime 500
    .venv/bin/python bench/strength.py stockfish --skills 0 2 4 --games 20 --movetime 200

`--pgn FILE` keeps the games. `--movetime` (milliseconds) is given to both sides of every
match; without it each of our search levels uses its own thinking time (level 8: 2 s), times
`--time-scale` (0.25: a quarter, keeping the levels' ratios for a quicker ladder), and
opponents get the same time as the level they play. `--parallel 2` plays two games at once
(one per core: only one side of a game thinks at a time).
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chesscore.engine.levels import SEARCH_LEVELS  # noqa: E402
from chesscore.engine.search import Searcher, SearchLimits  # noqa: E402
from chesscore.rules.board import Board  # noqa: E402

ENGINE_TIMEOUT = 60.0  # seconds an engine may take beyond its thinking time
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
SUNFISH = str(Path(sys.executable).with_name("sunfish-uci"))

# Balanced openings (UCI moves from the start position), each played with both colours.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",
    "d2d4 d7d5 g1f3 g8f6 c1f4 c7c5",
]


@dataclass(frozen=True)
class PlayerSpec:
    """How to start one player: command, UCI options, thinking time in seconds."""

    name: str
    command: tuple[str, ...]
    options: tuple[tuple[str, int], ...]
    seconds: float

    def start(self) -> chess.engine.SimpleEngine:
        # A generous timeout: on a busy machine a Python engine can take seconds to start.
        engine = chess.engine.SimpleEngine.popen_uci(
            list(self.command), cwd=str(ROOT), timeout=ENGINE_TIMEOUT
        )
        if self.options:
            engine.configure(dict(self.options))
        return engine


def our_level(level: int, movetime_ms: int | None, time_scale: float = 1.0) -> PlayerSpec:
    """Our engine at `level`: its own thinking time times `time_scale`, or `movetime_ms`."""
    seconds = SEARCH_LEVELS[level].movetime * time_scale if level in SEARCH_LEVELS else 0.05
    if movetime_ms is not None and level in SEARCH_LEVELS:
        seconds = movetime_ms / 1000
    name = {1: "random (level 1)", 2: "careful (level 2)"}.get(level, f"level {level}")
    command = (sys.executable, "-m", "chesscore.uci")
    return PlayerSpec(name, command, (("Level", level),), seconds)


def stockfish(skill: int, seconds: float) -> PlayerSpec:
    options = (("Skill Level", skill), ("Threads", 1), ("Hash", 16))
    return PlayerSpec(f"stockfish skill {skill}", (STOCKFISH,), options, seconds)


def sunfish(seconds: float) -> PlayerSpec:
    return PlayerSpec("sunfish", (SUNFISH,), (), seconds)


@dataclass
class MatchResult:
    """Wins, draws and losses of the first player."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def elo(self) -> tuple[float, float]:
        """Elo difference and its 95% margin (infinite at a score of 0 or 1)."""
        n, s = self.games, self.score
        if s in (0.0, 1.0):
            return _elo_of(s), math.inf
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        error = 1.96 * math.sqrt(variance / n)
        low, high = _elo_of(s - error), _elo_of(s + error)
        return _elo_of(s), (high - low) / 2

    def summary(self) -> str:
        elo, margin = self.elo()
        elo_text = "inf" if math.isinf(elo) else f"{elo:+.0f}"
        margin_text = "inf" if math.isinf(margin) else f"{margin:.0f}"
        return (
            f"W {self.wins}  D {self.draws}  L {self.losses}  "
            f"score {100 * self.score:.1f}%  Elo {elo_text} +/- {margin_text}"
        )


def _elo_of(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def play_game(
    white: PlayerSpec, black: PlayerSpec, opening: str, max_plies: int
) -> tuple[str, str]:
    """One game: the result from White's side ("1-0", "0-1", "1/2-1/2") and its PGN.

    A game in which an engine fails to answer at all (it crashed, or the machine stalled it
    past ENGINE_TIMEOUT) is aborted: result "*", not counted in the match.
    """
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    engines: dict[bool, chess.engine.SimpleEngine] = {}
    specs = {chess.WHITE: white, chess.BLACK: black}
    result = "1/2-1/2"  # also when the game reaches max_plies
    try:
        engines[chess.WHITE], engines[chess.BLACK] = white.start(), black.start()
        while board.outcome(claim_draw=True) is None and board.ply() < max_plies:
            side = board.turn
            played = engines[side].play(board, chess.engine.Limit(time=specs[side].seconds))
            if played.move is None or played.move not in board.legal_moves:
                result = "0-1" if side == chess.WHITE else "1-0"  # an illegal move loses
                break
            board.push(played.move)
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()
    except (TimeoutError, chess.engine.EngineError) as error:
        print(f"  aborted: {white.name} - {black.name}: {error!r}", flush=True)
        result = "*"
    finally:
        for engine in engines.values():
            try:
                engine.quit()
            except (TimeoutError, chess.engine.EngineError):
                engine.close()
    game = chess.pgn.Game.from_board(board)
    game.headers.update(White=white.name, Black=black.name, Result=result)
    return result, str(game)


def play_match(
    first: PlayerSpec,
    second: PlayerSpec,
    games: int,
    max_plies: int,
    parallel: int,
    pgn_path: str | None = None,
) -> MatchResult:
    """`games` games, openings in turn, colours alternated; prints a line per game."""
    jobs = []
    for index in range(games):
        opening = OPENINGS[(index // 2) % len(OPENINGS)]
        first_is_white = index % 2 == 0
        jobs.append((index, opening, first_is_white))

    def run(job: tuple[int, str, bool]) -> tuple[int, tuple[str, str], bool]:
        index, opening, first_is_white = job
        white, black = (first, second) if first_is_white else (second, first)
        return index, play_game(white, black, opening, max_plies), first_is_white

    result = MatchResult()
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        for index, (outcome, pgn), first_is_white in pool.map(run, jobs):
            if pgn_path is not None:
                with open(pgn_path, "a", encoding="utf-8") as file:
                    file.write(pgn + "\n\n")
            if outcome == "*":
                print(f"  game {index + 1}: aborted, not counted", flush=True)
                continue
            points = {"1-0": 1.0, "0-1": 0.0}.get(outcome, 0.5)
            points = points if first_is_white else 1 - points
            result.wins += points == 1.0
            result.draws += points == 0.5
            result.losses += points == 0.0
            colour = "white" if first_is_white else "black"
            verdict = {1.0: "win", 0.5: "draw", 0.0: "loss"}[points]
            print(f"  game {index + 1}: {first.name} ({colour}) {outcome}: {verdict}", flush=True)
    return result


def report(first: PlayerSpec, second: PlayerSpec, args: argparse.Namespace) -> MatchResult:
    print(
        f"{first.name} ({first.seconds:g} s/move) vs {second.name} ({second.seconds:g} s/move), "
        f"{args.games} games",
        flush=True,
    )
    started = time.monotonic()
    result = play_match(first, second, args.games, args.max_plies, args.parallel, args.pgn)
    minutes = (time.monotonic() - started) / 60
    print(f"=> {first.name}: {result.summary()}  ({minutes:.1f} min)\n", flush=True)
    return result


def run_random(args: argparse.Namespace) -> None:
    """Every level from 2 up against the random mover."""
    for level in args.levels or [2, *SEARCH_LEVELS]:
        report(our_level(level, args.movetime, args.time_scale), our_level(1, None), args)


def run_ladder(args: argparse.Namespace) -> None:
    """Each search level against every level below it (down to 2)."""
    levels = args.levels or list(SEARCH_LEVELS)
    for level in levels:
        for lower in range(2, level):
            ours = our_level(level, args.movetime, args.time_scale)
            report(ours, our_level(lower, args.movetime, args.time_scale), args)


def run_sunfish(args: argparse.Namespace) -> None:
    for level in args.levels or [max(SEARCH_LEVELS)]:
        ours = our_level(level, args.movetime, args.time_scale)
        report(ours, sunfish(ours.seconds), args)


def run_stockfish(args: argparse.Namespace) -> None:
    for level in args.levels or [max(SEARCH_LEVELS)]:
        ours = our_level(level, args.movetime, args.time_scale)
        for skill in args.skills:
            report(ours, stockfish(skill, ours.seconds), args)


NPS_POSITIONS = [
    ("start", chess.STARTING_FEN),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("italian", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R b KQkq - 0 5"),
    ("queens gambit", "r1bqkb1r/pp3ppp/2n1pn2/2pp4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 6"),
    ("rook endgame", "8/5pk1/6p1/3R4/p4P2/r5P1/5K2/8 w - - 0 45"),
    ("middlegame", "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PBPN2/PP1N1PPP/R2Q1RK1 w - - 0 10"),
]


def our_nodes(fen: str, seconds: float) -> tuple[int, float]:
    """Our search's nodes in `seconds` of wall time, and the CPU seconds it used."""
    started = time.process_time()
    info = Searcher().search(Board.from_fen(fen), SearchLimits(movetime=seconds))
    return info.nodes, time.process_time() - started


def sunfish_nodes(fen: str, seconds: float) -> tuple[int, float]:
    """sunfish's own searcher, run in this process for `seconds` (its nodes, its way), and
    the CPU seconds it used."""
    import sunfish as engine
    import sunfish_ui.uci as sunfish_uci

    # Its FEN reader looks the engine up as a module global that its UCI loop sets.
    sunfish_uci.sunfish = engine  # type: ignore[attr-defined]
    searcher = engine.Searcher()
    position = sunfish_uci.from_fen(*fen.split())
    started = time.process_time()
    searcher.deadline = searcher.soft = time.time() + seconds
    try:
        for _ in searcher.search([position]):
            if time.time() > searcher.deadline:
                break
    except engine.Stop:
        pass
    return searcher.nodes, time.process_time() - started


def run_nps(seconds: float) -> None:
    """Nodes per CPU second of our search and sunfish's on the same positions.

    CPU time, not wall time, so that other work on the machine does not skew the figures.
    """
    print(
        f"nodes per CPU second, {seconds:g} s per position and engine "
        "(nodes as each engine counts them)"
    )
    print(f"{'position':<15}{'ours':>10}{'sunfish':>10}{'ratio':>8}")
    totals = [0, 0.0, 0, 0.0]
    for name, fen in NPS_POSITIONS:
        nodes, spent = our_nodes(fen, seconds)
        their_nodes, their_spent = sunfish_nodes(fen, seconds)
        ours, theirs = nodes / spent, their_nodes / their_spent
        totals = [totals[0] + nodes, totals[1] + spent, totals[2] + their_nodes,
                  totals[3] + their_spent]  # fmt: skip
        print(f"{name:<15}{ours:>10.0f}{theirs:>10.0f}{ours / theirs:>8.2f}", flush=True)
    ours, theirs = totals[0] / totals[1], totals[2] / totals[3]
    print(f"{'overall':<15}{ours:>10.0f}{theirs:>10.0f}{ours / theirs:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("match", choices=["nps", "random", "ladder", "sunfish", "stockfish"])
    parser.add_argument("--games", type=int, default=20, help="games per match (even)")
    parser.add_argument("--movetime", type=int, help="ms per move for both sides")
    parser.add_argument("--levels", type=int, nargs="*", help="our levels to test")
    parser.add_argument("--skills", type=int, nargs="*", default=[0, 2, 4])
    parser.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after")
    parser.add_argument("--parallel", type=int, default=1, help="games at once")
    parser.add_argument("--pgn", help="append every game to this PGN file")
    parser.add_argument(
        "--time-scale", type=float, default=1.0, help="our levels' own times times this"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="nps: time per position")
    args = parser.parse_args()
    if args.match == "nps":
        run_nps(args.seconds)
        return
    {
        "random": run_random,
        "ladder": run_ladder,
        "sunfish": run_sunfish,
        "stockfish": run_stockfish,
    }[args.match](args)


if __name__ == "__main__":
    main()
