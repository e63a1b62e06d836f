"""Perft: count the leaf nodes of the legal move tree to a depth, the standard test of a move
generator (the counts are compared with published ones). The last ply is counted without
making its moves ("bulk counting"): the number of legal moves of a position is its number of
leaves at depth 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.rules import movegen
from chesscore.rules.move import Move

if TYPE_CHECKING:
    from chesscore.rules.position import Position


def perft(board: Position, depth: int) -> int:
    """Leaf nodes of the legal move tree of `board` at `depth` plies."""
    if depth < 0:
        raise ValueError(f"perft depth must be at least 0, not {depth!r}")
    if depth == 0:
        return 1
    return _count(board, depth)


def _count(board: Position, depth: int) -> int:
    # Bound once: these run once per interior node of a tree of millions.
    generate, push, pop = movegen.generate_legal, board.push_packed, board.pop_packed
    moves = generate(board)
    if depth == 1:
        return len(moves)
    nodes = 0
    if depth == 2:
        # The last two plies inline: the most frequent case, without a call per move.
        for move in moves:
            push(move)
            nodes += len(generate(board))
            pop()
        return nodes
    for move in moves:
        push(move)
        nodes += _count(board, depth - 1)
        pop()
    return nodes


def perft_divide(board: Position, depth: int) -> dict[str, int]:
    """Leaf count below each legal root move (UCI -> nodes), for finding generator bugs."""
    if depth < 1:
        raise ValueError(f"perft_divide depth must be at least 1, not {depth!r}")
    counts = {}
    for move in board.generate_legal():
        board.push_packed(move)
        counts[Move.from_packed(move).uci()] = perft(board, depth - 1)
        board.pop_packed()
    return dict(sorted(counts.items()))
