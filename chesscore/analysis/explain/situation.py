"""What every clause of an explanation reads: the move, the positions around it, the lines.

`make_situation` checks both lines move by move (IllegalMoveError naming the first illegal
one), then builds once what the clauses share: the position before and after the move and
their threat maps, what the move changed, the reply and the best move with the positions after
them, and the positions along the opponent's line (at most `LINE_PLIES` of it: an explanation
reads the first moves of a line, never a whole game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.analysis.insight import Change, compare_positions
from chesscore.analysis.threats import make_threat_map
from chesscore.errors import IllegalMoveError
from chesscore.rules.move import Move

if TYPE_CHECKING:
    from chesscore.analysis.judgement import Evaluation
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board
    from chesscore.rules.squares import Color

LINE_PLIES = 20


@dataclass(frozen=True, slots=True)
class Situation:
    """The move played in its position, and the engine's two lines around it."""

    board: Board
    played: Move
    san: str
    mover: Color
    after: Board
    before_map: ThreatMap
    after_map: ThreatMap
    change: Change
    reply: Move | None
    best: Move | None
    # The positions after the reply and after the best move, and what those moves changed.
    after_reply: tuple[Board, Change] | None
    after_best: tuple[Board, Change] | None
    # The opponent's line after the move (at most LINE_PLIES), the positions after each of its
    # moves, and the best line from the position before the move (whole).
    reply_line: tuple[Move, ...]
    reply_boards: tuple[Board, ...]
    best_line: tuple[Move, ...]
    best_eval: Evaluation | None
    played_eval: Evaluation | None


def make_situation(
    board: Board,
    played: Move,
    best_line: Sequence[Move],
    reply_line: Sequence[Move],
    best_eval: Evaluation | None,
    played_eval: Evaluation | None,
) -> Situation:
    """The situation of the legal `played` of `board`; IllegalMoveError when a move of a line
    is not legal where it is played."""
    check_line(board, [played])
    check_line(board, best_line)
    after = board.copy()
    after.push(played)
    check_line(after, reply_line)
    before_map, after_map = make_threat_map(board), make_threat_map(after)
    change = compare_positions(board, played, after, before_map, after_map)
    best = best_line[0] if best_line else None
    reply = reply_line[0] if reply_line else None
    line = tuple(reply_line[:LINE_PLIES])
    return Situation(
        board,
        played,
        board.san(played),
        board.turn,
        after,
        before_map,
        after_map,
        change,
        reply,
        best,
        change_of(after, reply, after_map) if reply is not None else None,
        change_of(board, best, before_map) if best is not None else None,
        line,
        positions_along(after, line),
        tuple(best_line),
        best_eval,
        played_eval,
    )


def check_line(board: Board, line: Sequence[Move]) -> None:
    """IllegalMoveError naming the first move of `line` that is not legal where it is played."""
    replay = board.copy()
    for move in line:
        if not replay.is_legal(move):
            text = move.uci() if isinstance(move, Move) else repr(move)
            raise IllegalMoveError(f"illegal move {text} in position {replay.fen()!r}")
        replay.push(move)


def change_of(board: Board, move: Move, threats: ThreatMap) -> tuple[Board, Change]:
    """The position after the legal `move` of `board` (whose threat map is `threats`) and
    what the move changed."""
    after = board.copy()
    after.push(move)
    return after, compare_positions(board, move, after, threats, make_threat_map(after))


def positions_along(board: Board, line: Sequence[Move]) -> tuple[Board, ...]:
    """The position after each move of the legal `line` from `board`."""
    replay, boards = board.copy(), []
    for move in line:
        replay.push(move)
        boards.append(replay.copy())
    return tuple(boards)
