"""Standard Algebraic Notation (SAN): `make_san` writes a move, `parse_san` reads one.

Writing follows the PGN standard: piece letter (none for pawns), the origin file, rank or both
only when another piece of the same kind could also reach the target square, ``x`` for
captures (a pawn capture names its file), ``=Q`` for promotions, ``O-O``/``O-O-O`` for castling,
and ``+``/``#`` for check and checkmate. Reading accepts what people type as well: ``0-0`` and
``0-0-0``, a missing or wrong ``+``/``#``, a missing ``=`` (``e8Q``), annotations such as ``!?``,
and a trailing ``e.p.``; anything else must be exact. Malformed text raises `InvalidMoveError`,
a well-formed move that is not legal here `IllegalMoveError`, one that fits several legal moves
`AmbiguousMoveError`; each message quotes the text and the position's FEN.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from chesscore.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from chesscore.rules.move import MOVE_KEY_MASK, ORIGIN_SHIFT, SQUARE_MASK, Move
from chesscore.rules.squares import (
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    parse_square,
    square_name,
)
from chesscore.words import N_

if TYPE_CHECKING:
    from chesscore.rules.position import Position

PIECE_LETTERS = {KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q", KING: "K"}
LETTER_PIECES = {letter: kind for kind, letter in PIECE_LETTERS.items()}

# Piece letter, origin file, origin rank, capture mark, target square, promotion piece.
SAN_PATTERN = re.compile(r"([NBRQK])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([NBRQnbrq]))?")
CASTLING_TEXT = {"O-O": True, "0-0": True, "O-O-O": False, "0-0-0": False}
# What people append to a move that does not change which move it is.
SUFFIX_PATTERN = re.compile(r"(?:\s*e\.p\.|[+#!?])*$")


def make_san(board: Position, move: Move) -> str:
    """The SAN of the legal `move` in `board`, with its check or mate suffix."""
    # One generation of the packed legal moves serves the legality check, the disambiguation
    # and the make/unmake for the suffix: SAN is written after every move on the server.
    if not isinstance(move, Move):
        raise InvalidMoveError(N_("not a Move: {value}"), value=repr(move))
    legal = board.generate_legal()
    wanted = move.packed_key()
    packed = next((m for m in legal if m & MOVE_KEY_MASK == wanted), None)
    if packed is None:
        raise IllegalMoveError(
            N_("illegal move {move} in {fen}"), move=repr(move.uci()), fen=repr(board.fen())
        )
    return _make_san_body(board, move, legal) + _check_suffix(board, packed)


def _make_san_body(board: Position, move: Move, legal: list[int]) -> str:
    if board.is_castling(move):
        return "O-O" if move.to_square > move.from_square else "O-O-O"
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on a piece
    target = square_name(move.to_square)
    capture = "x" if board.is_capture(move) else ""
    if piece.piece_type == PAWN:
        origin = square_name(move.from_square)[0] if capture else ""
        promotion = "=" + PIECE_LETTERS[move.promotion] if move.promotion else ""
        return origin + capture + target + promotion
    letter = PIECE_LETTERS[piece.piece_type]
    return letter + _disambiguation(board, move, legal) + capture + target


def _disambiguation(board: Position, move: Move, legal: list[int]) -> str:
    """The origin file, rank or square needed to tell `move` from its look-alikes."""
    origin, target = move.from_square, move.to_square
    cells = board.board
    piece = cells[origin]
    # Packed layout (chesscore.rules.move): target in bits 0-6, origin in bits 7-13; unpacked inline
    # because this scans every legal move.
    rivals = [
        m >> ORIGIN_SHIFT & SQUARE_MASK
        for m in legal
        if m & SQUARE_MASK == target
        and m >> ORIGIN_SHIFT & SQUARE_MASK != origin
        and cells[m >> ORIGIN_SHIFT & SQUARE_MASK] == piece
    ]
    if not rivals:
        return ""
    name = square_name(origin)
    if all((sq & 7) != (origin & 7) for sq in rivals):
        return name[0]
    if all((sq >> 4) != (origin >> 4) for sq in rivals):
        return name[1]
    return name


def _piece_type_at(board: Position, sq: int) -> int | None:
    piece = board.piece_at(sq)
    return None if piece is None else piece.piece_type


def _check_suffix(board: Position, packed: int) -> str:
    if not board.gives_check_packed(packed):
        return ""
    board.push_packed(packed)
    try:
        return "+" if board.generate_legal() else "#"
    finally:
        board.pop_packed()


def parse_san(board: Position, text: str) -> Move:
    """The legal move of `board` that the SAN `text` describes."""
    if not isinstance(text, str):
        raise InvalidMoveError(N_("SAN must be text, got {value}"), value=repr(text))
    stripped = text.strip()
    body = SUFFIX_PATTERN.sub("", stripped, count=1)
    if body in CASTLING_TEXT:
        return _parse_castling(board, text, CASTLING_TEXT[body])
    match = SAN_PATTERN.fullmatch(body)
    if match is None:
        raise InvalidMoveError(N_("malformed SAN {san} in {fen}"), **_quoted(board, text))
    letter, from_file, from_rank, capture, target, promotion = match.groups()
    if letter and promotion:
        raise InvalidMoveError(
            N_("malformed SAN {san} in {fen}: only pawns promote"), **_quoted(board, text)
        )
    if capture and not letter and not from_file:
        raise InvalidMoveError(
            N_("malformed SAN {san} in {fen}: a pawn capture names its file"),
            **_quoted(board, text),
        )
    piece_type = LETTER_PIECES[letter] if letter else PAWN
    to_square = parse_square(target)
    wanted = LETTER_PIECES[promotion.upper()] if promotion else None
    candidates = [
        move
        for move in board.legal_moves()
        if move.to_square == to_square
        and move.promotion == wanted
        and _piece_type_at(board, move.from_square) == piece_type
        and _origin_fits(move, piece_type, from_file, from_rank)
        and (capture is None or board.is_capture(move))
        # Castling is written O-O / O-O-O only; "Kg1" is not castling.
        and (piece_type != KING or not board.is_castling(move))
    ]
    if not candidates:
        raise IllegalMoveError(N_("illegal SAN {san} in {fen}"), **_quoted(board, text))
    if len(candidates) > 1:
        found = ", ".join(sorted(move.uci() for move in candidates))
        raise AmbiguousMoveError(
            N_("ambiguous SAN {san} in {fen} (could be {moves})"),
            **_quoted(board, text),
            moves=found,
        )
    return candidates[0]


def _quoted(board: Position, text: str) -> dict[str, str]:
    """The SAN and the position an error about it quotes."""
    return {"san": repr(text), "fen": repr(board.fen())}


def _origin_fits(move: Move, piece_type: int, from_file: str | None, from_rank: str | None) -> bool:
    """Whether `move` starts where the SAN's origin file and rank (if given) say."""
    file = move.from_square & 7
    if from_file is None:
        # A pawn move without an origin file is a push, straight up its own file.
        if piece_type == PAWN and file != move.to_square & 7:
            return False
    elif "abcdefgh"[file] != from_file:
        return False
    return from_rank is None or "12345678"[move.from_square >> 4] == from_rank


def _parse_castling(board: Position, text: str, king_side: bool) -> Move:
    for move in board.legal_moves():
        if board.is_castling(move) and (move.to_square > move.from_square) == king_side:
            return move
    raise IllegalMoveError(N_("illegal castling {san} in {fen}"), **_quoted(board, text))
