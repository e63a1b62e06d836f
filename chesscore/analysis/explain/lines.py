"""The opponent's line read for where it wins material for good, and material put in words.

`find_fall` plays the opponent's best line after the move on a board and follows the mover's
material less the opponent's (pawn 1, knight and bishop 3, rook 5, queen 9) from the position
before the move. The line is first cut while it ends inside an exchange (its last move a
capture or a promotion that the side to move could answer with a capture winning something
back by static exchange): the engine's line may stop there, the board does not. The fall is
the first move after which the material never comes back within `least` pawns of where it
stood; the loss is the smallest of the rest of the line (what the mover is sure to be down);
what is lost, the mover's pieces fewer there less those of the same kind it took. A fall
settled too far down the line to be told move by move (`SHOWN_PLIES`) is told where the loss
first holds. The clauses of a trapped piece and of defenders ask it whether the line wins
what they point at; `loss_words` says a loss counted both ways ("a knight for a pawn", "the
exchange").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import kind_at, same_rank_square
from chesscore.analysis.explain.claims import balance
from chesscore.analysis.explain.nouns import (
    MATERIAL,
    THE_EXCHANGE,
    exchange_and,
    lost_for,
    pieces_counted,
)
from chesscore.analysis.see import exchange_on_target
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import BISHOP, KNIGHT, PAWN, ROOK
from chesscore.words import say_list

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move
    from chesscore.rules.squares import Color
    from chesscore.words import Message

SHOWN_PLIES = 12  # a fall further down the line is not told move by move


@dataclass(frozen=True, slots=True)
class Fall:
    """Where a line wins material for good (module docstring): the line's moves up to where
    the loss holds (`moves`, played from `start`), the index among them of the move that first
    takes it (played in `before`), the position `settled` where the loss holds, the loser's
    piece types fewer there than where the count started (`lost`) and the other side's
    (`gained`), the loss in pawns, and whether a pawn promoted on the way."""

    start: Board
    moves: tuple[Move, ...]
    index: int
    before: Board
    settled: Board
    lost: tuple[int, ...]
    gained: tuple[int, ...]
    points: int
    promotes: bool

    @property
    def move(self) -> Move:
        """The move that first takes the material."""
        return self.moves[self.index]


def find_fall(s: Situation, least: int = 1) -> Fall | None:
    """The mover's fall of at least `least` pawns in the opponent's line after the move,
    counted from the position before the move."""
    return find_material_change(s.board, s.after, s.reply_line, s.reply_boards, s.mover, least)


def find_material_change(
    origin: Board,
    start: Board,
    line: Sequence[Move],
    boards: Sequence[Board],
    loser: Color,
    least: int,
) -> Fall | None:
    """The fall of `loser` by at least `least` pawns from `origin` along the legal `line`
    from `start` (`boards`: the position after each of its moves), if any."""
    positions = [start, *boards[: _settled_length(start, line, boards)]]
    values = [balance(board, loser) for board in positions]
    base = balance(origin, loser)
    for k in range(1, len(positions)):
        kept = max(values[k:])
        if kept <= base - least:
            settled = values.index(kept, k)
            if settled > SHOWN_PLIES:
                # Too far to tell move by move: told where the loss first holds instead.
                settled, kept = k, values[k]
            return Fall(
                start,
                tuple(line[:settled]),
                k - 1,
                positions[k - 1],
                positions[settled],
                _fewer(origin, positions[settled], loser),
                _fewer(origin, positions[settled], loser ^ 1),
                base - kept,
                any(move.promotion for move in line[:settled]),
            )
    return None


def _settled_length(start: Board, line: Sequence[Move], boards: Sequence[Board]) -> int:
    """How much of the line to read: cut while it ends inside an exchange."""
    length = len(boards)
    while length:
        move, board = line[length - 1], boards[length - 1]
        before = boards[length - 2] if length > 1 else start
        changes = before.board[move.to_square] or move.promotion
        if not changes or not _wins_back(board, move.to_square):
            break
        length -= 1
    return length


def _wins_back(board: Board, square: int) -> bool:
    """Whether the side to move has a capture on `square` winning something by exchange."""
    for move in board.legal_moves():
        if move.to_square == square:
            packed = board.find_packed(move)
            if packed is not None and exchange_on_target(board, packed)[0] > 0:
                return True
    return False


def _fewer(before: Board, after: Board, color: Color) -> tuple[int, ...]:
    """The piece types of `color` fewer in `after` than in `before` (a multiset)."""
    counts: Counter[int] = Counter(kind_at(before, sq) for sq in before.piece_squares[color])
    counts.subtract(kind_at(after, sq) for sq in after.piece_squares[color])
    return tuple(sorted(kind for kind, n in counts.items() if n > 0 for _ in range(n)))


def loss_words(lost: tuple[int, ...], gained: tuple[int, ...], pawns_for: bool = True) -> Message:
    """ "the queen", "the exchange", "a knight for two pawns", "two pawns": what the side
    loses (`lost`, piece types), what it took (`gained`) set against it, the same types first
    cancelled (a trade is no loss); `pawns_for`: the pawns it took are named too."""
    mine, theirs = net_loss(lost, gained), net_loss(gained, lost)
    pawns = Counter({PAWN: mine[PAWN]}) if mine[PAWN] else Counter()
    against = Counter({kind: n for kind, n in theirs.items() if kind != PAWN or pawns_for})
    minors = +Counter({KNIGHT: theirs[KNIGHT], BISHOP: theirs[BISHOP]})
    if mine - pawns == Counter({ROOK: 1}) and sum(minors.values()) == 1:
        return exchange_and(_counted(pawns)) if pawns else THE_EXCHANGE
    if mine - pawns:
        return lost_for(_counted(mine), _counted(against)) if against else _counted(mine)
    return _counted(mine) if mine else MATERIAL


def net_loss(lost: tuple[int, ...], gained: tuple[int, ...]) -> Counter[int]:
    """The piece types of `lost` left once those of `gained` are set against them: the same
    types first, then knights against bishops (a minor piece for a minor piece is a trade)."""
    mine, theirs = Counter(lost) - Counter(gained), Counter(gained) - Counter(lost)
    for kind, other in ((KNIGHT, BISHOP), (BISHOP, KNIGHT)):
        traded = min(mine[kind], theirs[other])
        mine[kind] -= traded
        theirs[other] -= traded
    return +mine


def _counted(counts: Counter[int]) -> Message:
    """ "the queen and two knights": the pieces of `counts`, most valuable first."""
    kinds = sorted(counts, key=lambda kind: -PIECE_VALUES[kind])
    return say_list([pieces_counted(kind, counts[kind]) for kind in kinds])


def captured_square(board: Board, move: Move) -> int | None:
    """The square of the piece the legal `move` of `board` takes (en passant too), if any."""
    if board.board[move.to_square]:
        return move.to_square
    if board.is_en_passant(move):
        return same_rank_square(move.from_square, move.to_square)
    return None
