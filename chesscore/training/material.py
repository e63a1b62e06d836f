"""What a move risks and what it threatens in material, by the exchange: the trainer's truths.

The trainer calls a piece hanging, a square safe, a move a threat or a fork; each is a claim
about material, settled here with the static exchange (chesscore.analysis.see) over the legal
moves of the position, so that what the trainer says holds against a strong engine
(tests/test_training_soundness.py asks Stockfish):

- `capture_gains(board)`: by the square of each enemy piece the side to move can take, the
  most it wins by taking it and the exchange after (its best capture there); a non-capturing
  promotion is kept under `QUIET` (each capture valued by `chesscore.analysis.exchange`). A
  piece is *hanging* when its capture wins material: it is attacked and insufficiently
  defended, as a lichess player means it (`hanging_gains`: the one rule of
  chesscore.analysis.exchange, which the threat map's overlay shows; not asked in check,
  where the side to move cannot pass and must answer the check first).
- `Risks`: what the opponent could win at once if the mover passed, piece by piece; a move
  *loses material* when its own exchange loses (SEE < 0), or when what the opponent wins at
  once afterwards, less what the move took, is more than it could win had the mover passed,
  not counting the moved piece itself there (the move saves it, which is no excuse for
  dropping another). That counts the pin the piece was under (absolute or relative: the piece
  behind it is taken), what its move uncovers and what it stopped defending; and a move after
  which the opponent mates at once loses everything.
- `falling(after, origin, targets)` (chesscore.analysis.exchange, which the insight's forks
  use too): in the position after a move, had the opponent passed, the targets the piece on
  `origin` takes winning material by the exchange: they really fall or must be answered.
  After a check, which cannot be passed, the targets that fall after every answer to it.

The position is judged one move deep: a reply that makes two threats at once (a fork the move
allows), a mate in more than one or a deeper combination is not seen; bench/train_soundness.py
counts how often that matters (about one claimed move in twenty at Stockfish's depth 12).
"""

from __future__ import annotations

from dataclasses import dataclass

from chesscore.analysis import exchange
from chesscore.analysis.exchange import (
    QUIET,
    exchange_value,
    passed,
    taken_square,
    taken_value,
)
from chesscore.analysis.threats import piece_attack_lists
from chesscore.rules.board import Board
from chesscore.rules.move import ORIGIN_SHIFT, SQUARE_MASK
from chesscore.rules.squares import KING, piece_type_of


def capture_gains(board: Board) -> dict[int, int]:
    """By captured square (`QUIET` for a plain promotion), the most the side to move wins by its
    best capture there and the exchange after (centipawns, may be negative); kings are not
    captured."""
    cells = board.board
    gains: dict[int, int] = {}
    for packed in board.generate_legal():
        square = taken_square(board, packed)
        if square is None:
            continue
        if square != QUIET and piece_type_of(cells[square]) == KING:
            continue
        value = exchange_value(board, packed)
        if square not in gains or value > gains[square]:
            gains[square] = value
    return gains


def best_gain(board: Board) -> int:
    """The most the side to move wins at once by a capture or a promotion, 0 if nothing."""
    return max([0, *capture_gains(board).values()])


def hanging_gains(board: Board) -> dict[int, int] | None:
    """Every piece (never a king) of either colour whose capture wins material for the other
    side, with what it wins: the threat map's hanging pieces (chesscore.analysis.exchange).
    None in check, where the side to move cannot pass: what it must answer first is the
    check."""
    if board.is_check():
        return None
    return exchange.hanging_gains(board, piece_attack_lists(board))


@dataclass(frozen=True, slots=True)
class Risks:
    """What the opponent could win at once if the side to move passed, by captured square
    (`capture_gains` of the passed position; empty when in check: no pass exists)."""

    at_rest: dict[int, int]

    @classmethod
    def of(cls, board: Board) -> Risks:
        return cls({} if board.is_check() else capture_gains(passed(board)))

    def besides(self, origin: int) -> int:
        """The most the opponent wins at rest, not counting the piece on `origin`."""
        return max([0, *(value for sq, value in self.at_rest.items() if sq != origin)])

    def loses_material(self, work: Board, packed: int) -> bool:
        """Whether the legal packed move loses material (see the module docstring); `work` is
        the position, played on and taken back."""
        if exchange_value(work, packed) < 0:
            return True
        origin = packed >> ORIGIN_SHIFT & SQUARE_MASK
        taken = taken_value(work, packed)
        work.push_packed(packed)
        try:
            answer = best_gain(work)
            if taken - answer < -self.besides(origin):
                return True
            return allows_mate(work)
        finally:
            work.pop()


def allows_mate(board: Board) -> bool:
    """Whether the side to move mates at once: a move that allows it loses more than material
    (a piece that stopped guarding the back rank, a pawn that opened the king)."""
    for reply in board.generate_legal():
        if board.gives_check_packed(reply):
            board.push_packed(reply)
            mated = not board.generate_legal()
            board.pop()
            if mated:
                return True
    return False
