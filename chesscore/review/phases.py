"""A game's opening, middlegame and endgame, and each player's accuracy in each and so far.

The phases follow the material and development rules of lichess's `Divider` (scalachess),
without its third test, the "mixedness" of the pawns (a score of which side's pieces share
each 2x2 square of the board), which we leave out as not worth its table: the middlegame
begins at the first position where the knights, bishops, rooks and queens of both sides
number `MIDDLEGAME_PIECES` (10) or fewer, or a side has fewer than `DEVELOPED_BACK_RANK` (4)
of its own pieces left on its first rank (its pieces came out); the endgame at the first
position where they number `ENDGAME_PIECES` (6) or fewer. A game that reaches the endgame
before any middlegame test holds has none. A ply belongs to the phase of the position it is
played from: the move that trades into an endgame was chosen in the middlegame.

A phase's accuracy is lila's game accuracy (chesscore.analysis.judgement) restricted to the
phase's plies: every move keeps the accuracy and volatility weight it has in the whole game,
and the side's plies of the phase are summed up as its whole game is (the mean of their
weighted mean and their harmonic mean). The accuracy so far at ply k is the game accuracy of
the game cut after ply k, as if it had ended there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from chesscore.analysis.judgement import (
    Evaluation,
    game_accuracy,
    side_accuracy,
    weighted_accuracies,
)
from chesscore.review.evaluate import PositionEval
from chesscore.review.judge import accuracy_evaluations
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import BLACK, COLOR_NAMES, KING, PAWN, WHITE, Color

MIDDLEGAME_PIECES = 10
ENDGAME_PIECES = 6
DEVELOPED_BACK_RANK = 4
FIRST_RANKS = {WHITE: 0, BLACK: 7}  # each side's first rank, as 0x88's rank (sq // 16)


class Phase(Enum):
    OPENING = "opening"
    MIDDLEGAME = "middlegame"
    ENDGAME = "endgame"


@dataclass(frozen=True)
class Division:
    """Where the middlegame and the endgame begin: the index of the first position of each
    (0 the start, k the position after ply k), None for a phase the game never reaches."""

    middlegame: int | None
    endgame: int | None

    def phase_of_position(self, index: int) -> Phase:
        if self.endgame is not None and index >= self.endgame:
            return Phase.ENDGAME
        if self.middlegame is not None and index >= self.middlegame:
            return Phase.MIDDLEGAME
        return Phase.OPENING

    def phase_of_ply(self, ply: int) -> Phase:
        """The phase of ply `ply` (from 1): that of the position it is played from."""
        return self.phase_of_position(ply - 1)

    def to_json(self) -> dict[str, int | None]:
        """`{"middlegame": 24, "endgame": null}`: the first ply of each phase (from 1)."""
        return {
            "middlegame": None if self.middlegame is None else self.middlegame + 1,
            "endgame": None if self.endgame is None else self.endgame + 1,
        }


def divide_game(boards: Sequence[Board]) -> Division:
    """The phases of the game whose positions, in order from the start, are `boards`."""
    middlegame = next((i for i, board in enumerate(boards) if is_middlegame(board)), None)
    endgame = next((i for i, board in enumerate(boards) if is_endgame(board)), None)
    if middlegame is not None and endgame is not None and middlegame >= endgame:
        middlegame = None  # the pieces came off before either side developed: no middlegame
    return Division(middlegame, endgame)


def is_middlegame(board: Board) -> bool:
    """Few enough pieces, or a side whose pieces have left its first rank."""
    if _pieces(board) <= MIDDLEGAME_PIECES:
        return True
    return any(_on_first_rank(board, color) < DEVELOPED_BACK_RANK for color in (WHITE, BLACK))


def is_endgame(board: Board) -> bool:
    return _pieces(board) <= ENDGAME_PIECES


def _pieces(board: Board) -> int:
    """The knights, bishops, rooks and queens of both sides."""
    return sum(piece.piece_type not in (PAWN, KING) for piece in board.pieces().values())


def _on_first_rank(board: Board, color: Color) -> int:
    """How many of `color`'s pieces (pawns and king too) stand on its first rank."""
    rank = FIRST_RANKS[color]
    return sum(piece.color == color and sq // 16 == rank for sq, piece in board.pieces().items())


PhaseAccuracy = dict[Color, dict[Phase, float | None]]


def phase_accuracy(
    after_plies: Sequence[Evaluation], first_mover: Color, initial: Evaluation, division: Division
) -> PhaseAccuracy:
    """Each side's accuracy in each phase (None for a phase in which it made no move), from
    the evaluations after every ply (White's view, as `game_accuracy` takes them)."""
    moves = weighted_accuracies(after_plies, first_mover, initial)
    result: PhaseAccuracy = {}
    for color in (WHITE, BLACK):
        result[color] = {
            phase: side_accuracy(
                [
                    (accuracy, weight)
                    for ply, (mover, accuracy, weight) in enumerate(moves, 1)
                    if mover == color and division.phase_of_ply(ply) == phase
                ]
            )
            for phase in Phase
        }
    return result


def running_accuracy(
    after_plies: Sequence[Evaluation], first_mover: Color, initial: Evaluation
) -> list[tuple[float | None, float | None]]:
    """(White's, Black's) accuracy of the game cut after each ply, in order of ply."""
    return [
        game_accuracy(after_plies[:ply], first_mover, initial)
        for ply in range(1, len(after_plies) + 1)
    ]


def phases_to_json(
    evals: Sequence[PositionEval], start: Board, moves: Sequence[Move]
) -> dict[str, Any]:
    """The review JSON's `phases` (`Division.to_json`), `phase_accuracy` (`{"white":
    {"opening": 91.3, "middlegame": 78.0, "endgame": null}, "black": {...}}`) and
    `accuracy_so_far` (per ply, `{"white": 100.0, "black": null}`), rounded to tenths, of the
    game of `moves` from `start` with every position's evaluation (index 0 to len(moves)).
    ValueError when one is missing or the start position has no legal move."""
    after_plies, initial = accuracy_evaluations(evals, start, moves)
    boards = [start.copy()]
    for move in moves:
        boards.append(boards[-1].copy())
        boards[-1].push(move)
    division = divide_game(boards)
    by_phase = phase_accuracy(after_plies, start.turn, initial, division)
    return {
        "phases": division.to_json(),
        "phase_accuracy": {
            COLOR_NAMES[color]: {phase.value: _tenths(value) for phase, value in phases.items()}
            for color, phases in by_phase.items()
        },
        "accuracy_so_far": [
            {"white": _tenths(white), "black": _tenths(black)}
            for white, black in running_accuracy(after_plies, start.turn, initial)
        ],
    }


def _tenths(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
