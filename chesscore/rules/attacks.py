"""The attack primitive: which pieces of a colour attack (or defend) which squares.

One relation, with one set of rules (a pawn attacks only diagonally forward, a knight or king
one step, a slider along its lines up to and including the first piece it meets, and what
stands on the attacked square itself does not matter), in two shapes built on the same
geometry of chesscore.rules.squares:

- per square, `attackers(board, sq, by)` and its early-exit twin `is_attacked`, the classic
  0x88 way: the difference of two squares tells, through `ATTACK_KINDS`, which kinds of piece
  could attack across it and (`ATTACK_STEPS`) in which steps; only then are the squares in
  between looked at. Check detection, castling and king moves ask this (chesscore.rules.movegen).
- for the whole board, `attack_map(board, by)`: every piece walks its own attack rays once,
  over the per-square ray tables the move generator walks (`PIECE_RAYS`,
  `PAWN_CAPTURE_TARGETS`), and is entered in the list of every square it reaches. That is the
  same relation turned inside out, for the threat map: 64 calls of `attackers` cost about 17
  times as much. A test (tests/test_attacks.py) proves the two shapes agree on every square of
  many positions.

`board` is the flat 0x88 list of piece codes (chesscore.rules.board), `by` the squares of one
colour's pieces. The tables also serve the walks that are not this relation but share its
geometry: pins and checks (`movegen.scan_king`), uncovered checks, and x-rays
(chesscore.analysis.xray).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from chesscore.rules.squares import (
    BISHOP,
    KING,
    KING_TARGETS,
    KNIGHT,
    KNIGHT_OFFSETS,
    KNIGHT_TARGETS,
    PAWN,
    PAWN_CAPTURE_TARGETS,
    PIECE_RAYS,
    QUEEN,
    ROOK,
    ROOK_DIRECTIONS,
    SQUARES,
    E,
    N,
    S,
    W,
    direction_between,
)

# Per colour, by 0x88 index, the squares of that colour's pieces attacking the square: the
# whole-board attack map's shape (the threat map's `attackers`).
AttackLists = tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]]

Label = TypeVar("Label")

# One bit per piece code: the two pawn codes differ because pawns attack in one direction.
_KIND = {PAWN: 1, PAWN | 8: 2, KNIGHT: 4, BISHOP: 8, ROOK: 16, QUEEN: 32, KING: 64}
KIND_BITS: tuple[int, ...] = tuple(
    _KIND.get(code, _KIND.get(code & 7, 0)) if code & 7 else 0 for code in range(16)
)
SLIDER_KINDS = _KIND[BISHOP] | _KIND[ROOK]
# The identity labels: with them `attack_map` lists the attackers' squares.
SQUARE_LABELS: tuple[int, ...] = tuple(range(128))


def _attack_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per square difference `target - origin + 119`: the kinds that attack across it, and the
    step from origin towards target (the whole difference for knights, kings and pawns).

    In 0x88 a difference between two squares names the line joining them uniquely, which is
    what makes these tables possible (no two directions produce the same difference)."""
    kinds = [0] * 239
    steps = [0] * 239
    for origin in SQUARES:
        for target in SQUARES:
            d = target - origin
            if d in KNIGHT_OFFSETS:
                kinds[d + 119] |= _KIND[KNIGHT]
                steps[d + 119] = d
            direction = direction_between(origin, target)
            if not direction:
                continue
            steps[d + 119] = direction
            kind = _KIND[ROOK] if direction in ROOK_DIRECTIONS else _KIND[BISHOP]
            kinds[d + 119] |= kind | _KIND[QUEEN]
            if d == direction:
                kinds[d + 119] |= _KIND[KING]
                if d in (N + E, N + W):
                    kinds[d + 119] |= _KIND[PAWN]
                if d in (S + E, S + W):
                    kinds[d + 119] |= _KIND[PAWN | 8]
    return tuple(kinds), tuple(steps)


