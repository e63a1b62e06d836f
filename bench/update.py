"""What the server computes after every move, timed: chesscore beside python-chess.

For each position of a few hundred from seeded "real-looking" games (random moves biased
towards captures, checks and the centre), one update is: the SAN of the move, push the move,
the legal destinations of the side to move, the threat map with its derived facts (checkers,
pins, hanging pieces), and the outcome with draw claims (repetition and fifty moves). The
python-chess side does the same work its own way: san, push, a from -> targets map of the legal
moves, the attackers of all 64 squares for both colours, pins of every piece, checkers, and
`outcome(claim_draw=True)`. The two alternate over several rounds; each position keeps its
fastest round, and the median and 99th percentile over positions are printed side by side.
Goal (issue 4): our median under 200 microseconds.

Run: .venv/bin/python bench/update.py [--games N] [--plies N] [--rounds N]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore import Board, Move
from chesscore.analysis.threats import make_threat_map

CENTRE = {"c3", "d3", "e3", "f3", "c4", "d4", "e4", "f4", "c5", "d5", "e5", "f5", "c6", "d6"}
GOAL_MICROSECONDS = 200


def choose_lifelike_move(board: Board, rng: random.Random) -> Move:
    """A random legal move, captures four times and central moves twice as likely."""
    moves = sorted(board.legal_moves(), key=lambda move: move.uci())
    weights = [
        (4 if board.is_capture(move) else 1) * (2 if move.uci()[2:4] in CENTRE else 1)
        for move in moves
    ]
    return rng.choices(moves, weights)[0]


def make_games(games: int, plies: int) -> list[tuple[str, list[str]]]:
    """(start FEN, UCI moves) of seeded lifelike games that stop before the game ends."""
    result = []
    for seed in range(games):
        rng = random.Random(seed)
        board = Board()
        while len(board.move_stack) < plies and board.outcome(claim_draw=True) is None:
            board.push(choose_lifelike_move(board, rng))
        result.append((Board().fen(), [move.uci() for move in board.move_stack]))
    return result


def update_chesscore(board: Board, uci: str) -> object:
    move = Move.from_uci(uci)
    san = board.san(move)
    board.push(move)
    return san, board.destinations(), make_threat_map(board), board.outcome(claim_draw=True)


def update_python_chess(board: chess.Board, uci: str) -> object:
    move = chess.Move.from_uci(uci)
    san = board.san(move)
    board.push(move)
    targets: dict[int, list[int]] = {}
    for legal in board.legal_moves:
        targets.setdefault(legal.from_square, []).append(legal.to_square)
    attackers = [
        (board.attackers_mask(chess.WHITE, sq), board.attackers_mask(chess.BLACK, sq))
        for sq in chess.SQUARES
    ]
    pins = [board.pin_mask(board.color_at(sq), sq) for sq in chess.SquareSet(board.occupied)]
    return san, targets, attackers, pins, board.checkers_mask, board.outcome(claim_draw=True)


def time_game(make_board: Callable[[str], object], update: Callable, fen: str, moves: list[str]):
    """Microseconds of every update of one game."""
    board = make_board(fen)
    clock = time.perf_counter_ns
    times = []
    for uci in moves:
        start = clock()
        update(board, uci)
        times.append((clock() - start) / 1000)
    return times


def measure(games: list[tuple[str, list[str]]], rounds: int) -> tuple[list[float], list[float]]:
    """Per position, the fastest of `rounds` updates: (chesscore, python-chess)."""
    ours: list[list[float]] = []
    theirs: list[list[float]] = []
    for _ in range(rounds):
        for fen, moves in games:
            ours.append(time_game(Board, update_chesscore, fen, moves))
            theirs.append(time_game(chess.Board, update_python_chess, fen, moves))
    return fastest(ours, len(games)), fastest(theirs, len(games))


def fastest(runs: list[list[float]], games: int) -> list[float]:
    """Per position, the minimum over rounds; `runs` holds one list per game per round."""
    per_round = [runs[start : start + games] for start in range(0, len(runs), games)]
    flat = [[t for game in round_ for t in game] for round_ in per_round]
    return [min(times) for times in zip(*flat, strict=True)]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--plies", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = make_games(args.games, args.plies)
    ours, theirs = measure(games, args.rounds)
    print(
        f"post-move update, {len(ours)} positions from {len(games)} seeded lifelike games, "
        f"fastest of {args.rounds} rounds per position; Python {platform.python_version()}, "
        f"{platform.machine()}, python-chess {chess.__version__}"
    )
    print(f"{'':14}{'median us':>12}{'p99 us':>12}")
    print(f"{'chesscore':14}{statistics.median(ours):12.1f}{percentile(ours, 0.99):12.1f}")
    print(f"{'python-chess':14}{statistics.median(theirs):12.1f}{percentile(theirs, 0.99):12.1f}")
    median = statistics.median(ours)
    verdict = "met" if median < GOAL_MICROSECONDS else "NOT met"
    print(f"goal: chesscore median < {GOAL_MICROSECONDS} us: {verdict} ({median:.1f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
