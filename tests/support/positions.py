"""Positions sampled from seeded random games, for the tests that check a chesscore answer on
every square of many positions (attacks, x-rays, exchange labels)."""

from __future__ import annotations

from collections.abc import Iterable

import chess

from chesscore import Board
from tests.random_games import play_random_game


def game_positions(
    seed: int, max_plies: int, stride: int = 1, *, final: bool = True
) -> list[Board]:
    """Every `stride`-th position before a move of the seeded random game `seed`, and its final
    position when `final`, as independent boards (each with the history that led to it)."""
    board = play_random_game(seed, max_plies=max_plies)
    replay = board.root()
    positions = []
    for index, move in enumerate(board.move_stack):
        if index % stride == 0:
            positions.append(replay.copy())
        replay.push(move)
    return [*positions, replay] if final else positions


def sample_fens(seeds: Iterable[int], max_plies: int, stride: int) -> list[str]:
    """The FENs of every `stride`-th position before a move of the games of `seeds`."""
    return [
        board.fen()
        for seed in seeds
        for board in game_positions(seed, max_plies, stride, final=False)
    ]


def attackers_by_color(fen: str) -> dict[str, dict[str, list[str]]]:
    """python-chess's answer to a state's `threats.attackers` (docs/protocol.md): per colour,
    every square its pieces attack or defend -> the squares of those pieces, in name order."""
    board = chess.Board(fen)
    return {
        name: {
            chess.square_name(square): sorted(map(chess.square_name, attackers))
            for square in chess.SQUARES
            if (attackers := board.attackers(color, square))
        }
        for name, color in (("white", chess.WHITE), ("black", chess.BLACK))
    }
