"""Squares and moves in words, for screen readers: the threat map's facts read aloud.

A square with a piece on it is described relative to that piece: *attacked by* the pieces of
the other colour, *defended by* the pieces of its own colour, then whether it is hanging,
pinned or giving check, and which pieces back the attackers or defenders up from behind
(x-rays, chesscore.analysis.xray):

    "e4, black pawn: attacked by 2 white pieces, knight c3 and pawn d3; defended by 1 black
    piece, queen e7"

An empty square has no side to take, so it is *controlled by* the pieces of each colour that
reach it: "d5, empty: controlled by 1 white piece, knight c3, and by no black piece" (or
"controlled by no piece"). Pieces are listed most valuable first (then by square), the order
the eye ranks threats in. A move reads "White knight from g1 to f3", "White bishop from b5
takes knight on c6", "Black pawn from e4 to d3, takes pawn on d4 en passant", "White pawn from
e7 to e8, promotes to queen", "White castles kingside", each followed by ", check" or ",
checkmate" when it gives one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.threats import BOARD_SQUARES, make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.analysis.xray import PinLine, find_pins, xrays_of_square
from chesscore.errors import IllegalMoveError
from chesscore.rules.move import Move
from chesscore.rules.squares import (
    COLOR_NAMES,
    KING,
    NAME_ORDER,
    WHITE,
    Color,
    parse_square,
    square_name,
)

if TYPE_CHECKING:
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board

PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")


def describe_square(board: Board, square: int | str, threats: ThreatMap | None = None) -> str:
    """The square (0x88 int or name; InvalidSquareError on junk) in words; `threats` is
    `make_threat_map(board)` if the caller has it.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1")
    >>> print(describe_square(board, "e4"))  # doctest: +NORMALIZE_WHITESPACE
    e4, black pawn: attacked by 2 white pieces, knight c3 and pawn d3; defended by 1 black
    piece, queen e7; hanging
    >>> describe_square(board, "d5")
    'd5, empty: controlled by 1 white piece, knight c3, and by no black piece'
    """
    sq = parse_square(square) if isinstance(square, str) else parse_square(square_name(square))
    return _describe(board, sq, threats or make_threat_map(board), find_pins(board))


def describe_squares(board: Board, threats: ThreatMap | None = None) -> dict[int, str]:
    """Every square's description by square, in name order, from one threat map."""
    threats = threats or make_threat_map(board)
    pins = find_pins(board)
    return {sq: _describe(board, sq, threats, pins) for sq in BOARD_SQUARES}


def _describe(board: Board, sq: int, threats: ThreatMap, pins: Sequence[PinLine]) -> str:
    name = square_name(sq)
    by_color = (threats.attackers[0][sq], threats.attackers[1][sq])
    piece = board.piece_at(sq)
    if piece is None:
        if not by_color[0] and not by_color[1]:
            return f"{name}, empty: controlled by no piece"
        white, black = _group(board, by_color[0], 0), _group(board, by_color[1], 1)
        return f"{name}, empty: controlled by {white}, and by {black}"
    own, enemy = piece.color, piece.color ^ 1
    parts = [
        f"attacked by {_group(board, by_color[enemy], enemy)}"
        if by_color[enemy]
        else "not attacked",
        f"defended by {_group(board, by_color[own], own)}" if by_color[own] else "not defended",
        *_piece_facts(board, sq, threats, pins),
        *_xray_facts(board, sq),
    ]
    return f"{name}, {COLOR_NAMES[own]} {PIECE_NAMES[piece.piece_type]}: " + "; ".join(parts)


def _group(board: Board, squares: Sequence[int], color: Color) -> str:
    """A group of pieces in words: "2 white pieces, knight c3 and pawn d3" (most valuable
    first, then by square name), or "no white piece"."""
    if not squares:
        return f"no {COLOR_NAMES[color]} piece"
    cells = board.board
    ordered = sorted(squares, key=lambda sq: (-PIECE_VALUES[cells[sq] & 7], NAME_ORDER[sq]))
    words = [f"{PIECE_NAMES[cells[sq] & 7]} {square_name(sq)}" for sq in ordered]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    plural = "piece" if len(squares) == 1 else "pieces"
    return f"{len(squares)} {COLOR_NAMES[color]} {plural}, {listed}"


def _piece_facts(board: Board, sq: int, threats: ThreatMap, pins: Sequence[PinLine]) -> list[str]:
    facts = []
    if sq in threats.hanging:
        facts.append("hanging")
    if sq in threats.checkers:
        facts.append("giving check")
    cells = board.board
    for pin in pins:
        if pin.pinned != sq:
            continue
        target = cells[pin.target] & 7
        behind = (
            "the king"
            if target == KING
            else f"the {PIECE_NAMES[target]} on {square_name(pin.target)}"
        )
        pinner = f"{PIECE_NAMES[cells[pin.pinner] & 7]} {square_name(pin.pinner)}"
        facts.append(f"pinned to {behind} by {pinner}")
    return facts


def _xray_facts(board: Board, sq: int) -> list[str]:
    facts = []
    for color, squares in enumerate(xrays_of_square(board.board, sq)):
        if squares:
            facts.append(f"backed up from behind by {_group(board, squares, color)}")
    return facts


def describe_move(board: Board, move: Move) -> str:
    """The legal `move` of `board` in words (IllegalMoveError otherwise).

    >>> from chesscore import Board
    >>> board = Board()
    >>> describe_move(board, board.parse_uci("g1f3"))
    'White knight from g1 to f3'
    """
    if not board.is_legal(move):
        text = move.uci() if isinstance(move, Move) else repr(move)
        raise IllegalMoveError(f"illegal move {text} in position {board.fen()!r}")
    after = board.copy()
    after.push(move)
    return describe_played_move(board, move, after)


def describe_played_move(board: Board, move: Move, after: Board) -> str:
    """`describe_move` for a caller that has played the legal `move` already (unchecked):
    `after` is `board` after it, which tells whether the move checks or mates."""
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on a piece
    color = COLOR_NAMES[piece.color].capitalize()
    origin, target = square_name(move.from_square), square_name(move.to_square)
    if board.is_castling(move):
        side = "kingside" if move.to_square > move.from_square else "queenside"
        text = f"{color} castles {side}"
    else:
        text = f"{color} {PIECE_NAMES[piece.piece_type]} from {origin}"
        captured = board.piece_at(move.to_square)
        if board.is_en_passant(move):
            taken = square_name(move.to_square + (-16 if piece.color == WHITE else 16))
            text += f" to {target}, takes pawn on {taken} en passant"
        elif captured is not None:
            text += f" takes {PIECE_NAMES[captured.piece_type]} on {target}"
        else:
            text += f" to {target}"
        if move.promotion:
            text += f", promotes to {PIECE_NAMES[move.promotion]}"
    return text + _check_suffix(after)


def _check_suffix(after: Board) -> str:
    if not after.is_check():
        return ""
    return ", checkmate" if after.is_checkmate() else ", check"
