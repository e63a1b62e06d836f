"""Captures only: the moves the quiescence search plays, generated without the quiet ones.

At the leaves of the search only captures (and queen promotions) are tried, and generating
every legal move there just to throw most away would cost the search most of its time. This
walks each piece's precomputed rays (chesscore.rules.squares) as the move generator does, keeps only
what lands on an enemy piece, and applies the move generator's own legality facts
(`movegen.scan_king` pins, `movegen.is_attacked` for the king, `movegen.is_en_passant_safe`),
so the result is exactly the legal captures of a side that is not in check (a test compares it
with the full generator). Moves are packed ints (chesscore.rules.move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.rules.move import (
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
)
from chesscore.rules.movegen import is_attacked, is_en_passant_safe, scan_king
from chesscore.rules.squares import (
    KING,
    KING_TARGETS,
    PAWN,
    PAWN_CAPTURE_TARGETS,
    PIECE_RAYS,
    QUEEN,
)

if TYPE_CHECKING:
    from chesscore.rules.board import Board

EN_PASSANT = FLAG_EN_PASSANT


def generate_captures(board: Board, pinned: dict[int, range] | None = None) -> list[int]:
    """The legal captures and queen promotions of a side NOT in check, as packed moves.

    The quiescence search needs only these, and building the quiet moves too would cost it
    most of its time. The legality rules are the move generator's (`chesscore.rules.movegen`): a
    pinned piece stays on its pin line, the king never takes a defended piece, en passant is
    tested on a copy of the board; being out of check, nothing else can make a capture illegal.
    `pinned` is the pin record of `movegen.scan_king` when the caller has it already.
    """
    squares = board.board
    color = board.turn
    enemies = board.piece_squares[color ^ 1]
    king = board.kings[color]
    if pinned is None:
        pinned = scan_king(squares, king, enemies).pinned
    them_bit = 8 - (color << 3)
    last_rank = 7 - 7 * color
    forward = 16 - 32 * color
    ep = board.ep_square
    capture_targets = PAWN_CAPTURE_TARGETS[color]
    piece_rays = PIECE_RAYS
    moves: list[int] = []
    append = moves.append  # bound once: called for every capture
    for origin in board.piece_squares[color]:
        kind = squares[origin] & 7
        base = origin << ORIGIN_SHIFT
        first = len(moves)
        if kind == PAWN:
            promotion = QUEEN << PROMOTION_SHIFT if (origin + forward) >> 4 == last_rank else 0
            if promotion and not squares[origin + forward]:
                append(base | (origin + forward) | promotion)
            for target in capture_targets[origin]:
                victim = squares[target]
                if victim and victim & 8 == them_bit:
                    append(base | target | promotion)
                elif target == ep and is_en_passant_safe(
                    squares, origin, target, king, color, enemies
                ):
                    append(base | target | EN_PASSANT << FLAG_SHIFT)
        elif kind == KING:
            for target in KING_TARGETS[origin]:
                victim = squares[target]
                if victim and victim & 8 == them_bit and not is_attacked(squares, target, enemies):
                    append(base | target)
        else:
            for ray in piece_rays[kind][origin]:
                for target in ray:
                    victim = squares[target]
                    if victim:
                        if victim & 8 == them_bit:
                            append(base | target)
                        break
        if pinned and origin in pinned:
            along = pinned[origin]
            moves[first:] = [m for m in moves[first:] if (m & SQUARE_MASK) in along]
    return moves
