"""Computer players: anything with ``choose_move(board) -> Move`` is a `Player`.

Level 1 is `RandomPlayer`, which picks uniformly among the legal moves with its own seeded
random generator, so a game between seeded players replays exactly. It sorts the legal moves
by UCI before choosing, so its choices do not depend on the order the move generator happens to
produce them in. Levels 2 to 8 come from the engine (`chesscore.engine.levels`); `make_player`
builds any level.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from chesscore.errors import ChessError

if TYPE_CHECKING:
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

RANDOM_LEVEL = 1


class Player(Protocol):
    """Something that picks a move for the side to move."""

    def choose_move(self, board: Board) -> Move:
        """A legal move of `board`; the board is left as it was."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal move; the same seed gives the same choices.

    >>> from chesscore import Board
    >>> RandomPlayer(seed=7).choose_move(Board()) == RandomPlayer(seed=7).choose_move(Board())
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, board: Board) -> Move:
        moves = sorted(board.legal_moves(), key=lambda move: move.uci())
        if not moves:
            raise ChessError(f"no legal move to choose in {board.fen()!r}")
        return self.rng.choice(moves)


def make_player(level: int, seed: int | None = None) -> Player:
    """The computer player of strength `level`: 1 plays random moves, 2-8 are the engine's."""
    if level == RANDOM_LEVEL:
        return RandomPlayer(seed)
    # Imported here: the engine levels are heavy and build on this module's neighbours.
    from chesscore.engine.levels import make_level_player

    return make_level_player(level, seed)
