"""How a game ends: the `Outcome` value, its `Termination`, and the draw rules.

`compute_outcome` answers "is the game over, and how": checkmate, stalemate, insufficient
material, fivefold repetition and the seventy-five-move rule end a game at once; threefold
repetition and the fifty-move rule end it only when a player claims (``claim_draw=True``).
Two questions are kept apart throughout: "has it occurred" (`is_repetition`, `is_fifty_moves`)
and "can it be claimed", which also holds when the side to move has a legal move after which it
would occur (`can_claim_threefold_repetition`, `can_claim_fifty_moves`). Repetition counts the
Zobrist keys the board keeps from its root to the current position (`board.keys`); only the
positions since the last capture or pawn move (`board.halfmove_clock`) can repeat, so only those
are looked at. The order of the checks follows python-chess, the test oracle: checkmate, then
insufficient material, then stalemate, then the automatic draws, then the claimable ones.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.rules.squares import BISHOP, BLACK, KING, KNIGHT, PAWN, QUEEN, ROOK, WHITE, Color

if TYPE_CHECKING:
    from chesscore.rules.position import Position

# Half-moves without a capture or pawn move after which the draw can be claimed / is automatic.
FIFTY_MOVES_PLIES = 100
SEVENTYFIVE_MOVES_PLIES = 150
# Piece types whose presence alone means mate is still possible.
MATING_ALONE = frozenset((PAWN, ROOK, QUEEN))


class Termination(enum.Enum):
    """Why a game ended; the values are the strings used on the wire and in storage."""

    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    FIVEFOLD_REPETITION = "fivefold_repetition"
    SEVENTYFIVE_MOVES = "seventyfive_moves"
    THREEFOLD_REPETITION = "threefold_repetition"
    FIFTY_MOVES = "fifty_moves"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME_FORFEIT = "time_forfeit"
    ABANDONED = "abandoned"


# Terminations that always have a winner, and those that never do (time forfeit and
# abandonment can go either way: a flag against a side that cannot be mated is a draw).
DECISIVE = frozenset((Termination.CHECKMATE, Termination.RESIGNATION))
DRAWN = frozenset(
    (
        Termination.STALEMATE,
        Termination.INSUFFICIENT_MATERIAL,
        Termination.FIVEFOLD_REPETITION,
        Termination.SEVENTYFIVE_MOVES,
        Termination.THREEFOLD_REPETITION,
        Termination.FIFTY_MOVES,
        Termination.AGREEMENT,
    )
)


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why it ended and who won (`None` for a draw).

    >>> Outcome(Termination.CHECKMATE, WHITE).result()
    '1-0'
    >>> Outcome(Termination.STALEMATE, None).to_json()
    {'termination': 'stalemate', 'winner': None, 'result': '1/2-1/2'}
    """

    termination: Termination
    winner: Color | None

    def __post_init__(self) -> None:
        if not isinstance(self.termination, Termination):
            raise ValueError(f"not a Termination: {self.termination!r}")
        if self.winner not in (None, WHITE, BLACK):
            raise ValueError(f"winner must be WHITE, BLACK or None, got {self.winner!r}")
        if self.winner is None and self.termination in DECISIVE:
            raise ValueError(f"{self.termination.value} needs a winner")
        if self.winner is not None and self.termination in DRAWN:
            raise ValueError(f"{self.termination.value} is a draw, it has no winner")

    def result(self) -> str:
        """The PGN result token: "1-0", "0-1" or "1/2-1/2"."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == WHITE else "0-1"

    def to_json(self) -> dict[str, str | None]:
        """Plain data for the wire: termination value, winner colour name, result token."""
        winner = None if self.winner is None else ("white" if self.winner == WHITE else "black")
        return {"termination": self.termination.value, "winner": winner, "result": self.result()}


def compute_outcome(board: Position, claim_draw: bool = False) -> Outcome | None:
    """The outcome of the game at `board`, or None while it goes on."""
    has_moves = bool(board.generate_legal())  # packed moves: no Move objects needed here
    if not has_moves and board.is_check():
        return Outcome(Termination.CHECKMATE, BLACK if board.turn == WHITE else WHITE)
    if is_insufficient_material(board):
        return Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    if not has_moves:
        return Outcome(Termination.STALEMATE, None)
    if board.halfmove_clock >= SEVENTYFIVE_MOVES_PLIES:
        return Outcome(Termination.SEVENTYFIVE_MOVES, None)
    if is_repetition(board, 5):
        return Outcome(Termination.FIVEFOLD_REPETITION, None)
    if claim_draw:
        if can_claim_fifty_moves(board):
            return Outcome(Termination.FIFTY_MOVES, None)
        if can_claim_threefold_repetition(board):
            return Outcome(Termination.THREEFOLD_REPETITION, None)
    return None


def _is_dark(sq: int) -> bool:
    # a1 is dark: on a 0x88 board rank = sq >> 4 and file = sq & 7.
    return ((sq >> 4) + (sq & 7)) % 2 == 0


def has_insufficient_material(board: Position, color: Color) -> bool:
    """True when `color` cannot possibly checkmate, whatever the opponent plays.

    The same rule as python-chess: a lone king; a king and one knight when the opponent has
    nothing but queens (a knight can mate a king boxed in by its own pawns, knights, bishops or
    rooks); kings and bishops all on squares of one colour when there are no pawns or knights.
    """
    own: list[int] = []
    others: list[int] = []
    bishop_squares: list[int] = []
    for sq, piece in board.pieces().items():
        if piece.piece_type == BISHOP:
            bishop_squares.append(sq)
        if piece.piece_type == KING:
            continue
        (own if piece.color == color else others).append(piece.piece_type)
    if any(kind not in (KNIGHT, BISHOP) for kind in own):
        return False
    if KNIGHT in own:
        return len(own) == 1 and all(kind == QUEEN for kind in others)
    if BISHOP in own:
        one_colour = len({_is_dark(sq) for sq in bishop_squares}) == 1
        return one_colour and KNIGHT not in others and PAWN not in others
    return True


def is_insufficient_material(board: Position) -> bool:
    """True when neither side can possibly checkmate."""
    # Runs after every move: a pawn, rook or queen anywhere settles it without building
    # Piece objects, and almost every position of a real game has one.
    cells = board.board
    for squares in board.piece_squares:
        if any(cells[sq] & 7 in MATING_ALONE for sq in squares):
            return False
    return has_insufficient_material(board, WHITE) and has_insufficient_material(board, BLACK)


def _reversible_keys(board: Position) -> list[int]:
    """Keys of the positions since the last capture or pawn move, oldest first.

    Earlier positions cannot repeat (material or pawn structure differ), so they are skipped;
    a root FEN's halfmove clock may reach further back than the history the board has.
    """
    keys = board.keys
    window = min(board.halfmove_clock + 1, len(keys))
    return keys[len(keys) - window :]


def is_repetition(board: Position, count: int = 3) -> bool:
    """True when the current position has occurred at least `count` times (this one included)."""
    keys = _reversible_keys(board)
    # The side to move is part of the key, so every second entry is enough.
    return keys[-1::-2].count(keys[-1]) >= count


def is_fifty_moves(board: Position) -> bool:
    """True when fifty moves each have passed without a capture or pawn move (and no mate)."""
    return board.halfmove_clock >= FIFTY_MOVES_PLIES and bool(board.generate_legal())


def can_claim_fifty_moves(board: Position) -> bool:
    """True when the fifty-move rule holds now or after some legal move of the side to move."""
    if is_fifty_moves(board):
        return True
    if board.halfmove_clock < FIFTY_MOVES_PLIES - 1:
        return False
    for move in board.legal_moves():
        board.push(move)
        try:
            if is_fifty_moves(board):
                return True
        finally:
            board.pop()
    return False


def can_claim_threefold_repetition(board: Position) -> bool:
    """True when the position occurred three times, or would after some legal move."""
    window = _reversible_keys(board)
    # A position seen twice with the same side to move needs at least 5 entries (A x y z A).
    if len(window) < 5:
        return False
    seen = Counter(window)
    if seen[board.keys[-1]] >= 3:
        return True
    # A move can only complete a threefold onto a position already seen twice; most positions
    # have none, and then no move needs to be tried.
    if max(seen.values()) < 2:
        return False
    for move in board.legal_moves():
        board.push(move)
        try:
            if board.halfmove_clock > 0 and seen[board.keys[-1]] >= 2:
                return True
        finally:
            board.pop()
    return False


def can_claim_draw(board: Position) -> bool:
    """True when the side to move can claim a draw by fifty moves or threefold repetition."""
    return can_claim_fifty_moves(board) or can_claim_threefold_repetition(board)
