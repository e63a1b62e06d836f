"""Differential test of chesscore against python-chess over seeded random games.

Both libraries play the same random game side by side. At every ply they must agree on the set
of legal moves, the outcome without claims (termination and winner), the SAN of the move played
and the FEN after it; at every fifth ply (every ply under `slow`) and at the end of the game
also on the attackers of every square for both colours and on the outcome with draw claims, the
two costly comparisons. 200 games run by default, 5,000 under the `slow` marker. The games are
played to their end (mate, stalemate, insufficient material, fivefold repetition or the
seventy-five-move rule), about 350 plies each; the stride keeps the default run near a minute.
"""

from __future__ import annotations

import random

import chess
import pytest

from chesscore import BLACK, WHITE, Board, Outcome, Termination, square_name
from tests.random_games import choose_random_move

DEFAULT_GAMES = 200
SLOW_GAMES = 5000
# Plies between comparisons of (legal moves, attackers and claims) in the default run.
DEFAULT_STRIDES = (1, 5)

TERMINATIONS = {
    chess.Termination.CHECKMATE: Termination.CHECKMATE,
    chess.Termination.STALEMATE: Termination.STALEMATE,
    chess.Termination.INSUFFICIENT_MATERIAL: Termination.INSUFFICIENT_MATERIAL,
    chess.Termination.SEVENTYFIVE_MOVES: Termination.SEVENTYFIVE_MOVES,
    chess.Termination.FIVEFOLD_REPETITION: Termination.FIVEFOLD_REPETITION,
    chess.Termination.FIFTY_MOVES: Termination.FIFTY_MOVES,
    chess.Termination.THREEFOLD_REPETITION: Termination.THREEFOLD_REPETITION,
}
COLORS = ((WHITE, chess.WHITE), (BLACK, chess.BLACK))
# (python-chess square 0..63, chesscore 0x88 square) pairs.
SQUARES = [(sq, (sq >> 3) * 16 + (sq & 7)) for sq in chess.SQUARES]
# chesscore 0x88 square -> python-chess one-bit mask, to compare attacker sets as ints.
MASKS = {sq88: 1 << sq for sq, sq88 in SQUARES}


def expected_outcome(oracle: chess.Board, claim_draw: bool) -> Outcome | None:
    outcome = oracle.outcome(claim_draw=claim_draw)
    if outcome is None:
        return None
    winner = None if outcome.winner is None else (WHITE if outcome.winner else BLACK)
    return Outcome(TERMINATIONS[outcome.termination], winner)


def assert_same_attackers(board: Board, oracle: chess.Board) -> None:
    for chess_sq, sq in SQUARES:
        for color, chess_color in COLORS:
            ours = sum(MASKS[attacker] for attacker in board.attackers(color, sq))
            theirs = oracle.attackers_mask(chess_color, chess_sq)
            assert ours == theirs, (board.fen(), square_name(sq), color)


def assert_same_legal_moves(board: Board, oracle: chess.Board) -> None:
    ours = {move.uci() for move in board.legal_moves()}
    assert ours == {move.uci() for move in oracle.legal_moves}, board.fen()


def play_both(seed: int, strides: tuple[int, int]) -> None:
    rng = random.Random(seed)
    board, oracle = Board(), chess.Board()
    while True:
        outcome = board.outcome()
        assert outcome == expected_outcome(oracle, claim_draw=False), board.fen()
        if outcome is not None or board.ply % strides[0] == 0:
            assert_same_legal_moves(board, oracle)
        if outcome is not None or board.ply % strides[1] == 0:
            assert_same_attackers(board, oracle)
            claimed = expected_outcome(oracle, claim_draw=True)
            assert board.outcome(claim_draw=True) == claimed, board.fen()
        if outcome is not None:
            return
        move = choose_random_move(board, rng)
        chess_move = chess.Move.from_uci(move.uci())
        assert board.san(move) == oracle.san(chess_move), (board.fen(), move.uci())
        board.push(move)
        oracle.push(chess_move)
        assert board.fen() == oracle.fen(), oracle.move_stack


@pytest.mark.parametrize("seed", range(DEFAULT_GAMES))
def test_random_game_agrees_with_python_chess(seed: int) -> None:
    play_both(seed, DEFAULT_STRIDES)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(DEFAULT_GAMES, SLOW_GAMES))
def test_many_random_games_agree_with_python_chess(seed: int) -> None:
    play_both(seed, strides=(1, 1))
