"""A puzzle's line played out: every ply with the position before and after it, and the small
facts about pieces that the theme judges share (what a piece attacks, whether it is defended
or stands where it is lost, what it is worth).

A puzzle is a FEN and a line of UCI moves as lichess stores it: `moves[0]` is the opponent's
setting-up move, then the solver's moves and the opponent's replies alternate, the solver's
last. So the solver's moves are the odd plies and the solver's colour is the one not to move
in the FEN. Pieces are worth `PIECE_VALUES` (pawn 1, minor 3, rook 5, queen 9), the king
`KING_VALUE` where it is compared with others (a check to the king outweighs any piece).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import BISHOP, KING, QUEEN, ROOK, SQUARES, Color

KING_VALUE = 100
SLIDERS = (BISHOP, ROOK, QUEEN)


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of the line: the position before it, the move, the position after it, and
    whether the solver played it."""

    before: Board
    move: Move
    after: Board
    by_solver: bool

    @property
    def piece(self) -> int:
        """The type of the piece that moved (before any promotion)."""
        return self.before.board[self.move.from_square] & 7

    @property
    def captured(self) -> int:
        """The type of the piece the move took (0: none; en passant takes a pawn)."""
        if self.before.is_en_passant(self.move):
            return 1
        return self.before.board[self.move.to_square] & 7


@dataclass(frozen=True, slots=True)
class PuzzleLine:
    """A puzzle's line: the start, the solver's colour and every ply in order."""

    start: Board
    solver: Color
    plies: tuple[Ply, ...]

    @property
    def solver_plies(self) -> tuple[Ply, ...]:
        return self.plies[1::2]

    @property
    def end(self) -> Board:
        return self.plies[-1].after


def play_line(fen: str, moves: Sequence[str]) -> PuzzleLine:
    """The line of UCI `moves` from `fen` (InvalidFenError, InvalidMoveError or
    IllegalMoveError quoting what is wrong)."""
    start = Board.from_fen(fen)
    board = start.copy()
    plies = []
    for index, text in enumerate(moves):
        before = board.copy()
        move = board.push_uci(text)
        plies.append(Ply(before, move, board.copy(), index % 2 == 1))
    return PuzzleLine(start, start.turn ^ 1, tuple(plies))


def value(kind: int) -> int:
    """A piece type's worth, the king above every other piece."""
    return KING_VALUE if kind == KING else PIECE_VALUES[kind]


def color_at(board: Board, sq: int) -> Color:
    return board.board[sq] >> 3


def attacked_by(board: Board, origin: int) -> list[int]:
    """The squares of the other colour's pieces that the piece on `origin` attacks."""
    color = color_at(board, origin)
    return [sq for sq in board.piece_squares[color ^ 1] if origin in board.attackers(color, sq)]


def is_defended(board: Board, sq: int) -> bool:
    """Whether a piece of the colour on `sq` defends it."""
    return bool(board.attackers(color_at(board, sq), sq))


def is_in_bad_spot(board: Board, sq: int) -> bool:
    """Whether the piece on `sq` can be won as lichess's puzzle tagger judges it (its
    `is_in_bad_spot`, which the theme keys follow): attacked, and undefended or attacked by a
    cheaper piece. Not the threat map's "hanging", which plays the exchange out
    (chesscore.analysis.exchange)."""
    color = color_at(board, sq)
    enemies = board.attackers(color ^ 1, sq)
    if not enemies:
        return False
    worth = value(board.board[sq] & 7)
    cheapest = min(value(board.board[origin] & 7) for origin in enemies)
    return not is_defended(board, sq) or cheapest < worth


def pieces_count(board: Board) -> int:
    """The pieces on the board other than kings and pawns."""
    return sum(1 for sq in SQUARES if board.board[sq] & 7 not in (0, 1, KING))
