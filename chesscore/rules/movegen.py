"""Move generation: pins and checks, and legal moves as packed ints.

Layers: the attack primitive (`attackers`/`is_attacked`, "which pieces of a colour attack
this square") lives in chesscore.rules.attacks beside its whole-board shape, and is imported here,
where check detection, king moves and castling ask it. `scan_king` makes the primitive's walk
from every enemy piece towards the king, letting one own piece stand in the way, to find once
per position the checkers, the squares that stop a check and the absolutely pinned pieces
with the squares they may still move to. `generate_legal` then generates pseudo-legal moves
and keeps only the legal ones using those facts, without making the moves: a pinned piece
keeps the moves along its pin, in check every non-king move must land on a checking or
blocking square, the king never steps onto an attacked square, and the rare en passant
capture, whose legality can hinge on two pieces leaving a rank, is tested on a copy of the
board. Generation never mutates the position.

The functions are written for speed because perft, the server and the engine all spend their
time here: moves are packed ints (see chesscore.rules.move), loops walk precomputed per-square
target and ray lists (chesscore.rules.squares), colour tests are table lookups, and hot loops bind
globals and attributes to locals once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

# attackers and is_attacked are re-exported: callers ask movegen for them.
from chesscore.rules.attacks import (
    ATTACK_KINDS,
    ATTACK_STEPS,
    KIND_BITS,
    KINDS_TO,
    SLIDER_KINDS,
    STEPS_TO,
)
from chesscore.rules.attacks import attackers as attackers
from chesscore.rules.attacks import is_attacked as is_attacked
from chesscore.rules.move import (
    FLAG_CASTLING,
    FLAG_DOUBLE_STEP,
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
)
from chesscore.rules.squares import (
    A1,
    A8,
    B1,
    B8,
    BISHOP,
    C1,
    C8,
    D1,
    D8,
    E1,
    E8,
    F1,
    F8,
    G1,
    G8,
    H1,
    H8,
    KING,
    KING_TARGETS,
    KNIGHT,
    KNIGHT_TARGETS,
    PAWN,
    PAWN_ATTACKER_SQUARES,
    PAWN_CAPTURE_TARGETS,
    PIECE_RAYS,
    QUEEN,
    ROOK,
    SQUARES,
    WHITE,
    Color,
)

if TYPE_CHECKING:
    from chesscore.rules.state import PositionState

# Castling rights are a 4-bit set.
WHITE_KINGSIDE, WHITE_QUEENSIDE, BLACK_KINGSIDE, BLACK_QUEENSIDE = 1, 2, 4, 8
CASTLING_LETTERS = (("K", WHITE_KINGSIDE), ("Q", WHITE_QUEENSIDE), ("k", BLACK_KINGSIDE),
                    ("q", BLACK_QUEENSIDE))  # fmt: skip
# The rights that survive a move from or to each square (a king or rook leaving home, or a rook
# captured at home, loses them): `rights &= CASTLING_MASK[origin] & CASTLING_MASK[target]`.
_HOME_RIGHTS = {
    E1: WHITE_KINGSIDE | WHITE_QUEENSIDE,
    H1: WHITE_KINGSIDE,
    A1: WHITE_QUEENSIDE,
    E8: BLACK_KINGSIDE | BLACK_QUEENSIDE,
    H8: BLACK_KINGSIDE,
    A8: BLACK_QUEENSIDE,
}
CASTLING_MASK: tuple[int, ...] = tuple(15 & ~_HOME_RIGHTS.get(sq, 0) for sq in range(128))
# Per colour: (right, king origin, king target, squares that must be empty, the squares the
# king passes and lands on (which must not be attacked), rook origin, rook target).
CastlingSpec = tuple[int, int, int, tuple[int, ...], tuple[int, ...], int, int]
CASTLING_SPECS: tuple[tuple[CastlingSpec, ...], ...] = (
    ((WHITE_KINGSIDE, E1, G1, (F1, G1), (F1, G1), H1, F1),
     (WHITE_QUEENSIDE, E1, C1, (D1, C1, B1), (D1, C1), A1, D1)),
    ((BLACK_KINGSIDE, E8, G8, (F8, G8), (F8, G8), H8, F8),
     (BLACK_QUEENSIDE, E8, C8, (D8, C8, B8), (D8, C8), A8, D8)),
)  # fmt: skip
# King target square of a castling move -> (rook origin, rook target).
CASTLING_ROOK_MOVES = {G1: (H1, F1), C1: (A1, D1), G8: (H8, F8), C8: (A8, D8)}

_DOUBLE_STEP = FLAG_DOUBLE_STEP << FLAG_SHIFT
_EN_PASSANT = FLAG_EN_PASSANT << FLAG_SHIFT
_CASTLING = FLAG_CASTLING << FLAG_SHIFT
# The bits above the squares of an ordinary move or a double step (no promotion, no other flag).
_PLAIN_HIGH_BITS = (0, FLAG_DOUBLE_STEP << FLAG_SHIFT - PROMOTION_SHIFT)
_PROMOTIONS = (
    QUEEN << PROMOTION_SHIFT,
    ROOK << PROMOTION_SHIFT,
    BISHOP << PROMOTION_SHIFT,
    KNIGHT << PROMOTION_SHIFT,
)
# Per colour, per piece code: is it an enemy piece; may a piece land there (empty or enemy).
# Table lookups because they are cheaper than bit tests in the generator's inner loops.
_IS_ENEMY = tuple(
    tuple(code & 7 != 0 and code >> 3 != color for code in range(16)) for color in (0, 1)
)
_CAN_LAND = tuple(tuple(code == 0 or code >> 3 != color for code in range(16)) for color in (0, 1))


def squares_of(board: list[int], color: Color) -> list[int]:
    """Squares of the pieces of a colour, found by scanning (for boards without piece lists)."""
    return [sq for sq in SQUARES if board[sq] and board[sq] >> 3 == color]


class KingSafety:
    """What the king of the side to move imposes on its moves, found by `scan_king`.

    `checkers`: squares of the checking pieces. `evasions`: when in single check, the squares
    a non-king move must land on (the checker and, for a slider, the squares in between).
    `pinned`: pinned square -> the squares along its pin it may still move to (from the
    pinner up to the king). `behind`: squares on a checking slider's line on the far side of
    the king, which the king cannot flee to although the king itself hides them now.
    """

    __slots__ = ("behind", "checkers", "evasions", "pinned")

    def __init__(self) -> None:
        self.checkers: list[int] = []
        self.evasions: range = range(0)
        self.pinned: dict[int, range] = {}
        self.behind: list[int] = []


def scan_king(board: list[int], ksq: int, enemies: Iterable[int]) -> KingSafety:
    """Checkers, check-stopping squares and pins for the king on `ksq`, given the squares of
    the enemy pieces: the attack primitive's walk, which here lets one own piece stand in
    the way (a pin) instead of stopping."""
    safety = KingSafety()
    own_bit = board[ksq] & 8
    kinds, steps, kind_bits = KINDS_TO[ksq], STEPS_TO[ksq], KIND_BITS  # locals: hot loop
    for origin in enemies:
        p = board[origin]
        if not kinds[origin] & kind_bits[p]:
            continue
        step = steps[origin]
        x = origin + step
        blocker = -1
        while x != ksq:
            q = board[x]
            if q:
                if blocker >= 0 or (q & 8) != own_bit:
                    break
                blocker = x
            x += step
        else:
            # Squares from the attacker up to the king: where a blocker may go.
            line = range(origin, ksq, step)
            if blocker >= 0:
                safety.pinned[blocker] = line
                continue
            safety.checkers.append(origin)
            safety.evasions = line
            if BISHOP <= p & 7 <= QUEEN and not (ksq + step) & 0x88:
                safety.behind.append(ksq + step)
    return safety


def is_en_passant_safe(
    board: list[int], origin: int, target: int, ksq: int, color: Color, enemies: Iterable[int]
) -> bool:
    """Whether the en passant capture origin->target leaves the king of `color` unattacked.

    Tested on a copy of the board because two pieces leave their squares at once, which can
    open a rank, file or diagonal onto the king that no pin record describes.
    """
    after = board[:]
    after[target] = after[origin]
    after[origin] = 0
    after[target - 16 if color == WHITE else target + 16] = 0
    # The captured pawn is still among the enemy squares but its square is empty now.
    return not is_attacked(after, ksq, enemies)


def has_legal_en_passant(pos: PositionState) -> bool:
    """Whether the side to move has a legal en passant capture (decides FEN and key)."""
    ep = pos.ep_square
    if ep is None:
        return False
    board, color = pos.board, pos.turn
    pawn = PAWN | color << 3
    ksq = pos.kings[color]
    return any(
        board[origin] == pawn
        and is_en_passant_safe(board, origin, ep, ksq, color, pos.piece_squares[color ^ 1])
        for origin in PAWN_ATTACKER_SQUARES[color][ep]
    )


def gives_check(pos: PositionState, move: int) -> bool:
    """Whether a legal packed move checks the opponent, found without making ordinary moves:
    the moved piece attacks the king from its target, or its origin uncovers a slider."""
    if move >> PROMOTION_SHIFT not in _PLAIN_HIGH_BITS:
        # Promotions, en passant and castling move or change more than one piece.
        pos.push_packed(move)
        try:
            return pos.is_check()
        finally:
            pos.pop_packed()
    board = pos.board
    origin = move >> ORIGIN_SHIFT & SQUARE_MASK
    target = move & SQUARE_MASK
    king = pos.kings[pos.turn ^ 1]
    d = king - target + 119
    if ATTACK_KINDS[d] & KIND_BITS[board[origin]]:
        step = ATTACK_STEPS[d]
        x = target + step
        while x != king and (not board[x] or x == origin):
            x += step
        if x == king:
            return True
    return _uncovers_slider(board, origin, target, king, pos.turn)


def _uncovers_slider(board: list[int], origin: int, target: int, king: int, color: Color) -> bool:
    """Whether emptying `origin` (the piece going to `target`) opens a line from a slider of
    `color` to the king on `king`."""
    d = origin - king + 119
    if not ATTACK_KINDS[d] & SLIDER_KINDS:
        return False
    step = ATTACK_STEPS[d]
    x = king + step
    passed_origin = False
    while not x & 0x88:
        if x == target:
            return False
        if x == origin:
            passed_origin = True
        elif board[x]:
            p = board[x]
            return (
                passed_origin
                and p >> 3 == color
                and bool(ATTACK_KINDS[king - x + 119] & KIND_BITS[p])
            )
        x += step
    return False


def generate_legal(pos: PositionState) -> list[int]:
    """Every legal move of the side to move, as packed ints."""
    board = pos.board
    color = pos.turn
    ksq = pos.kings[color]
    enemies = pos.piece_squares[color ^ 1]
    safety = scan_king(board, ksq, enemies)
    moves: list[int] = []
    checkers = safety.checkers
    if not checkers:
        _generate_non_king_moves(pos, safety.pinned, moves)
        king_moves: list[int] = []
        _generate_king_moves(board, ksq, color, safety.behind, enemies, king_moves)
        moves += king_moves
        if pos.castling_rights:
            _generate_castling(board, color, pos.castling_rights, enemies, king_moves, moves)
        return moves
    if len(checkers) == 1:
        _generate_non_king_moves(pos, safety.pinned, moves)
        evasions = safety.evasions
        # En passant moves were already tested against the whole position; an en passant
        # capture can stop a check by removing the checking pawn, off the evasion squares.
        moves = [
            m for m in moves if (m & SQUARE_MASK) in evasions or m >> FLAG_SHIFT == FLAG_EN_PASSANT
        ]
    _generate_king_moves(board, ksq, color, safety.behind, enemies, moves)
    return moves


def _generate_non_king_moves(
    pos: PositionState, pinned: dict[int, range], moves: list[int]
) -> None:
    """Moves of every piece but the king, legal as far as pins go (checks are filtered later):
    a pinned piece keeps only the moves along its pin."""
    own = pos.piece_squares[pos.turn]
    if not pinned:
        _generate_piece_moves(pos, own, moves)
        return
    _generate_piece_moves(pos, [sq for sq in own if sq not in pinned], moves)
    for origin, along in pinned.items():
        piece_moves: list[int] = []
        _generate_piece_moves(pos, (origin,), piece_moves)
        moves += [m for m in piece_moves if (m & SQUARE_MASK) in along]


def _generate_piece_moves(pos: PositionState, origins: Iterable[int], moves: list[int]) -> None:
    """Pseudo-legal moves of the pieces on `origins` (kings excepted)."""
    board = pos.board
    color = pos.turn
    is_enemy = _IS_ENEMY[color]
    can_land = _CAN_LAND[color]
    ep = pos.ep_square
    forward = 16 - 32 * color
    start_rank = 1 + 5 * color
    last_rank = 7 - 7 * color
    capture_targets = PAWN_CAPTURE_TARGETS[color]
    knight_targets = KNIGHT_TARGETS
    piece_rays = PIECE_RAYS
    append = moves.append  # bound once: called for every generated move
    for origin in origins:
        kind = board[origin] & 7
        base = origin << ORIGIN_SHIFT
        if kind == PAWN:
            target = origin + forward
            if not board[target]:
                if target >> 4 == last_rank:
                    moves += [base | target | promotion for promotion in _PROMOTIONS]
                else:
                    append(base | target)
                    if origin >> 4 == start_rank and not board[target + forward]:
                        append(base | (target + forward) | _DOUBLE_STEP)
            for target in capture_targets[origin]:
                if is_enemy[board[target]]:
                    if target >> 4 == last_rank:
                        moves += [base | target | promotion for promotion in _PROMOTIONS]
                    else:
                        append(base | target)
                elif target == ep and is_en_passant_safe(
                    board, origin, target, pos.kings[color], color, pos.piece_squares[color ^ 1]
                ):
                    append(base | target | _EN_PASSANT)
        elif kind == KNIGHT:
            for target in knight_targets[origin]:
                if can_land[board[target]]:
                    append(base | target)
        elif kind != KING:
            for ray in piece_rays[kind][origin]:
                for target in ray:
                    p = board[target]
                    if p:
                        if is_enemy[p]:
                            append(base | target)
                        break
                    append(base | target)


def _generate_king_moves(
    board: list[int],
    ksq: int,
    color: Color,
    behind: list[int],
    enemies: Iterable[int],
    moves: list[int],
) -> None:
    can_land = _CAN_LAND[color]
    base = ksq << ORIGIN_SHIFT
    for target in KING_TARGETS[ksq]:
        if (
            can_land[board[target]]
            and target not in behind
            and not is_attacked(board, target, enemies)
        ):
            moves.append(base | target)


def _generate_castling(
    board: list[int],
    color: Color,
    rights: int,
    enemies: Iterable[int],
    king_moves: list[int],
    moves: list[int],
) -> None:
    """Castling moves, for a side not in check (the caller knows). The king must be able to
    step to the square it passes, which `king_moves` already tells (one attack test saved)."""
    for right, origin, target, empty, safe, _, _ in CASTLING_SPECS[color]:
        if not rights & right or (origin << ORIGIN_SHIFT | safe[0]) not in king_moves:
            continue
        for sq in empty:
            if board[sq]:
                break
        else:
            if not is_attacked(board, safe[1], enemies):
                moves.append(origin << ORIGIN_SHIFT | target | _CASTLING)
