"""Static exchange evaluation (SEE): what a move wins or loses on its target square, no search.

`see(board, move)` plays out the captures on the move's target square: after the move, the
other side recaptures with its least valuable piece, then the mover with its least valuable,
and so on, every side free to stop when going on would lose more. The result is the material
the mover gains, in centipawns (pawn 100, knight 300, bishop 300, rook 500, queen 900), from
the mover's side: ``+300`` wins a knight, ``-200`` gives up a rook for a bishop. Attackers come
from the board's one attack primitive (`board.attackers`), asked again after each capture on a
scratch copy of the board (edited with `Board.replace_code`, no push/pop), so pieces
standing behind a capturer on the same line (a rook behind a rook, a queen behind a bishop or a
pawn) join the exchange as the pieces in front of them leave. Pieces absolutely pinned to their
king take part only along their pin line (pins are looked for again before every capture); a
king captures only onto a square the other side no longer attacks. A promotion, by the move or
by a pawn recapturing on the last rank, counts the queen's (or the chosen piece's) worth minus
the pawn's; castling is worth 0 and is safe (the king cannot castle onto an attacked square;
the rook is not looked at). The approximations every static exchange evaluation makes remain:
each side captures with its least valuable piece (rarely a dearer one would do better), and a
check given during the exchange is not seen.

`classify_destinations(board)` labels every legal move's target square for the drag overlay:

- ``"safe"``: after the move no enemy piece can capture on the target square (the moved
  piece cannot be won there), and the move loses nothing (a capture there wins material);
- ``"contested"``: an enemy piece can capture on the target square, but the exchange there is
  even or better for the mover (SEE >= 0);
- ``"losing"``: the exchange on the target square loses material for the mover (SEE < 0).

Only the target square is judged: a piece left undefended elsewhere by the move shows in the
preview's threat map and in `chesscore.insight`, not here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.errors import IllegalMoveError
from chesscore.move import FLAG_CASTLING, FLAG_EN_PASSANT, FLAG_SHIFT, Move
from chesscore.squares import KING, PAWN, QUEEN, WHITE, Color, square_name, squares_between

if TYPE_CHECKING:
    from chesscore.board import Board

# Centipawns by piece type (PAWN=1 .. KING=6). The king's worth only has to exceed any gain.
SEE_VALUES = (0, 100, 300, 300, 500, 900, 20000)

SAFE, CONTESTED, LOSING = "safe", "contested", "losing"


def see(board: Board, move: Move) -> int:
    """The material the side to move wins (centipawns, negative: loses) by `move` and the
    exchange it starts on the target square; IllegalMoveError when `move` is not legal.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1")
    >>> see(board, board.parse_uci("e1e5"))  # wins a pawn, the pawn on d6 takes the rook
    -400
    """
    return exchange_on_target(board, _find_legal(board, move))[0]


def classify_destinations(board: Board) -> dict[str, dict[str, str]]:
    """From-square -> to-square -> "safe" | "contested" | "losing", for every legal move (see
    the module docstring). A promotion square takes the best label of its four promotions.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1")
    >>> labels = classify_destinations(board)["f3"]
    >>> labels["e5"], labels["g5"], labels["d4"]  # a knight for a knight, a pawn takes, no one
    ('contested', 'losing', 'safe')
    """
    best: dict[tuple[int, int], tuple[int, bool]] = {}
    for packed in board.generate_legal():
        key = (packed >> 7 & 127, packed & 127)
        result = exchange_on_target(board, packed)
        if key not in best or result > best[key]:
            best[key] = result
    labels: dict[str, dict[str, str]] = {}
    for (origin, target), (value, attacked) in sorted(best.items()):
        labels.setdefault(square_name(origin), {})[square_name(target)] = label_exchange(
            value, attacked
        )
    return {origin: dict(sorted(targets.items())) for origin, targets in sorted(labels.items())}


def classify_move(board: Board, move: Move) -> str:
    """The label of one legal move (IllegalMoveError otherwise)."""
    return label_exchange(*exchange_on_target(board, _find_legal(board, move)))


def _find_legal(board: Board, move: Move) -> int:
    """The packed form of a legal move; IllegalMoveError naming anything else."""
    packed = board.find_packed(move) if isinstance(move, Move) else None
    if packed is None:
        text = move.uci() if isinstance(move, Move) else repr(move)
        raise IllegalMoveError(f"illegal move {text} in position {board.fen()!r}")
    return packed


def label_exchange(value: int, attacked: bool) -> str:
    """The label of an exchange's (SEE value, whether the other side can capture)."""
    if value < 0:
        return LOSING
    return CONTESTED if attacked else SAFE


