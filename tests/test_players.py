"""Computer players (chesscore.engine.players): the seeded random player and `make_player`."""

from __future__ import annotations

import pytest

from chesscore import Board, ChessError
from chesscore.engine.players import Player, RandomPlayer, make_player


def play_game(white: Player, black: Player, plies: int) -> list[str]:
    board = Board()
    for _ in range(plies):
        if board.outcome() is not None:
            break
        player = white if board.turn == 0 else black
        board.push(player.choose_move(board))
    return [move.uci() for move in board.move_stack]


@pytest.mark.parametrize("seed", [0, 1, 42])
def test_same_seed_same_game(seed: int) -> None:
    first = play_game(RandomPlayer(seed), RandomPlayer(seed + 1), 60)
    again = play_game(RandomPlayer(seed), RandomPlayer(seed + 1), 60)
    assert first == again
    assert len(first) == 60


def test_different_seeds_differ() -> None:
    games = {tuple(play_game(RandomPlayer(s), RandomPlayer(s), 20)) for s in range(5)}
    assert len(games) == 5


def test_random_player_plays_legal_moves_and_leaves_the_board() -> None:
    board = Board.from_fen("4k3/8/8/8/8/8/4p3/R3K2R w KQ - 0 1")
    fen = board.fen()
    chosen = {RandomPlayer(seed).choose_move(board) for seed in range(60)}
    assert chosen <= set(board.legal_moves())
    assert len(chosen) > 5  # it does spread its choices
    assert board.fen() == fen


def test_random_player_with_no_move_to_make() -> None:
    mated = Board.from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")
    with pytest.raises(ChessError, match="no legal move"):
        RandomPlayer(1).choose_move(mated)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_make_player_levels_play_legal_moves(level: int) -> None:
    board = Board()
    move = make_player(level, seed=3).choose_move(board)
    assert move in board.legal_moves()


def test_make_player_level_1_is_random_and_seeded() -> None:
    player = make_player(1, seed=9)
    assert isinstance(player, RandomPlayer)
    assert play_game(player, make_player(1, 10), 30) == play_game(
        RandomPlayer(9), RandomPlayer(10), 30
    )


@pytest.mark.parametrize("level", [0, -1, 9, 100])
def test_make_player_refuses_unknown_levels(level: int) -> None:
    with pytest.raises(ChessError, match=f"unknown player level {level}"):
        make_player(level)
