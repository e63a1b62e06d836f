"""Large move trees, the heaviest a visitor may send: for the work pool's tests and bench.

`big_game(nodes)` is a seeded random game whose every main-line move carries variations of
`VARIATION_PLIES` moves until the tree holds `nodes` moves; `big_tree(nodes)` is its wire form
(server.analysis.tree), what the analysis page sends to export or share.
"""

from __future__ import annotations

import random
from typing import Any

from chesscore import Board, Move
from chesscore.rules.pgn_import import ImportedGame, Node
from server.analysis.tree import MAX_NODES, make_tree

# The most moves a tree may hold: the root is a node too.
MAX_MOVES = MAX_NODES - 1
VARIATION_PLIES = 10
VARIATIONS_PER_MOVE = 6


def _line(board: Board, rng: random.Random, plies: int) -> list[Node]:
    """Up to `plies` random moves from `board` (left as it was)."""
    nodes: list[Node] = []
    for _ in range(plies):
        legal = sorted(board.legal_moves(), key=Move.uci)
        if not legal:
            break
        move = rng.choice(legal)
        nodes.append(Node(move, board.san(move), "a comment"))
        board.push(move)
    for _ in nodes:
        board.pop()
    return nodes


def big_game(nodes: int, seed: int = 5) -> ImportedGame:
    """A game of about `nodes` moves counting its variations (fewer if its main line ends)."""
    rng, board = random.Random(seed), Board()
    line: list[Node] = []
    count = 0
    while count < nodes:
        legal = sorted(board.legal_moves(), key=Move.uci)
        if not legal:
            break
        move = rng.choice(legal)
        variations = []
        for other in [alternative for alternative in legal if alternative != move]:
            if count + 1 >= nodes or len(variations) == VARIATIONS_PER_MOVE:
                break
            board.push(other)
            rest = _line(board, rng, min(VARIATION_PLIES, nodes - count - 2))
            board.pop()
            variations.append((Node(other, board.san(other)), *rest))
            count += 1 + len(rest)
        line.append(Node(move, board.san(move), "", (), None, None, tuple(variations)))
        board.push(move)
        count += 1
    return ImportedGame({"Event": "big"}, Board().fen(), tuple(line), "", "*", 1)


def big_tree(nodes: int, seed: int = 5) -> dict[str, Any]:
    """The wire form of `big_game(nodes, seed)`."""
    return make_tree(big_game(nodes, seed), None, None)


def compact_tree(tree: dict[str, Any]) -> dict[str, Any]:
    """`tree` with only what the server reads of each node (its parent and move), as a script
    would send it: about 30 bytes a node."""
    nodes = [{}] + [{"parent": node["parent"], "uci": node["uci"]} for node in tree["nodes"][1:]]
    return {"fen": tree["fen"], "nodes": nodes}
