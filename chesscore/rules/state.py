"""What move generation and FEN read of a position: the `PositionState` protocol.

chesscore.rules.movegen and chesscore.rules.fen work on any object with these fields and
methods; the Position (chesscore.rules.position) is the one that has them. Typing them with
this protocol instead of the class keeps the imports one way: the Position builds on movegen
and fen, which never import it.
"""

from __future__ import annotations

from typing import Protocol

from chesscore.rules.squares import Color


class PositionState(Protocol):
    """The state of a position as chesscore.rules.position documents it."""

    board: list[int]
    piece_squares: list[set[int]]
    kings: list[int]
    turn: Color
    castling_rights: int
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int

    @property
    def castling(self) -> str:
        """The castling rights as in FEN ("KQkq", "-")."""
        ...

    def push_packed(self, move: int) -> None: ...

    def pop_packed(self) -> int: ...

    def is_check(self) -> bool: ...
