"""Exchanges by brute force over python-chess's legal moves: what a capture wins with every
recapture order tried, and the hanging pieces that defines (its capture wins material for the
other side, at once or had the side to move passed). The oracle of chesscore.analysis.exchange
for the trainer's tests, the explanations' claims and the review's facts; it imports nothing of
chesscore's.
"""

from __future__ import annotations

import chess

CENTS = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}


def best_reply(board: chess.Board, sq: chess.Square) -> int:
    """What the side to move wins at most by capturing on `sq` and the exchange after."""
    best = 0
    for move in board.legal_moves:
        if move.to_square == sq:
            gain = CENTS[board.piece_type_at(sq) or chess.PAWN] + promotion_gain(move)
            board.push(move)
            best = max(best, gain - best_reply(board, sq))
            board.pop()
    return best


def promotion_gain(move: chess.Move) -> int:
    return CENTS[move.promotion] - CENTS[chess.PAWN] if move.promotion else 0


def taken(board: chess.Board, move: chess.Move) -> int:
    """What a move takes at once: the captured piece (en passant a pawn) and a promotion."""
    victim = board.piece_type_at(move.to_square)
    value = CENTS[victim] if victim else CENTS[chess.PAWN] if board.is_en_passant(move) else 0
    return value + promotion_gain(move)


def exchange_value(board: chess.Board, move: chess.Move) -> int:
    """What `move` takes and the exchange after on its target square."""
    value = taken(board, move)
    board.push(move)
    value -= best_reply(board, move.to_square)
    board.pop()
    return value


def captured_square(board: chess.Board, move: chess.Move) -> int | None:
    if board.is_en_passant(move):
        return move.to_square + (-8 if board.turn == chess.WHITE else 8)
    if board.piece_at(move.to_square):
        return move.to_square
    return -1 if move.promotion else None


def gains(board: chess.Board) -> dict[int, int]:
    """By captured square (-1: a plain promotion), the side to move's best exchange there."""
    found: dict[int, int] = {}
    for move in board.legal_moves:
        sq = captured_square(board, move)
        if sq is not None:
            found[sq] = max(exchange_value(board, move), found.get(sq, -(10**6)))
    return found


def passed(board: chess.Board) -> chess.Board:
    other = board.copy(stack=False)
    other.push(chess.Move.null())
    return other


def is_hanging(board: chess.Board, square: chess.Square) -> bool:
    """Whether the other side wins material by taking the piece on `square`: at once when it
    is to move, else had the side to move passed (in check it cannot: False)."""
    piece = board.piece_at(square)
    assert piece is not None
    if piece.color == board.turn and board.is_check():
        return False
    taker = board if piece.color != board.turn else passed(board)
    return gains(taker).get(square, 0) > 0
