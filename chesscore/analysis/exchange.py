"""What a capture wins, the exchange after it played out, and the hanging pieces it defines.

A piece is *hanging*, as a lichess player means it, when the other side wins material by
taking it: it is attacked and insufficiently defended, which the exchange on its square settles
(chesscore.analysis.see: each side takes back with its least valuable piece, free to stop).
Not "undefended or attacked by a cheaper piece": a pawn attacked by two pawns and defended by
one hangs, a defended piece whose only attacker is pinned to its king does not. One rule, here,
serves the threat map's overlay (chesscore.analysis.threats), what the review's explanations and
the move insight say, the careful computer (level 2) and the trainer (chesscore.training), so the
overlay never marks a piece the trainer would call safe.

- `exchange_value(board, packed)`: what a legal capture takes and the exchange after on its
  target. A capture that uncovers a check is played out with legal moves: the check must be
  answered first, so a recapture that leaves the king in check is no answer (any but the
  king's, unless it takes the piece giving the check), which the static exchange cannot see.
  A capture that gives check with the capturing piece alone needs no such care: taking that
  piece back answers the check.
- `hanging_gains(board, attacks)`: every piece (never a king) of either colour whose capture
  wins material for the other side, with the most it wins: the side to move's legal captures
  (en passant included), and the other side's as if the side to move passed (`passed`; in
  check, where it cannot, by the static exchange alone). It starts from the position's attack
  lists, so only attacked pieces cost anything: the threat map asks it after every move. The
  trainer, which asks nothing in check, has every answer of it checked against a brute force
  over python-chess (tests/test_training_material.py, tests/test_threats.py).
- `won_by(board, origin, targets)` and `falling(after, origin, targets)`: which targets a piece
  wins by taking them, with its side to move, or had the other side passed (after a check:
  after every answer to it): the trainer's threats and forks, and the insight's forks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.see import (
    SEE_VALUES,
    exchange_on_cells,
    exchange_on_target,
    is_pinned_off,
    revealed_attacker,
)
from chesscore.rules.attacks import AttackLists, is_attacked
from chesscore.rules.move import (
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    MOVE_KEY_MASK,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
)
from chesscore.rules.squares import (
    BISHOP,
    BISHOP_RAYS,
    KING,
    PAWN,
    QUEEN,
    ROOK,
    ROOK_RAYS,
    WHITE,
    Color,
    N,
    S,
    piece_type_of,
)

if TYPE_CHECKING:
    from chesscore.rules.board import Board

# The key under which a promotion that captures nothing is kept (`taken_square`).
QUIET = -1

# The rays from a square along which a check is given, with the kinds of slider that give it.
_LINES = ((ROOK_RAYS, (ROOK, QUEEN)), (BISHOP_RAYS, (BISHOP, QUEEN)))


def exchange_value(board: Board, packed: int) -> int:
    """What a legal packed move takes and the exchange after on its target (centipawns, may be
    negative), a capture that uncovers a check played out with legal moves (module docstring)."""
    if not _uncovers_check(board, packed):
        return exchange_on_target(board, packed)[0]
    target = packed & SQUARE_MASK
    value = taken_value(board, packed)
    board.push_packed(packed)
    try:
        return value - _best_recapture(board, target)
    finally:
        board.pop()


def _best_recapture(board: Board, target: int) -> int:
    """The most the side to move wins by a legal capture on `target` and the exchange after,
    each capture a legal move; 0 when it does better not to take."""
    best = 0
    for reply in board.generate_legal():
        if reply & SQUARE_MASK == target:
            gain = taken_value(board, reply)
            board.push_packed(reply)
            best = max(best, gain - _best_recapture(board, target))
            board.pop()
    return best


def taken_square(board: Board, packed: int) -> int | None:
    """The square of the piece a legal packed move captures, `QUIET` for a promotion that
    captures nothing, None for any other move."""
    target = packed & SQUARE_MASK
    if packed >> FLAG_SHIFT == FLAG_EN_PASSANT:
        return target + (S if board.turn == WHITE else N)
    if board.board[target]:
        return target
    return QUIET if packed >> PROMOTION_SHIFT & 7 else None


def taken_value(board: Board, packed: int) -> int:
    """What a legal packed move takes at once: the captured piece and a promotion's gain."""
    square = taken_square(board, packed)
    if square is None:
        return 0
    value = 0
    if square != QUIET:
        value = SEE_VALUES[piece_type_of(board.board[square])]
    promotion = packed >> PROMOTION_SHIFT & 7
    if promotion:
        value += SEE_VALUES[promotion] - SEE_VALUES[PAWN]
    return value


