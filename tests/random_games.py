"""Seeded random games for the property and differential tests.

A random player picks uniformly among the legal moves, sorted by UCI so that the same seed
gives the same game whatever order the move generator produces, until the game is over
(without draw claims) or `max_plies` moves have been made.
"""

from __future__ import annotations

import random

from chesscore import Board, Move


def choose_random_move(board: Board, rng: random.Random) -> Move:
    """A uniformly random legal move, chosen reproducibly."""
    return rng.choice(sorted(board.legal_moves(), key=lambda move: move.uci()))


def play_random_game(seed: int, max_plies: int = 1000, fen: str | None = None) -> Board:
    """The board at the end of a seeded random game; its `move_stack` holds the moves."""
    rng = random.Random(seed)
    board = Board() if fen is None else Board.from_fen(fen)
    while len(board.move_stack) < max_plies and board.outcome() is None:
        board.push(choose_random_move(board, rng))
    return board