def exchange_on_target(board: Board, packed: int) -> tuple[int, bool]:
    """(SEE of a legal packed move, whether the other side can capture on its target)."""
    if packed >> FLAG_SHIFT == FLAG_CASTLING:
        return 0, False
    scratch = board.copy()  # the exchange is played out on a copy's squares, not by push/pop
    color = board.turn
    origin, target = packed >> 7 & 127, packed & 127
    piece = board.board[origin]
    gain = SEE_VALUES[board.board[target] & 7]
    if packed >> FLAG_SHIFT == FLAG_EN_PASSANT:
        scratch.replace_code(target - 16 if color == WHITE else target + 16, 0)
        gain = SEE_VALUES[PAWN]
    promotion = packed >> 14 & 7
    if promotion:
        piece = promotion | color << 3
        gain += SEE_VALUES[promotion] - SEE_VALUES[PAWN]
    scratch.replace_code(origin, 0)
    scratch.replace_code(target, piece)
    return _exchange(scratch, target, color ^ 1, gain)


def _exchange(scratch: Board, target: int, side: Color, gain: int) -> tuple[int, bool]:
    """Play out the captures on `target`, `side` to capture next; the swap algorithm: `gains[d]`
    is what the side capturing at depth d has won if the exchange stopped right after."""
    if not scratch.attackers(side, target):
        return gain, False  # the common case, decided before the pins are worked out
    gains = [gain]
    on_square = SEE_VALUES[scratch.board[target] & 7]
    while True:
        # Pins are found again before every capture: a pinner that has just captured, or
        # been captured, frees its pinned piece to join in.
        capturer = _least_valuable_attacker(scratch, target, side, _pin_lines(scratch, side))
        if capturer is None:
            break
        piece = scratch.replace_code(capturer, 0)
        bonus = 0
        if piece & 7 == PAWN and target >> 4 in (0, 7):  # recapturing onto the last rank
            piece, bonus = QUEEN | (piece & 8), SEE_VALUES[QUEEN] - SEE_VALUES[PAWN]
        scratch.replace_code(target, piece)
        if piece & 7 == KING and scratch.attackers(side ^ 1, target):
            break  # the king may not capture into an attack, even one by a pinned piece
        gains.append(on_square + bonus - gains[-1])
        on_square = SEE_VALUES[piece & 7]
        side ^= 1
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0], len(gains) > 1


def _pin_lines(board: Board, color: Color) -> dict[int, set[int]]:
    """Pinned square -> the squares it may still capture on: its pinner and the squares
    between the pinner and the king."""
    king = board.king_square(color)
    return {
        pinned: {pinner, *squares_between(king, pinner)} for pinned, pinner in board.pins(color)
    }


def _least_valuable_attacker(
    board: Board, target: int, side: Color, pinned: dict[int, set[int]]
) -> int | None:
    """The square of `side`'s cheapest piece that may capture on `target`, or None."""
    best = None
    best_value = 1 << 30
    for sq in board.attackers(side, target):
        if sq in pinned and target not in pinned[sq]:
            continue
        value = SEE_VALUES[board.board[sq] & 7]
        if value < best_value:
            best, best_value = sq, value
    return best
