"""The mate themes: mate in N (lichess's keys: `mateIn1` .. `mateIn4`, `mateIn5` for five
moves or more, and `mate` for every puzzle that ends in mate) and the back-rank mate.

A back-rank mate, as lichess's tagger means it: the mated king stands on its own first rank,
the checker stands on that rank too, and every square in front of the king is held by a
piece of the king's own side that the solver does not attack (the king is walled in by its
own men, typically its pawns).
"""

from __future__ import annotations

from chesscore.puzzles.line import PuzzleLine
from chesscore.rules.board import Board
from chesscore.rules.squares import WHITE, Color, N, S, is_on_board

MATE_IN = ("mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5")


def mate_themes(line: PuzzleLine) -> list[str]:
    """`mateInN`, `mate` and `backRankMate` where they apply (none if the line does not mate)."""
    if not line.end.is_checkmate():
        return []
    moves = len(line.solver_plies)
    themes = [MATE_IN[min(moves, len(MATE_IN)) - 1], "mate"]
    if is_back_rank_mate(line.end, line.solver ^ 1):
        themes.append("backRankMate")
    return themes


def is_back_rank_mate(board: Board, mated: Color) -> bool:
    """Whether the checkmate on `board` is a back-rank mate of `mated` (module docstring)."""
    king = board.king_square(mated)
    back_rank = 0 if mated == WHITE else 7
    if king >> 4 != back_rank:
        return False
    forward = N if mated == WHITE else S
    for step in (forward - 1, forward, forward + 1):
        sq = king + step
        if not is_on_board(sq) or abs((sq & 7) - (king & 7)) > 1:
            continue
        code = board.board[sq]
        if not code or code >> 3 != mated or board.attackers(mated ^ 1, sq):
            return False
    return any(checker >> 4 == back_rank for checker in board.checkers())
