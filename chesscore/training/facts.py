"""What a position's drills read, computed once per position and kept with it.

`PositionFacts(fen)` holds the board and, each made on first use, the threat map, the x-rays and
pin lines (absolute and relative: chesscore.analysis.xray), the exchange label of every legal
move (chesscore.analysis.see), the hanging pieces by the exchange, and per legal move the enemy
pieces the moved piece attacks from its target square (`moves`). Two questions are asked per
move, only of the moves a drill needs, and remembered: whether it loses material
(`loses_material`) and which of the pieces it attacks fall or must be answered (`targets_of`),
both settled by chesscore.training.material. The server keeps these per position in a small
cache, as the game page keeps its facts (server.threats.cache), so a second drill on
the same position costs a look-up. Nothing here changes the board it was made from: moves are
tried on a private copy and taken back."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from chesscore.analysis import exchange
from chesscore.analysis.exchange import falling
from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import ThreatMap, make_threat_map, piece_attack_lists
from chesscore.analysis.xray import PinLine, XrayMap, make_xray_map
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import (
    KING,
    PAWN,
    PAWN_CAPTURE_TARGETS,
    PIECE_RAYS,
    QUEEN,
    color_of,
    in_name_order,
    piece_type_of,
)
from chesscore.training.material import Risks, hanging_gains


@dataclass(frozen=True, slots=True)
class MoveAttacks:
    """A legal move and what its piece attacks from the target square: `attacked` are the
    enemy pieces it attacks there (the king too), `new_attacked` those of them it did not
    attack from its origin (name order). Whether they are targets (they fall or must be
    answered) is `PositionFacts.targets_of`'s question, asked of the few moves that need it."""

    move: Move
    is_capture: bool
    gives_check: bool
    attacked: tuple[int, ...]
    new_attacked: tuple[int, ...]


class PositionFacts:
    """The facts of one position (see the module docstring); `fen` must be a legal position."""

    def __init__(self, fen: str) -> None:
        self.board = Board.from_fen(fen)
        self.fen = self.board.fen()
        self._losing: dict[int, bool] = {}
        self._targets: dict[int, tuple[int, ...]] = {}

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
    def hanging(self) -> dict[int, int] | None:
        """The hanging pieces of both colours, in name order, each with what its capture wins
        (material.hanging_gains); None in check."""
        gains = hanging_gains(self.board)
        return None if gains is None else {sq: gains[sq] for sq in in_name_order(gains)}

    @cached_property
    def risks(self) -> Risks:
        return Risks.of(self.board)

    @cached_property
    def moves(self) -> tuple[MoveAttacks, ...]:
        """Every legal move with its attacks, in the order of their UCI names."""
        work = self.board.copy()
        found = []
        for move in sorted(work.legal_moves(), key=Move.uci):
            capture, check = work.is_capture(move), work.gives_check(move)
            before = set(_attacked(work, move.from_square))
            work.push(move)
            after = _attacked(work, move.to_square)
            work.pop()
            new = tuple(sq for sq in after if sq not in before)
            found.append(MoveAttacks(move, capture, check, after, new))
        return tuple(found)

    def loses_material(self, move: Move) -> bool:
        """Whether the legal `move` loses material (chesscore.training.material.Risks); the
        best of a promotion's four pieces."""
        packed = self._packed(move)
        if packed not in self._losing:
            # A copy per question: the facts are shared by the server's threads.
            self._losing[packed] = self.risks.loses_material(self.board.copy(), packed)
        return self._losing[packed]

    def targets_of(self, item: MoveAttacks) -> tuple[int, ...]:
        """The pieces the moved piece of `item` attacks that fall or must be answered: the
        king (a check) and those it takes winning material had the opponent passed; none when
        the moved piece hangs where it lands (the opponent takes it instead: the insight's
        forks, chesscore.analysis.insight, judge the same)."""
        packed = self._packed(item.move)
        if packed not in self._targets:
            cells = self.board.board
            kings = [sq for sq in item.attacked if piece_type_of(cells[sq]) == KING]
            others = [sq for sq in item.attacked if piece_type_of(cells[sq]) != KING]
            work = self.board.copy()
            work.push_packed(packed)
            landed = item.move.to_square
            mover = work.turn ^ 1
            if landed in exchange.hanging_gains(work, piece_attack_lists(work), mover):
                self._targets[packed] = ()
            else:
                won = falling(work, landed, others) if others else []
                self._targets[packed] = tuple(in_name_order([*kings, *won]))
        return self._targets[packed]

    def _packed(self, move: Move) -> int:
        """The packed legal move of `move`, a promotion to a queen when none is named."""
        if move.promotion is None:
            queen = Move(move.from_square, move.to_square, QUEEN)
            move = queen if self.board.find_packed(queen) is not None else move
        packed = self.board.find_packed(move)
        if packed is None:
            raise ValueError(f"not a legal move in {self.fen!r}: {move.uci()!r}")
        return packed

    def piece_count(self) -> int:
        return len(self.board.piece_squares[0]) + len(self.board.piece_squares[1])


def _attacked(board: Board, origin: int) -> tuple[int, ...]:
    """The enemy pieces (the king too) the piece on `origin` attacks, in name order: its rays
    walked up to the first piece (a knight's or king's rays are single squares), a pawn's two
    capture squares. Asked twice per legal move, so walked here rather than asking the attack
    primitive about every enemy piece."""
    cells = board.board
    code = cells[origin]
    kind, color = piece_type_of(code), color_of(code)
    found = []
    if kind == PAWN:
        for sq in PAWN_CAPTURE_TARGETS[color][origin]:
            if cells[sq] and color_of(cells[sq]) != color:
                found.append(sq)
        return tuple(in_name_order(found))
    for ray in PIECE_RAYS[kind][origin]:
        for sq in ray:
            if cells[sq]:
                if color_of(cells[sq]) != color:
                    found.append(sq)
                break
    return tuple(in_name_order(found))