def passed(board: Board) -> Board:
    """A copy of `board` (not in check) with the other side to move, as if the side to move
    passed."""
    work = board.copy()
    work.push_null()
    return work


def hanging_gains(board: Board, attacks: AttackLists, of: Color | None = None) -> dict[int, int]:
    """By square, every hanging piece of either colour, or of colour `of` only (module
    docstring), with the most its capture wins (centipawns, > 0), from `attacks`, the attack
    lists of `board` at least at its pieces' squares (the threat map's, or
    `threats.piece_attack_lists`).

    Each attacker that may take is tried first in turn: one pinned to its king off the line, a
    king onto a defended square, and in check any capture that is not a legal move may not.

    >>> from chesscore import Board
    >>> from chesscore.analysis.threats import piece_attack_lists
    >>> from chesscore.rules.squares import square_name
    >>> board = Board.from_fen("4k3/8/4p3/3p4/2P1P3/1P3P2/8/4K3 w - - 0 1")
    >>> found = hanging_gains(board, piece_attack_lists(board))  # d5: two pawns against one
    >>> {square_name(sq): gain for sq, gain in found.items()}
    {'d5': 100}
    """
    cells = board.board[:]  # every capture is tried on this copy and taken back
    squares, kings, turn = board.piece_squares, board.kings, board.turn
    legal: set[int] | None = None  # the legal moves' keys, made when a check needs them
    others: Board | None = None  # the position as if the side to move passed, when needed
    found: dict[int, int] = {}
    check = board.is_check()
    for color in (turn, turn ^ 1) if of is None else (of,):
        side: Color = color ^ 1  # the side that takes
        in_check = check and side == turn
        uncovering: frozenset[int] | None = None  # its pieces whose move uncovers a check
        for sq in squares[color]:
            enemies = attacks[side][sq]
            if not enemies or cells[sq] & 7 == KING:
                continue
            defenders = attacks[color][sq]
            best = None
            # No capture wins more than the piece (but one that promotes, on the last ranks):
            # the cheapest takers first, and the rest not tried once one wins it whole.
            most = SEE_VALUES[cells[sq] & 7] if 0 < sq >> 4 < 7 else 1 << 30
            if len(enemies) > 1:
                enemies = sorted(enemies, key=lambda origin: SEE_VALUES[cells[origin] & 7])
            for origin in enemies:
                packed = origin << ORIGIN_SHIFT | sq
                piece = cells[origin]
                if piece & 7 == PAWN and sq >> 4 in (0, 7):
                    packed |= QUEEN << PROMOTION_SHIFT
                if in_check:
                    if legal is None:
                        legal = {move & MOVE_KEY_MASK for move in board.generate_legal()}
                    if packed not in legal:
                        continue
                elif _may_not_take(cells, squares[color], kings[side], origin, sq):
                    continue
                if not defenders and most < 1 << 30:
                    # Undefended, and nothing of its colour behind the taker on its line: won
                    # whole, as the exchange would find at more cost (the common case).
                    behind = revealed_attacker(cells, sq, origin)
                    if behind is None or cells[behind] >> 3 == side:
                        best = most
                        break
                if uncovering is None:
                    uncovering = _uncovering(cells, kings[color], side)
                checks = origin in uncovering
                if checks and side == turn:
                    value = exchange_value(board, packed)
                elif checks and not check:  # the side to move cannot pass in check
                    others = others or passed(board)
                    value = exchange_value(others, packed)
                else:
                    value = exchange_on_cells(cells, squares, kings, side, packed, attacks)[0]
                if best is None or value > best:
                    best = value
                    if best >= most:
                        break
            if best is not None and best > 0:
                found[sq] = best
    if of != turn and _may_take_en_passant(board):
        for packed in board.generate_legal():
            if packed >> FLAG_SHIFT == FLAG_EN_PASSANT:
                victim = taken_square(board, packed)
                value = exchange_value(board, packed)
                if victim is not None and value > max(0, found.get(victim, 0)):
                    found[victim] = value
    return found


