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

from typing import TYPE_CHECKING

from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.analysis.xray import PinLine, find_pins, xrays_of_square
from chesscore.errors import IllegalMoveError
from chesscore.rules.move import Move
from chesscore.rules.squares import COLOR_NAMES, KING, WHITE, Color, parse_square, square_name

if TYPE_CHECKING:
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board

PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
SQUARE_OF_NAME = {square_name(sq): sq for sq in range(128) if not sq & 0x88}


def describe_square(board: Board, square: int | str, threats: ThreatMap | None = None) -> str:
    """The square (0x88 int or name; InvalidSquareError on junk) in words; `threats` is
    `make_threat_map(board)` if the caller has it.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1")
    >>> print(describe_square(board, "e4"))  # doctest: +NORMALIZE_WHITESPACE
    e4, black pawn: attacked by 2 white pieces, knight c3 and pawn d3; defended by 1 black
    piece, queen e7
    >>> describe_square(board, "d5")
    'd5, empty: controlled by 1 white piece, knight c3, and by no black piece'
    """
    sq = parse_square(square) if isinstance(square, str) else parse_square(square_name(square))
    return _describe(board, sq, threats or make_threat_map(board), find_pins(board))


def describe_squares(board: Board, threats: ThreatMap | None = None) -> dict[str, str]:
    """Every square's description by name, from one threat map."""
    threats = threats or make_threat_map(board)
    pins = find_pins(board)
    return {
        name: _describe(board, SQUARE_OF_NAME[name], threats, pins)
        for name in sorted(threats["squares"])
    }


def _describe(board: Board, sq: int, threats: ThreatMap, pins: list[PinLine]) -> str:
    name = square_name(sq)
    entry = threats["squares"][name]
    by_color = (entry["white"], entry["black"])
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
        *_piece_facts(board, name, threats, pins),
        *_xray_facts(board, sq),
    ]
    return f"{name}, {COLOR_NAMES[own]} {PIECE_NAMES[piece.piece_type]}: " + "; ".join(parts)


def _group(board: Board, names: list[str], color: Color) -> str:
    """A group of pieces in words: "2 white pieces, knight c3 and pawn d3" (most valuable
    first), or "no white piece"."""
    if not names:
        return f"no {COLOR_NAMES[color]} piece"
    kinds = {name: board.board[SQUARE_OF_NAME[name]] & 7 for name in names}
    ordered = sorted(names, key=lambda name: (-PIECE_VALUES[kinds[name]], name))
    words = [f"{PIECE_NAMES[kinds[name]]} {name}" for name in ordered]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    plural = "piece" if len(names) == 1 else "pieces"
    return f"{len(names)} {COLOR_NAMES[color]} {plural}, {listed}"


def _piece_facts(board: Board, name: str, threats: ThreatMap, pins: list[PinLine]) -> list[str]:
    facts = []
    if name in threats["hanging"]:
        facts.append("hanging")
    if name in threats["checkers"]:
        facts.append("giving check")
    for pin in pins:
        pinner_kind = PIECE_NAMES[board.board[SQUARE_OF_NAME[pin["pinner"]]] & 7]
        target = board.board[SQUARE_OF_NAME[pin["target"]]] & 7
        behind = "the king" if target == KING else f"the {PIECE_NAMES[target]} on {pin['target']}"
        if pin["pinned"] == name:
            facts.append(f"pinned to {behind} by {pinner_kind} {pin['pinner']}")
    return facts


def _xray_facts(board: Board, sq: int) -> list[str]:
    facts = []
    for color, squares in enumerate(xrays_of_square(board.board, sq)):
        if squares:
            behind = _group(board, [square_name(s) for s in squares], color)
            facts.append(f"backed up from behind by {behind}")
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
