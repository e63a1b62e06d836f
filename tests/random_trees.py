"""Seeded random move trees for the PGN export and analysis tree tests.

`random_game(seed)` is an `ImportedGame` whose moves branch into variations (themselves
branching, a few levels deep) with comments, NAGs, clocks and evaluations on random nodes, in
the forms PGN keeps exactly (comments of plain words, clocks in tenths of a second, evaluations
as lichess writes them). Its variations hang on the move they replace, never on the first move
of another variation, which is the one form the flat tree of the analysis board can tell apart
(it keeps every alternative as a sibling).
"""

from __future__ import annotations

import random

from chesscore import Board, Move
from chesscore.rules.pgn_import import ImportedGame, Node

WORDS = ("good", "bad", "the knight", "é à ü", "→ 0.5", "only move", "a (parenthesis)")
EVALUATIONS = ("0.36", "-1.20", "0.00", "12.50", "#3", "#-2", "-0.05")
NAGS = (1, 2, 3, 4, 5, 6, 10, 14, 18)


def random_game(seed: int, plies: int = 40, fen: str | None = None) -> ImportedGame:
    rng = random.Random(seed)
    board = Board() if fen is None else Board.from_fen(fen)
    moves = _line(board, rng, plies, depth=0, first_may_branch=True)
    headers = {"Event": f"random {seed}", "White": "w", "Black": "b"}
    comment = rng.choice(WORDS) if rng.random() < 0.5 else ""
    return ImportedGame(headers, board.fen(), moves, comment, "*", 1)


def _line(
    board: Board, rng: random.Random, plies: int, depth: int, first_may_branch: bool
) -> tuple[Node, ...]:
    """A line of at most `plies` moves from `board` (left as it was)."""
    nodes: list[Node] = []
    played = 0
    for index in range(plies):
        legal = sorted(board.legal_moves(), key=lambda move: move.uci())
        if not legal:
            break
        move = rng.choice(legal)
        variations: tuple[tuple[Node, ...], ...] = ()
        may_branch = first_may_branch or index > 0
        if may_branch and depth < 4 and len(legal) > 1 and rng.random() < 0.25 / (1 + 2 * depth):
            others = [other for other in legal if other != move]
            chosen = rng.sample(others, min(len(others), rng.randint(1, 2)))
            variations = tuple(_variation(board, rng, alt, depth + 1) for alt in chosen)
        nodes.append(_node(board, move, rng, variations))
        board.push(move)
        played += 1
    for _ in range(played):
        board.pop()
    return tuple(nodes)


def _variation(board: Board, rng: random.Random, first: Move, depth: int) -> tuple[Node, ...]:
    head = _node(board, first, rng, ())
    board.push(first)
    rest = _line(board, rng, rng.randint(0, 6), depth, first_may_branch=True)
    board.pop()
    return (head, *rest)


def _node(
    board: Board, move: Move, rng: random.Random, variations: tuple[tuple[Node, ...], ...]
) -> Node:
    comment = rng.choice(WORDS) if rng.random() < 0.3 else ""
    nags = tuple(sorted(rng.sample(NAGS, rng.randint(1, 2)))) if rng.random() < 0.2 else ()
    clock = rng.randint(0, 20_000) / 10 if rng.random() < 0.4 else None
    evaluation = rng.choice(EVALUATIONS) if rng.random() < 0.3 else None
    return Node(move, board.san(move), comment, nags, clock, evaluation, variations)


def count_nodes(line: tuple[Node, ...]) -> int:
    return sum(1 + sum(count_nodes(variation) for variation in node.variations) for node in line)