def falling(after: Board, origin: int, targets: Sequence[int]) -> list[int]:
    """Of `targets` (pieces of the side to move in `after`), those the piece on `origin` takes
    winning material by the exchange had the side to move passed, in `targets`' order. In
    check no pass exists: a target falls when it does after every answer to the check, and
    nothing falls when an answer takes the checking piece without losing material."""
    if not after.is_check():
        return won_by(passed(after), origin, targets)
    left = list(targets)
    work = after.copy()
    for reply in after.generate_legal():
        if reply & SQUARE_MASK == origin:
            if exchange_value(work, reply) >= 0:
                return []
            continue  # taking the checking piece loses more than the fork would
        work.push_packed(reply)
        won = won_by(work, origin, left)
        work.pop()
        left = [sq for sq in left if sq in won]
        if not left:
            break
    return left


def won_by(board: Board, origin: int, targets: Sequence[int]) -> list[int]:
    """Of `targets`, those the piece on `origin` (of the side to move) takes winning material
    by the exchange, in `targets`' order."""
    wanted = set(targets)
    best: dict[int, int] = {}
    for packed in board.generate_legal():
        target = packed & SQUARE_MASK
        if target in wanted and packed >> ORIGIN_SHIFT & SQUARE_MASK == origin:
            value = exchange_value(board, packed)
            best[target] = max(value, best.get(target, value))
    return [sq for sq in targets if best.get(sq, 0) > 0]


def _may_not_take(cells: list[int], defenders: set[int], king: int, origin: int, sq: int) -> bool:
    """Whether the piece on `origin` may not take on `sq` (the mover not in check): a king onto
    a square the pieces on `defenders` attack once it stands there, any other piece pinned to
    its king on `king` off the line through `sq`."""
    if origin != king:
        return is_pinned_off(cells, origin, king, sq)
    taken, cells[sq], cells[origin] = cells[sq], cells[origin], 0
    attacked = is_attacked(cells, sq, defenders)
    cells[origin], cells[sq] = cells[sq], taken
    return attacked


def _uncovers_check(board: Board, packed: int) -> bool:
    """Whether a legal packed capture of the side to move uncovers a check: its piece leaves a
    line between the enemy king and a slider of its own (en passant, which empties a second
    square, asks the board)."""
    if packed >> FLAG_SHIFT == FLAG_EN_PASSANT:
        return board.gives_check_packed(packed)
    turn = board.turn
    return packed >> ORIGIN_SHIFT & SQUARE_MASK in _uncovering(
        board.board, board.kings[turn ^ 1], turn
    )


def _uncovering(cells: list[int], king: int, side: Color) -> frozenset[int]:
    """The squares of `side`'s pieces that stand alone between the enemy king on `king` and a
    slider of `side` along that line: moving off it (a capture never lands on it: the line is
    empty but for them) uncovers a check."""
    found = []
    for rays, sliders in _LINES:
        for ray in rays[king]:
            between = None
            for x in ray:
                code = cells[x]
                if not code:
                    continue
                if code >> 3 != side:
                    break
                if between is not None:
                    if code & 7 in sliders:
                        found.append(between)
                    break
                between = x
    return frozenset(found)


def _may_take_en_passant(board: Board) -> bool:
    """Whether a pawn of the side to move stands beside the pawn that has just stepped two."""
    if board.ep_square is None:
        return False
    stepped = board.ep_square + (S if board.turn == WHITE else N)
    pawn = PAWN | board.turn << 3
    return any(not sq & 0x88 and board.board[sq] == pawn for sq in (stepped - 1, stepped + 1))
