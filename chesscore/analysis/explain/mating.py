"""The clauses of the game's end: a stalemate given, a mate allowed, a back-rank mate.

- *stalemate*: the move leaves the opponent no legal move and no check, a draw at once;
- *mate allowed*: the evaluation after the move is a mate against the mover ("allows mate in
  2, starting with Qxh7+");
- *back-rank mate*: the opponent's line (or the best line, for the better move's sentence)
  ends in a mate on the back rank: the king on its first rank, checked along it by a rook or
  queen, the squares before it held by its own pieces ("allows a back-rank mate in 1: Re1#,
  the king on g1 shut in by its own pieces on f2, g2 and h2").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import is_piece_of, kind_at, on_board, rank_of
from chesscore.analysis.explain.claims import ClaimKind, make_claim
from chesscore.analysis.explain.facts import Facts, Kind, OwnPiecesFact
from chesscore.analysis.explain.nouns import Place
from chesscore.analysis.explain.situation import positions_along
from chesscore.rules.squares import QUEEN, ROOK, WHITE, square_name
from chesscore.words import Message, say, say_list

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move


def stalemate(s: Situation, facts: Facts) -> Message | None:
    """The move leaves the opponent no legal move and no check: the game is drawn at once."""
    after = s.after
    if after.generate_legal() or after.is_check():
        return None
    king = after.king_square(s.mover ^ 1)
    facts.kinds.append(Kind.STALEMATE)
    facts.claims.append(make_claim(ClaimKind.STALEMATE, s.mover ^ 1, s.board, [s.played]))
    facts.squares.append(king)
    return say(
        "{move} stalemates {king}: it has no move and is not in check, a draw",
        king=facts.piece(after, king),
    )


def engine_mate(s: Situation, facts: Facts) -> Message | None:
    """The evaluation after the move is a mate against the mover that its line does not play
    to the end: what the engine says, with no claim on the line."""
    mate = s.played_eval.for_color(s.mover).mate if s.played_eval else None
    if mate is None or mate > 0:
        return None
    facts.kinds.append(Kind.MATE_ALLOWED)
    if s.reply is None:
        return say("{move} allows a mating attack: the engine sees mate in {mate}", mate=-mate)
    facts.move(s.reply)
    return say(
        "{move} allows a mating attack: the engine sees mate in {mate} after {line}",
        mate=-mate,
        line=facts.quote(s.after, s.reply_line),
    )


def back_rank_words(board: Board, line: Sequence[Move], facts: Facts) -> Message | None:
    """ "Re8+ Rxe8 Rxe8#, the king on g8 shut in by its own pieces on f7, g7 and h7" when the
    legal `line` from `board` ends in a back-rank mate (module docstring); else None."""
    if not line:
        return None
    end = positions_along(board, line)[-1]
    boxed = _back_rank_box(end)
    if boxed is None:
        return None
    facts.kinds.append(Kind.BACK_RANK_MATE)
    moves = facts.line(board, line, mate=True)
    king = end.king_square(end.turn)
    facts.own.append(OwnPiecesFact(end.fen(), boxed, end.turn))
    squares = say_list([say_square(sq) for sq in boxed])
    return say(
        "{line}, {king} shut in by its own pieces on {squares}",
        line=moves,
        king=facts.piece(end, king, Place.SUBJECT),
        squares=squares,
    )


def say_square(sq: int) -> Message:
    """A square's name as a message, for a list of squares ("f2, g2 and h2")."""
    return Message("{square}", (("square", square_name(sq)),))


def _back_rank_box(board: Board) -> tuple[int, ...] | None:
    """The squares before the mated king held by its own pieces, for a back-rank mate."""
    if not board.is_checkmate():
        return None
    mated = board.turn
    king = board.king_square(mated)
    home = 0 if mated == WHITE else 7
    checkers = board.checkers()
    if rank_of(king) != home or len(checkers) != 1 or rank_of(checkers[0]) != home:
        return None
    if kind_at(board, checkers[0]) not in (ROOK, QUEEN):
        return None
    step = 16 if mated == WHITE else -16
    front = [king + step + side for side in (-1, 0, 1) if on_board(king + step + side)]
    if not all(is_piece_of(board, sq, mated) for sq in front):
        return None
    return tuple(front)
