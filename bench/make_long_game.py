"""Write bench/data/long_game.pgn: a 200-ply game with variations, for timing the PGN import.

The moves are a seeded random game (python-chess plays it and writes the PGN, so the file is
standard whatever chesscore does), long enough that nothing ends it before ply 200. Every
tenth move carries a variation of four plies (every fortieth a variation inside it too), every
move a lichess-style clock comment (`[%clk 0:04:58]`), every other an evaluation
(`[%eval 0.31]`), some a NAG or a text comment: what a real annotated export holds.

Usage: `python bench/make_long_game.py` (rewrites the file; the seed keeps it the same).
"""

from __future__ import annotations

import random
from pathlib import Path

import chess
import chess.pgn

OUT = Path(__file__).resolve().parent / "data" / "long_game.pgn"
PLIES = 200
SEED = 2024


def random_line(board: chess.Board, rng: random.Random, plies: int) -> list[chess.Move]:
    """Up to `plies` random legal moves from `board` (left unchanged)."""
    board = board.copy()
    line: list[chess.Move] = []
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda move: move.uci())
        if not moves:
            break
        line.append(rng.choice(moves))
        board.push(line[-1])
    return line


def main_line(seed: int) -> list[chess.Move]:
    """The first seeded random game, from `seed` on, that lasts `PLIES` plies."""
    while True:
        rng = random.Random(seed)
        board = chess.Board()
        moves = random_line(board, rng, PLIES)
        for move in moves:
            board.push(move)
        if len(moves) == PLIES and not board.is_game_over():
            return moves
        seed += 1


def add_line(node: chess.pgn.GameNode, moves: list[chess.Move]) -> None:
    for move in moves:
        node = node.add_variation(move)


def make_game() -> chess.pgn.Game:
    rng = random.Random(SEED)
    game = chess.pgn.Game()
    game.headers.update(
        Event="Rated blitz game", Site="https://lichess.org/abcdefgh", White="A", Black="B"
    )
    node: chess.pgn.GameNode = game
    seconds = [300, 300]
    for ply, move in enumerate(main_line(SEED)):
        if ply % 10 == 5:
            sideline = random_line(node.board(), rng, 4)
            add_line(node, sideline)
            if ply % 40 == 5 and len(sideline) > 2:
                branch = node.variations[-1].variations[0]
                add_line(branch, random_line(branch.board(), rng, 3))
        node = node.add_main_variation(move) if ply % 10 == 5 else node.add_variation(move)
        seconds[ply % 2] = max(1, seconds[ply % 2] - rng.randrange(1, 6))
        clock = seconds[ply % 2]
        comment = f"[%clk 0:{clock // 60:02d}:{clock % 60:02d}]"
        if ply % 2:
            comment = f"[%eval {rng.uniform(-3, 3):.2f}] {comment}"
        if ply % 15 == 7:
            node.nags.add(rng.choice([1, 2, 5, 6]))
        if ply % 25 == 12:
            comment += " A move to remember."
        node.comment = comment
    return game


if __name__ == "__main__":
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(str(make_game()) + "\n\n")
    print(f"wrote {OUT}")
