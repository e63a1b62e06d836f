"""The Board: a Position (chesscore.rules.position) with the methods that need the formats and
rules above it, SAN (chesscore.rules.san) and the outcome with its draw rules
(chesscore.rules.outcome), so that those modules can take a Position without importing the
Board. This is the class callers use: `from chesscore import Board`.
"""

from __future__ import annotations

from chesscore.rules.move import Move
from chesscore.rules.outcome import (
    Outcome,
    can_claim_draw,
    can_claim_fifty_moves,
    can_claim_threefold_repetition,
    compute_outcome,
    has_insufficient_material,
    is_fifty_moves,
    is_insufficient_material,
    is_repetition,
)
from chesscore.rules.position import Position
from chesscore.rules.san import make_san, parse_san
from chesscore.rules.squares import Color


class Board(Position):
    """A chess position and the moves that led to it from its root position."""

    # -- SAN (chesscore.rules.san) ---------------------------------------------------------

    def san(self, move: Move) -> str:
        return make_san(self, move)

    def parse_san(self, text: str) -> Move:
        return parse_san(self, text)

    def push_san(self, text: str) -> Move:
        move = self.parse_san(text)
        self.push(move)
        return move

    # -- the outcome and the draw rules (chesscore.rules.outcome) --------------------------

    def outcome(self, claim_draw: bool = False) -> Outcome | None:
        return compute_outcome(self, claim_draw)

    def has_insufficient_material(self, color: Color) -> bool:
        return has_insufficient_material(self, color)

    def is_insufficient_material(self) -> bool:
        return is_insufficient_material(self)

    def is_repetition(self, count: int = 3) -> bool:
        return is_repetition(self, count)

    def is_fifty_moves(self) -> bool:
        return is_fifty_moves(self)

    def can_claim_threefold_repetition(self) -> bool:
        return can_claim_threefold_repetition(self)

    def can_claim_fifty_moves(self) -> bool:
        return can_claim_fifty_moves(self)

    def can_claim_draw(self) -> bool:
        return can_claim_draw(self)
