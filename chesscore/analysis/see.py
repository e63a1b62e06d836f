"""Static exchange evaluation (SEE): what a move wins or loses on its target square, no search.

`see(board, move)` plays out the captures on the move's target square: after the move, the
other side recaptures with its least valuable piece, then the mover with its least valuable,
and so on, every side free to stop when going on would lose more. The result is the material
the mover gains, in centipawns (pawn 100, knight 300, bishop 300, rook 500, queen 900), from
the mover's side: ``+300`` wins a knight, ``-200`` gives up a rook for a bishop. Attackers come
from the one attack primitive (chesscore.rules.attacks), asked again after each capture, so pieces
standing behind a capturer on the same line (a rook behind a rook, a queen behind a bishop or a
pawn) join the exchange as the pieces in front of them leave. Pieces absolutely pinned to their
king take part only along their pin line (a capturer's pin is looked for again before every
capture); a king captures only onto a square the other side no longer attacks. A promotion, by
the move or by a pawn recapturing on the last rank, counts the queen's (or the chosen piece's)
worth minus the pawn's; castling is worth 0 and is safe (the king cannot castle onto an
attacked square; the rook is not looked at). The approximations every static exchange
evaluation makes remain: each side captures with its least valuable piece (rarely a dearer one
would do better), and a check given during the exchange is not seen.

`classify_destinations(board)` labels every legal move's target square for the drag overlay:

- ``"safe"``: after the move no enemy piece can capture on the target square (the moved
  piece cannot be won there), and the move loses nothing (a capture there wins material);
- ``"contested"``: an enemy piece can capture on the target square, but the exchange there is
  even or better for the mover (SEE >= 0);
- ``"losing"``: the exchange on the target square loses material for the mover (SEE < 0).

Only the target square is judged: a piece left undefended elsewhere by the move shows in the
preview's threat map and in `chesscore.analysis.insight`, not here.

The server labels every legal move after every move, so the exchange is written for speed: it
is played on a private copy of the 0x88 list of piece codes, edited in place and restored
square by square after each move (no board copies, no push/pop, no Move objects), and most
moves are settled by one attack test before any swap list or pin is looked at. The piece sets
of the board are read but not edited: every square they list whose piece has left is empty
(or is the target square, which never attacks itself), so the attack primitive skips it.

The attack primitive is asked once per side, not after every capture: a capture only empties
the capturer's square, so the pieces attacking the target afterwards are those that did,
less the capturer, plus the first piece behind it on its line to the target if that piece
moves along the line (`revealed_attacker`). `classify_destinations` goes one step further and
starts every move from the whole-board attack map of the position (chesscore.rules.attacks), which
a move changes on its target square the same way, by emptying its origin; a caller holding the
position's threat map hands its attack lists over, the same map (chesscore.analysis.threats). A test
(tests/test_see_fast.py) checks both against the plain exchange that asks the primitive after
every capture.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING

from chesscore.errors import IllegalMoveError
from chesscore.rules.attacks import (
    ATTACK_KINDS,
    ATTACK_STEPS,
    KIND_BITS,
    KINDS_TO,
    SQUARE_LABELS,
    STEPS_TO,
    AttackLists,
    attackers,
    fill_attack_map,
    is_attacked,
)
from chesscore.rules.move import (
    FLAG_CASTLING,
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
    Move,
)
from chesscore.rules.squares import BLACK, KING, NAME_ORDER, PAWN, QUEEN, SQUARES, WHITE, Color

if TYPE_CHECKING:
    from chesscore.rules.board import Board

# Centipawns by piece type (PAWN=1 .. KING=6). The king's worth only has to exceed any gain.
SEE_VALUES = (0, 100, 300, 300, 500, 900, 20000)

SAFE, CONTESTED, LOSING = "safe", "contested", "losing"
# The lines along which a piece can be pinned (the kinds bits of bishops and rooks).
_LINE_KINDS = KIND_BITS[3] | KIND_BITS[4]

# By origin << ORIGIN_SHIFT | target, a sort key giving name order: origin name first, then
# target name.
_MOVE_NAME_ORDER = tuple(
    NAME_ORDER[k >> ORIGIN_SHIFT] << 6 | NAME_ORDER[k & SQUARE_MASK]
    for k in range(1 << PROMOTION_SHIFT)
)

# Per colour, for each 0x88 index, the squares (ascending) of that colour's pieces attacking it.
AttackersByColor = tuple[list[list[int]], list[list[int]]]


def see(board: Board, move: Move) -> int:
    """The material the side to move wins (centipawns, negative: loses) by `move` and the
    exchange it starts on the target square; IllegalMoveError when `move` is not legal.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1")
    >>> see(board, board.parse_uci("e1e5"))  # wins a pawn, the pawn on d6 takes the rook
    -400
    """
    return exchange_on_target(board, _find_legal(board, move))[0]


def classify_destinations(
    board: Board, attackers: AttackLists | None = None
) -> dict[int, dict[int, str]]:
    """From-square -> to-square -> "safe" | "contested" | "losing", for every legal move (see
    the module docstring), both in name order. A promotion square takes the best label of its
    four promotions. `attackers` is the threat map's attack lists of `board`
    (chesscore.analysis.threats), if the caller has them: the same attack map, in name order,
    which spares building it here.

    >>> from chesscore import Board
    >>> from chesscore.rules.squares import parse_square as sq
    >>> board = Board.from_fen("4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1")
    >>> labels = classify_destinations(board)[sq("f3")]
    >>> labels[sq("e5")], labels[sq("g5")], labels[sq("d4")]  # a knight for a knight, a pawn
    ('contested', 'losing', 'safe')
    """
    cells = board.board[:]  # every move is played on this copy and taken back
    squares, kings, color = board.piece_squares, board.kings, board.turn
    start = attackers if attackers is not None else _attack_map(cells, squares)
    enemy, enemy_start = color ^ 1, start[color ^ 1]
    best: dict[int, tuple[int, bool]] = {}  # by origin << ORIGIN_SHIFT | target
    for packed in board.generate_legal():
        key = packed & 0x3FFF
        flag = packed >> FLAG_SHIFT
        origin, target = key >> ORIGIN_SHIFT, key & SQUARE_MASK
        # Most moves go where no enemy piece attacks, nor starts to through the origin: they
        # are settled here, as `exchange_on_cells` would settle them, without a call to it
        # or any edit of `cells` (about half of all moves; a test checks the labels). The walk
        # for a revealed attacker reads only squares behind the origin, which the move leaves
        # as they are (en passant, which empties another square, is not settled here).
        if flag == FLAG_CASTLING:
            result = 0, False
        elif (
            flag != FLAG_EN_PASSANT
            and not enemy_start[target]
            and (
                not enemy_start[origin]
                or (revealed := revealed_attacker(cells, target, origin)) is None
                or cells[revealed] >> 3 != enemy
            )
        ):
            gain = SEE_VALUES[cells[target] & 7]
            if packed >> PROMOTION_SHIFT & 7:
                gain += SEE_VALUES[packed >> PROMOTION_SHIFT & 7] - SEE_VALUES[PAWN]
            result = gain, False
        else:
            result = exchange_on_cells(cells, squares, kings, color, packed, start, True)
        if key not in best or result > best[key]:
            best[key] = result
    labels: dict[int, dict[int, str]] = {}
    # Sorted by origin name, then target name: the order of the returned dicts.
    for key in sorted(best, key=_MOVE_NAME_ORDER.__getitem__):
        value, attacked = best[key]
        targets = labels.setdefault(key >> ORIGIN_SHIFT, {})
        targets[key & SQUARE_MASK] = LOSING if value < 0 else CONTESTED if attacked else SAFE
    return labels


def _attack_map(cells: list[int], squares: list[set[int]]) -> AttackersByColor:
    """One walk of every piece's attacks, which serves the first attack test of all the moves.
    Only the lists of the 64 squares are read: the others share one, which is never filled."""
    start: AttackersByColor = ([[]] * 128, [[]] * 128)
    for sq in SQUARES:
        start[0][sq] = []
        start[1][sq] = []
    fill_attack_map(cells, sorted(squares[0]), SQUARE_LABELS, start[0])
    fill_attack_map(cells, sorted(squares[1]), SQUARE_LABELS, start[1])
    return start


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
    return exchange_on_cells(board.board[:], board.piece_squares, board.kings, board.turn, packed)


def exchange_on_cells(
    cells: list[int],
    squares: list[set[int]],
    kings: list[int],
    color: Color,
    packed: int,
    start: AttackLists | None = None,
    label_only: bool = False,
) -> tuple[int, bool]:
    """`exchange_on_target` on the 0x88 list `cells` of the position whose piece sets and king
    squares are `squares` and `kings`, `color` to move, and whose attackers are `start` (if
    the caller has them; they spare the attack primitive); `cells` is left as it was found.
    With `label_only` the value is right in its sign only, all a label needs (`_exchange`)."""
    flag = packed >> FLAG_SHIFT
    if flag == FLAG_CASTLING:
        return 0, False
    origin, target = packed >> ORIGIN_SHIFT & SQUARE_MASK, packed & SQUARE_MASK
    piece = moved = cells[origin]
    captured = cells[target]
    gain = SEE_VALUES[captured & 7]
    taken = target  # the square of the captured piece: another one for en passant
    if flag == FLAG_EN_PASSANT:
        taken = target - 16 if color == WHITE else target + 16
        gain = SEE_VALUES[PAWN]
    taken_code = cells[taken]
    promotion = packed >> PROMOTION_SHIFT & 7
    if promotion:
        piece = promotion | color << 3
        gain += SEE_VALUES[promotion] - SEE_VALUES[PAWN]
    cells[taken] = 0
    cells[origin] = 0
    cells[target] = piece
    if start is None or flag == FLAG_EN_PASSANT:
        found = _first_attackers(cells, squares, color, target)
    else:
        found = _moved_attackers(cells, start, origin, target)
    enemies = found[color ^ 1]
    if not enemies:
        result = gain, False  # the common case, decided before any pin is looked for
    else:
        now = kings[:]
        if piece & 7 == KING:
            now[color] = target
        result = _exchange(cells, squares, now, target, color ^ 1, gain, found, label_only)
    cells[target] = captured
    cells[taken] = taken_code
    cells[origin] = moved
    return result


def _exchange(
    cells: list[int],
    squares: list[set[int]],
    kings: list[int],
    target: int,
    side: Color,
    gain: int,
    found: tuple[list[int], list[int]],
    label_only: bool = False,
) -> tuple[int, bool]:
    """Play out the captures on `target`, `side` to capture next, each side with one of its
    pieces in `found` (per colour, the ascending squares of its attackers of `target`, kept
    up to date here), then restore `cells`; the swap algorithm: `gains[d]` is what the side
    capturing at depth d has won if the exchange stopped right after.

    With `label_only` the exchange stops as soon as the sign of the result is known, and the
    value returned is 0 or -1 then. The mover's first gain is never negative, so the result is
    negative exactly when the side capturing first comes out ahead; the first capture after
    which the side that made it is not ahead settles that (`gains[d] <= 0` for the side that
    captured first: the mover keeps at least what it had; `gains[d] < 0` for the mover: it
    loses), while a capture that leaves its side ahead hands the question on to the next."""
    first = side
    settled = None  # with `label_only`: the result, once its sign is known
    gains = [gain]
    standing = cells[target]
    on_square = SEE_VALUES[standing & 7]
    left: list[tuple[int, int]] = []  # (square, piece) of every capturer, to put back
    while True:
        capturer = _least_valuable_attacker(cells, target, found[side], kings[side])
        if capturer is None:
            break
        piece = cells[capturer]
        left.append((capturer, piece))
        cells[capturer] = 0
        found[side].remove(capturer)
        revealed = revealed_attacker(cells, target, capturer)  # a piece behind it may join in
        if revealed is not None:
            insort(found[cells[revealed] >> 3], revealed)
        bonus = 0
        if piece & 7 == PAWN and target >> 4 in (0, 7):  # recapturing onto the last rank
            piece, bonus = QUEEN | (piece & 8), SEE_VALUES[QUEEN] - SEE_VALUES[PAWN]
        cells[target] = piece
        if piece & 7 == KING and is_attacked(cells, target, squares[side ^ 1]):
            break  # the king may not capture into an attack, even one by a pinned piece
        # A king that captured is not attacked: the exchange ends, its square is not needed.
        gains.append(on_square + bonus - gains[-1])
        if label_only and (gains[-1] <= 0 if side == first else gains[-1] < 0):
            settled = 0 if side == first else -1
            break
        on_square = SEE_VALUES[piece & 7]
        side ^= 1
    for sq, piece in left:
        cells[sq] = piece
    cells[target] = standing
    if settled is not None:
        return settled, True
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0], len(gains) > 1


def _first_attackers(
    cells: list[int], squares: list[set[int]], color: Color, target: int
) -> tuple[list[int], list[int]]:
    """Per colour, the ascending squares of the pieces attacking `target` on `cells`, which
    show the move made, from the attack primitive: the mover's (`color`) only when the other
    side has any, since the exchange ends before it starts otherwise."""
    enemies = attackers(cells, target, squares[color ^ 1])
    own = attackers(cells, target, squares[color]) if enemies else []
    return (own, enemies) if color == WHITE else (enemies, own)


def _moved_attackers(
    cells: list[int], start: AttackLists, origin: int, target: int
) -> tuple[list[int], list[int]]:
    """Per colour, the ascending squares of the pieces attacking `target` once the piece on
    `origin` has moved there (`cells` shows the move made, not en passant, which empties a
    second square), from `start`, the attackers before the move: less the moved piece, plus
    whoever attacks through its old square, looked for once for both colours (only a piece
    that attacked the origin can)."""
    white = [sq for sq in start[WHITE][target] if sq != origin]
    black = [sq for sq in start[BLACK][target] if sq != origin]
    # A threat map's lists are in name order; the exchange takes its pieces in ascending order.
    if len(white) > 1:
        white.sort()
    if len(black) > 1:
        black.sort()
    if start[WHITE][origin] or start[BLACK][origin]:
        revealed = revealed_attacker(cells, target, origin)
        if revealed is not None:
            insort(black if cells[revealed] >> 3 else white, revealed)
    return white, black


def revealed_attacker(cells: list[int], target: int, vacated: int) -> int | None:
    """The square of the piece that attacks `target` through the square `vacated` now that
    `cells` shows it empty, if any: the first piece behind it on their line, if that piece
    attacks along the line. Only that piece can join, since the squares of an exchange only
    ever empty: a piece further back is still blocked by it."""
    if not KINDS_TO[target][vacated] & _LINE_KINDS:
        return None  # a knight's step away: no line passes through both squares
    step = STEPS_TO[target][vacated]  # from `vacated` towards `target`
    x = vacated - step
    while not x & 0x88:
        code = cells[x]
        if code:
            return x if KINDS_TO[target][x] & KIND_BITS[code] else None
        x -= step
    return None


def _least_valuable_attacker(
    cells: list[int], target: int, found: list[int], king: int
) -> int | None:
    """The square of the cheapest of the pieces attacking `target` from the squares `found`
    (ascending, one colour's, king on `king`) that may capture there, the lowest square among
    equals; None when there is none."""
    best = None
    best_value = 1 << 30
    for sq in found:
        value = SEE_VALUES[cells[sq] & 7]
        if value < best_value and not is_pinned_off(cells, sq, king, target):
            best, best_value = sq, value
    return best


def is_pinned_off(cells: list[int], sq: int, king: int, target: int) -> bool:
    """Whether the piece on `sq` is absolutely pinned to its king on `king` along a line that
    `target` is not on: the walk of `movegen.scan_king` made from the king outwards, past
    `sq`, for this one piece (the pin line runs from the pinner up to the king)."""
    d = sq - king + 119
    if sq == king or not ATTACK_KINDS[d] & _LINE_KINDS:
        return False
    step = ATTACK_STEPS[d]
    x = king + step
    while x != sq:
        if cells[x]:
            return False  # something between the piece and its king
        x += step
    own = cells[king] & 8
    x += step
    while not x & 0x88:
        p = cells[x]
        if p:
            if p & 8 == own or not ATTACK_KINDS[king - x + 119] & KIND_BITS[p]:
                return False
            return target not in range(x, king, -step)
        x += step
    return False