ATTACK_KINDS, ATTACK_STEPS = _attack_tables()
# The same tables by target square, then origin square: KINDS_TO[sq][origin].
KINDS_TO: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if (sq | origin) & 0x88 else ATTACK_KINDS[sq - origin + 119] for origin in range(128))
    for sq in range(128)
)
STEPS_TO: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if (sq | origin) & 0x88 else ATTACK_STEPS[sq - origin + 119] for origin in range(128))
    for sq in range(128)
)

# By piece code, then square: the squares a pawn, knight or king attacks from there (None for
# the others), and the rays a slider walks (`PIECE_RAYS`). One index per piece in
# `fill_attack_map`, whose loop is the threat map's and every position's labels' hot spot.
_STEP_TARGETS: tuple[tuple[tuple[int, ...], ...] | None, ...] = tuple(
    PAWN_CAPTURE_TARGETS[code >> 3]
    if code & 7 == PAWN
    else KNIGHT_TARGETS
    if code & 7 == KNIGHT
    else KING_TARGETS
    if code & 7 == KING
    else None
    for code in range(16)
)
_SLIDER_RAYS = tuple(PIECE_RAYS[code & 7] if code & 7 <= KING else () for code in range(16))


def is_attacked(board: list[int], sq: int, by: Iterable[int]) -> bool:
    """Whether any piece on the squares `by` (one colour's) attacks `sq`: `attackers` with an
    early exit."""
    # The rows of the difference tables that end on `sq`, indexed by origin: no arithmetic
    # per piece in this hot loop.
    kinds, steps, kind_bits = KINDS_TO[sq], STEPS_TO[sq], KIND_BITS
    for origin in by:
        if kinds[origin] & kind_bits[board[origin]]:
            step = steps[origin]
            x = origin + step
            while x != sq:
                if board[x]:
                    break
                x += step
            else:
                return True
    return False


def attackers(board: list[int], sq: int, by: Iterable[int]) -> list[int]:
    """Squares, in ascending order, of the pieces on the squares `by` (one colour's) that
    attack or defend `sq`."""
    # The same table rows as `is_attacked`: this runs at every step of every exchange
    # (chesscore.analysis.see).
    kinds, steps, kind_bits = KINDS_TO[sq], STEPS_TO[sq], KIND_BITS
    found = []
    for origin in by:
        if kinds[origin] & kind_bits[board[origin]]:
            step = steps[origin]
            x = origin + step
            while x != sq:
                if board[x]:
                    break
                x += step
            else:
                found.append(origin)
    return sorted(found)


def attack_map(board: list[int], by: Iterable[int], labels: Sequence[Label]) -> list[list[Label]]:
    """For each 0x88 index, the pieces on the squares `by` that attack that square, each
    entered as `labels[its square]` (`SQUARE_LABELS`: the square itself; the threat map
    passes square names), in the order of `by`: the whole-board shape of `attackers` (see
    the module docstring).

    >>> from chesscore import Board
    >>> board = Board()
    >>> attack_map(board.board, sorted(board.piece_squares[0]), SQUARE_LABELS)[0x25]  # f3
    [6, 20, 22]
    """
    found: list[list[Label]] = [[] for _ in range(128)]
    fill_attack_map(board, by, labels, found)
    return found


def fill_attack_map(
    board: list[int], by: Iterable[int], labels: Sequence[Label], found: list[list[Label]]
) -> None:
    """`attack_map` appending to lists the caller made: the threat map makes only the 64 it
    returns, straight into its output, because making 128 lists per colour added a fifth to
    its time."""
    step_targets, slider_rays = _STEP_TARGETS, _SLIDER_RAYS
    for origin in by:
        label = labels[origin]
        code = board[origin]
        # Pawns, knights and kings attack a fixed set of squares: one loop, no rays.
        targets = step_targets[code]
        if targets is None:
            for ray in slider_rays[code][origin]:
                for target in ray:
                    found[target].append(label)
                    if board[target]:
                        break
        else:
            for target in targets[origin]:
                found[target].append(label)
