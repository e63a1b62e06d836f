"""chesscore: the complete rules of chess in pure Python, on a 0x88 board.

The public API, in brief:

>>> from chesscore import Board, Move, perft, parse_square, square_name
>>> board = Board()
>>> len(board.legal_moves())
20
>>> board.push_uci("e2e4")
Move(from_square=20, to_square=52, promotion=None)
>>> board.fen()  # no en passant square: no black pawn can capture en passant
'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
>>> board.pop().uci()
'e2e4'
>>> perft(board, 3)
8902
>>> square_name(parse_square("e4")), parse_square("a2")
('e4', 16)
>>> Move.from_uci("e7e8q").promotion == QUEEN
True

Squares are 0x88 ints (`rank * 16 + file`, a1 = 0); names appear only at the edges. Positions
come from FEN (`Board.from_fen`, strict: `InvalidFenError` names the bad field or the reason
the position cannot be played) and go back to FEN with `board.fen()`, which writes the en
passant square only when a legal en passant capture exists (the lichess and python-chess
convention). Every error is a `ChessError`, a `ValueError`, whose message quotes the input:

>>> Board.from_fen("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
chesscore.errors.InvalidFenError: unplayable position '...': black is in check but it is white's ...
>>> Board().push_uci("e2e5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
chesscore.errors.IllegalMoveError: illegal move 'e2e5' in position 'rnbqkbnr/pppppppp/8/8/8/8/...'

Attacks, checks and pins come from one attack primitive:

>>> board = Board.from_fen("4k3/8/8/1B6/8/8/8/4K2R b K - 0 1")
>>> [square_name(sq) for sq in board.checkers()], board.is_check()
(['b5'], True)
>>> [square_name(sq) for sq in board.attackers(WHITE, parse_square("f1"))]
['e1', 'h1', 'b5']

>>> board = Board.from_fen("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1")
>>> [(square_name(pinned), square_name(pinner)) for pinned, pinner in board.pins(WHITE)]
[('e2', 'e7')]
>>> board.destinations()
{'e1': ['d1', 'd2', 'f1', 'f2']}
>>> Piece(KNIGHT, BLACK).symbol(), board.piece_at(parse_square("e2"))
('n', Piece(piece_type=2, color=0))

Position keys are 64-bit Zobrist keys; `board.keys` holds one per position since the root:

>>> board = Board()
>>> for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
...     _ = board.push_uci(uci)
>>> board.key() == board.keys[0] == Board().key(), board.ply
(True, 4)

For speed-critical callers (perft, the engine) the board also works on packed int moves:
`generate_legal()`, `push_packed(m)`, `pop_packed()`, `gives_check_packed(m)`,
`is_capture_packed(m)`; see chesscore.rules.move for the layout.
"""

from chesscore.errors import (
    AmbiguousMoveError,
    ChessError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidPgnError,
    InvalidSquareError,
)
from chesscore.rules.board import Board
from chesscore.rules.fen import STARTING_FEN
from chesscore.rules.move import Move, Piece
from chesscore.rules.outcome import Outcome, Termination
from chesscore.rules.perft import perft, perft_divide
from chesscore.rules.squares import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARES,
    WHITE,
    Color,
    parse_square,
    square_name,
)

__all__ = [
    "BISHOP",
    "BLACK",
    "KING",
    "KNIGHT",
    "PAWN",
    "QUEEN",
    "ROOK",
    "SQUARES",
    "STARTING_FEN",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "ChessError",
    "Color",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPgnError",
    "InvalidSquareError",
    "Move",
    "Outcome",
    "Piece",
    "Termination",
    "parse_square",
    "perft",
    "perft_divide",
    "square_name",
]
