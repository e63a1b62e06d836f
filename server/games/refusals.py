"""A refused move in a player's words: "Ke5 is not legal here: the king would be in check".

chesscore's errors quote the input and the whole FEN, which is right for a library and wrong
for a person at the board, who knows the position and wants the reason. These functions say
why the move the player typed or dragged cannot be played, naming the move as the player wrote
it and never the FEN: no piece of that kind reaches the square, the square holds a piece of
their own, the king would be in check (a pinned piece, a king walking into an attack, a check
not answered), or, for an ambiguous SAN, which moves it could mean. The reasons come from the
core's one attack primitive (`attackers`) and its legal moves; nothing here is a rule of its own.
"""

from __future__ import annotations

from chesscore import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, Board, Color, Move
from chesscore.rules.san import CASTLING_TEXT, LETTER_PIECES, SAN_PATTERN, SUFFIX_PATTERN
from chesscore.rules.squares import parse_square, square_name
from chesscore.words import Message, say, say_list
from server.shared.errors import N_

# Whole sentences per piece, so each language inflects its own piece names (server.i18n): the
# piece of one's own on the square, and none of that kind reaching it.
OWN_PIECE_THERE = {
    PAWN: N_("your own pawn stands on {target}"),
    KNIGHT: N_("your own knight stands on {target}"),
    BISHOP: N_("your own bishop stands on {target}"),
    ROOK: N_("your own rook stands on {target}"),
    QUEEN: N_("your own queen stands on {target}"),
    KING: N_("your own king stands on {target}"),
}
NONE_REACHES = {
    PAWN: N_("no pawn of yours can go to {target}"),
    KNIGHT: N_("no knight of yours can reach {target}"),
    BISHOP: N_("no bishop of yours can reach {target}"),
    ROOK: N_("no rook of yours can reach {target}"),
    QUEEN: N_("no queen of yours can reach {target}"),
    KING: N_("no king of yours can reach {target}"),
}
KING_IN_CHECK = N_("the king would be in check")
NOT_LEGAL = N_("{move} is not legal here: {reason}")


def explain_illegal_san(board: Board, text: str) -> Message:
    """Why the well-formed SAN `text` names no legal move of `board`."""
    typed = text.strip()
    body = SUFFIX_PATTERN.sub("", typed, count=1)
    if body in CASTLING_TEXT:
        castling = (
            N_("{move} is not legal here: castling on the king's side is not possible now")
            if CASTLING_TEXT[body]
            else N_("{move} is not legal here: castling on the queen's side is not possible now")
        )
        return say(castling, move=typed)
    match = SAN_PATTERN.fullmatch(body)
    if match is None:
        return say(N_("{move} is not a move"), move=typed)
    letter, from_file, _, capture, target, _ = match.groups()
    piece_type = LETTER_PIECES[letter] if letter else PAWN
    to_square = parse_square(target)
    reason = _why_not(board, piece_type, to_square, from_file, capture is not None)
    return say(NOT_LEGAL, move=typed, reason=reason)


def explain_illegal_move(board: Board, move: Move) -> Message:
    """Why `move` (from a drag or typed UCI) is not legal in `board`."""
    uci = move.uci()
    piece = board.piece_at(move.from_square)
    if piece is None or piece.color != board.turn:
        reason = say(N_("there is no piece of yours on {square}"), square=uci[:2])
        return say(NOT_LEGAL, move=uci, reason=reason)
    file = "abcdefgh"[move.from_square & 7]
    reason = _why_not(board, piece.piece_type, move.to_square, file, False, move.from_square)
    return say(NOT_LEGAL, move=uci, reason=reason)


def explain_ambiguous_san(board: Board, text: str) -> Message:
    """`text` fits several legal moves: the SANs that tell them apart."""
    typed = text.strip()
    match = SAN_PATTERN.fullmatch(SUFFIX_PATTERN.sub("", typed, count=1))
    if match is None:
        return say(N_("{move} is ambiguous here"), move=typed)
    letter, from_file, from_rank, _, target, _ = match.groups()
    piece_type = LETTER_PIECES[letter] if letter else PAWN
    fitting = {
        board.san(move).rstrip("+#")
        for move in board.legal_moves()
        if square_name(move.to_square) == target
        and _kind_at(board, move.from_square) == piece_type
        and (from_file is None or square_name(move.from_square)[0] == from_file)
        and (from_rank is None or square_name(move.from_square)[1] == from_rank)
    }
    moves = say_list(sorted(fitting), either=True)
    return say(N_("{move} is ambiguous here: write {moves}"), move=typed, moves=moves)


def _why_not(
    board: Board,
    piece_type: int,
    to_square: int,
    from_file: str | None,
    capture: bool,
    from_square: int | None = None,
) -> Message:
    """The reason no piece of `piece_type` (on `from_file` / `from_square` when given) of the
    side to move may go to `to_square`."""
    color = board.turn
    at = {"target": square_name(to_square)}
    own = board.piece_at(to_square)
    if own is not None and own.color == color:
        return say(OWN_PIECE_THERE[own.piece_type], **at)
    if capture and own is None and not _is_en_passant(board, to_square, piece_type):
        return say(N_("there is nothing to take on {target}"), **at)
    origins = _origins(board, color, piece_type, to_square, from_file, capture, from_square)
    if not origins:
        return say(NONE_REACHES[piece_type], **at)
    if board.is_check():
        return say(N_("the king is in check and this does not answer it"))
    return say(KING_IN_CHECK)


def _origins(
    board: Board,
    color: Color,
    piece_type: int,
    to_square: int,
    from_file: str | None,
    capture: bool,
    from_square: int | None,
) -> list[int]:
    """Squares of `color`'s pieces of `piece_type` that reach `to_square` when their own king's
    safety is left aside: those that attack it (pawns: that capture onto an enemy piece there)
    or, for a pawn, that push onto it."""
    reaching = [
        sq
        for sq in board.attackers(color, to_square)
        if _kind_at(board, sq) == piece_type and (piece_type != PAWN or _is_enemy(board, to_square))
    ]
    if piece_type == PAWN and not capture:
        reaching += _pushers(board, color, to_square)
    if from_square is not None:
        return [sq for sq in reaching if sq == from_square]
    return [sq for sq in reaching if from_file is None or "abcdefgh"[sq & 7] == from_file]


def _pushers(board: Board, color: Color, to_square: int) -> list[int]:
    """The pawns of `color` that would push onto the empty `to_square` (one or two steps)."""
    if board.piece_at(to_square) is not None:
        return []
    back = -16 if color == WHITE else 16  # a white pawn comes from the rank below
    one = to_square + back
    if one & 0x88:
        return []
    if _kind_at(board, one) == PAWN and _color_at(board, one) == color:
        return [one]
    two = one + back
    start_rank = 1 if color == WHITE else 6
    if (
        board.piece_at(one) is None
        and not two & 0x88
        and two >> 4 == start_rank
        and _kind_at(board, two) == PAWN
        and _color_at(board, two) == color
    ):
        return [two]
    return []


def _is_en_passant(board: Board, to_square: int, piece_type: int) -> bool:
    return piece_type == PAWN and board.ep_square == to_square


def _kind_at(board: Board, sq: int) -> int | None:
    piece = board.piece_at(sq)
    return None if piece is None else piece.piece_type


def _color_at(board: Board, sq: int) -> Color | None:
    piece = board.piece_at(sq)
    return None if piece is None else piece.color


def _is_enemy(board: Board, sq: int) -> bool:
    piece = board.piece_at(sq)
    return piece is not None and piece.color != board.turn
