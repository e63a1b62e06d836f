"""The clauses of an opponent's pawn let go: promoted, or a passed pawn run up the board.

- *promotion allowed*: the opponent's line promotes a pawn within its first moves, the new
  piece is not taken at once, and the line ends with the mover at least a piece down ("lets
  the pawn on e3 promote: e2 Rd8+ Kc7 e1=Q");
- *passed pawn let through*: a passed pawn of the opponent (no pawn of the mover ahead of it on
  its file or the files beside it) advances at least twice in the opponent's line and reaches
  its sixth rank or further ("lets the passed pawn on d5 through: after d6 Kf2 d7, it stands
  on d7").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import kind_at, on_board, rank_for
from chesscore.analysis.explain.claims import balance
from chesscore.analysis.explain.facts import Facts, Kind, PassedPawnFact
from chesscore.rules.squares import PAWN, WHITE, Color, square_name
from chesscore.words import Message, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board

READ_PLIES = 10  # how far down the opponent's line a pawn is followed


def promotion_allowed(s: Situation, facts: Facts) -> Message | None:
    line = s.reply_line[:READ_PLIES]
    for index in range(0, len(line), 2):  # the opponent's moves
        move = line[index]
        if not move.promotion:
            continue
        taken_back = index + 1 < len(line) and line[index + 1].to_square == move.to_square
        end = s.reply_boards[len(line) - 1]
        if taken_back or balance(end, s.mover) > balance(s.board, s.mover) - 3:
            return None
        origin = _pawn_origin(s, index)
        if origin is None:
            return None
        facts.kinds.append(Kind.PROMOTION_ALLOWED)
        facts.squares.append(origin)
        if s.reply is not None:
            facts.move(s.reply)
        return say("lets {pawn} promote", pawn=facts.piece(s.after, origin))
    return None


def _pawn_origin(s: Situation, index: int) -> int | None:
    """Where the pawn that promotes at `index` of the reply line stood after the move."""
    square = s.reply_line[index].from_square
    for earlier in range(index - 2, -1, -2):
        move = s.reply_line[earlier]
        if move.to_square == square:
            square = move.from_square
    code = s.after.board[square]
    return square if code == ((s.mover ^ 1) << 3 | PAWN) else None


def passed_pawn(s: Situation, facts: Facts) -> Message | None:
    opponent = s.mover ^ 1
    line = s.reply_line[:READ_PLIES]
    for origin in s.after.piece_squares[opponent]:
        if kind_at(s.after, origin) != PAWN or not is_passed(s.after, origin, opponent):
            continue
        square, last, steps = origin, -1, 0
        pawn_code = opponent << 3 | PAWN
        for index, move in enumerate(line):
            before = s.reply_boards[index - 1] if index else s.after
            if move.from_square == square and before.board[square] == pawn_code:
                if move.promotion:
                    break
                square, last, steps = move.to_square, index, steps + 1
        rank = rank_for(square, opponent)
        if steps >= 2 and rank >= 5:
            facts.kinds.append(Kind.PASSED_PAWN)
            facts.squares += [origin, square]
            facts.passed.append(PassedPawnFact(s.after.fen(), origin, opponent))
            facts.piece(s.after, origin)  # the fact; the sentence names the pawn by itself
            return say(
                "{move} lets the passed pawn on {origin} through to {square}: {line}",
                origin=square_name(origin),
                square=square_name(square),
                line=facts.quote(s.after, line[: last + 1]),
            )
    return None


def is_passed(board: Board, square: int, color: Color) -> bool:
    """Whether no pawn of the other colour stands ahead of the pawn of `color` on `square`,
    on its file or the files beside it."""
    enemy = (color ^ 1) << 3 | PAWN
    step = 16 if color == WHITE else -16
    ahead = square + step
    while on_board(ahead):
        for side in (-1, 0, 1):
            sq = ahead + side
            if on_board(sq) and board.board[sq] == enemy:
                return False
        ahead += step
    return True
