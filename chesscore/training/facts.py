"""What a position's drills read, computed once per position and kept with it.

`PositionFacts(fen)` holds the board and, each made on first use, the threat map, the x-rays and
pin lines (absolute and relative: chesscore.analysis.xray), the safety label of every legal move
(chesscore.analysis.see) and, per legal move, the enemy pieces the moved piece attacks from its
target square and counts as targets (`move_targets`). The server keeps these per position in a
small cache, as the game page keeps its facts (server.threats.cache), so a second drill
on the same position costs a look-up. Nothing here changes the board it was made from: moves
are tried on a private copy and taken back.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import ThreatMap, make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.analysis.xray import PinLine, XrayMap, make_xray_map
from chesscore.rules.attacks import attackers, is_attacked
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import KING, NAME_ORDER


@dataclass(frozen=True, slots=True)
class MoveAttacks:
    """A legal move and what its piece attacks from the target square: `targets` are enemy
    pieces that are the king, undefended, or worth more than the moved piece (name order);
    `new_targets` those of them it did not attack from its origin."""

    move: Move
    is_capture: bool
    gives_check: bool
    targets: tuple[int, ...]
    new_targets: tuple[int, ...]


class PositionFacts:
    """The facts of one position (see the module docstring); `fen` must be a legal position."""

    def __init__(self, fen: str) -> None:
        self.board = Board.from_fen(fen)
        self.fen = self.board.fen()

    @cached_property
    def threats(self) -> ThreatMap:
        return make_threat_map(self.board)

    @cached_property
    def xrays(self) -> XrayMap:
        return make_xray_map(self.board)

    @property
    def pins(self) -> tuple[PinLine, ...]:
        return self.xrays.pins

    @cached_property
    def labels(self) -> dict[int, dict[int, str]]:
        """From-square -> to-square -> "safe" | "contested" | "losing" (see classify)."""
        return classify_destinations(self.board)

    @cached_property
    def moves(self) -> tuple[MoveAttacks, ...]:
        """Every legal move with its attacks, in the order of their UCI names."""
        work = self.board.copy()
        found = []
        for move in sorted(work.legal_moves(), key=Move.uci):
            capture, check = work.is_capture(move), work.gives_check(move)
            before = set(_targets(work, move.from_square))
            work.push(move)
            after = _targets(work, move.to_square)
            work.pop()
            new = tuple(sq for sq in after if sq not in before)
            found.append(MoveAttacks(move, capture, check, after, new))
        return tuple(found)

    def piece_count(self) -> int:
        return len(self.board.piece_squares[0]) + len(self.board.piece_squares[1])


def _targets(board: Board, origin: int) -> tuple[int, ...]:
    """The enemy pieces the piece on `origin` attacks that are the king, undefended, or worth
    more than it (the targets of a threat or a fork, as chesscore.analysis.insight counts a
    fork's), in name order."""
    cells = board.board
    piece = cells[origin]
    color = piece >> 3
    value = PIECE_VALUES[piece & 7]
    found = []
    enemies = board.piece_squares[color ^ 1]
    for sq in enemies:
        if not attackers(cells, sq, (origin,)):
            continue
        kind = cells[sq] & 7
        if kind == KING or PIECE_VALUES[kind] > value or not is_attacked(cells, sq, enemies - {sq}):
            found.append(sq)
    return tuple(sorted(found, key=NAME_ORDER.__getitem__))
