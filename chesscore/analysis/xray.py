"""X-rays, batteries and pin lines: what stands behind the direct attackers of the threat map.

The threat map counts direct attackers only (a slider stops at the first piece). Here, kept
apart from it, are the pieces that attack a square *through* a friendly piece on the same line:
a rook behind a rook or a queen on a file, a queen behind a bishop or behind a pawn on a
diagonal. A piece counts as an x-ray attacker of a square when every piece between it and the
square is a direct attacker of the square along that line, and of its own colour: the front
piece attacks (a slider moving that way, a pawn one step diagonally in its capturing
direction, a king one step away) and each piece behind it is a rook or queen on a rank or file,
a bishop or queen on a diagonal. So these are the pieces that join an exchange on the square as
the ones in front leave; an enemy piece in between ends the line (that is a pin or skewer, not
a battery). Pin lines run pinner -> pinned -> target, for both colours: *absolute* when the
target is the king (the pinned piece may not leave the line; these are exactly `board.pins`),
*relative* when the target is a piece worth more than the pinned one (pawn 1, knight 3, bishop
3, rook 5, queen 9) that the pinner would win by taking it: worth more than the pinner, or
undefended. These walks let friendly pieces stand in the way, which the attack primitive
(chesscore.rules.attacks) never does, so they live here; but they walk the same per-square ray
tables, and "would this piece attack that square, were the pieces in front of it gone" is
the primitive's own difference table (`ATTACK_KINDS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.attacks import ATTACK_KINDS, ATTACK_STEPS, KIND_BITS, is_attacked
from chesscore.rules.squares import (
    BISHOP,
    KING,
    NAME_ORDER,
    PAWN,
    PIECE_RAYS,
    QUEEN,
    QUEEN_RAYS,
    ROOK,
    Color,
)

if TYPE_CHECKING:
    from chesscore.rules.board import Board

# The rays of the sliders by piece type; other pieces have none to look along.
SLIDER_RAYS = {kind: PIECE_RAYS[kind] for kind in (BISHOP, ROOK, QUEEN)}
# The same by piece code (None: not a slider), a tuple index in the walks' outer loop.
_RAYS_OF_CODE = tuple(SLIDER_RAYS.get(code & 7) for code in range(16))


@dataclass(frozen=True, slots=True)
class PinLine:
    """A pin: pinner -> pinned -> target (squares); `absolute` when the target is the king."""

    pinner: int
    pinned: int
    target: int
    absolute: bool


@dataclass(frozen=True, slots=True)
class XrayMap:
    """The x-ray attackers of the squares that have any, and every pin line.

    `attackers[color]` maps a square to the squares (in name order) of the pieces of `color`
    attacking it through friendly attackers in front; a square no piece of `color` x-rays is
    not in it (`of` answers for any square). Pin lines are sorted by the pinned piece's square,
    then the pinner's, in name order.
    """

    attackers: tuple[Mapping[int, Sequence[int]], Mapping[int, Sequence[int]]]
    pins: tuple[PinLine, ...]

    def of(self, color: Color, sq: int) -> Sequence[int]:
        """The x-ray attackers of `sq` of `color` (empty if none)."""
        return self.attackers[color].get(sq, ())


def make_xray_map(board: Board, pins: tuple[PinLine, ...] | None = None) -> XrayMap:
    """The x-rays of every square and the pin lines of both colours (see the module docstring);
    `pins` is the pin lines if the caller has them (`find_pins_among`'s, the same), which
    spares walking past the enemy pieces the sliders reach.

    >>> from chesscore import Board
    >>> from chesscore.rules.squares import A1, B1, D1, WHITE
    >>> board = Board.from_fen("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1")  # doubled rooks, a1 and b1
    >>> xrays = make_xray_map(board)
    >>> xrays.of(WHITE, D1) == [A1], xrays.of(WHITE, A1)  # a1 attacks d1 through b1
    (True, ())
    """
    found: list[tuple[Color, int, int]] = []
    if pins is None:
        lines: list[PinLine] = []
        _scan_lines(board, found, lines)  # one walk of the sliders' lines finds both
        pins = _sorted_pins(lines)
    else:
        _scan_lines(board, found, None)
    attackers: tuple[dict[int, list[int]], dict[int, list[int]]] = ({}, {})
    for color, sq, origin in found:
        attackers[color].setdefault(sq, []).append(origin)
    for by_square in attackers:  # x-rays are few: sorting their lists costs next to nothing
        for origins in by_square.values():
            origins.sort(key=NAME_ORDER.__getitem__)
    return XrayMap(attackers, pins)


def find_xrays(board: Board) -> list[tuple[Color, int, int]]:
    """(colour, square, attacker's square) of every x-ray on the board, in the order of the
    piece sets: `xrays_of_square` for all squares at once, turned inside out for speed.
    Rather than walking eight lines out of each of 64 squares, every slider walks its own
    lines: past the first piece, if that is a friendly slider of the line's kind, on to the
    next piece (which it x-rays, and may look through in turn); if that is a friendly pawn or
    king attacking along the line, one square on. A test checks it against `xrays_of_square`
    on every square of many positions."""
    found: list[tuple[Color, int, int]] = []
    _scan_lines(board, found, None)
    return found


def _scan_lines(
    board: Board, xrays: list[tuple[Color, int, int]] | None, pins: list[PinLine] | None
) -> None:
    """Walk every slider's lines to the first piece, then past it: past a friendly piece that
    attacks on along the line, for the x-rays (`find_xrays`, entered in `xrays`); past an
    enemy piece, for a pin (`find_pins`, entered in `pins`). Either list may be None: not
    looked for."""
    cells = board.board
    rays_of_code = _RAYS_OF_CODE
    for color in (0, 1):
        for origin in board.piece_squares[color]:
            rays = rays_of_code[cells[origin]]
            if rays is None:
                continue
            for ray in rays[origin]:
                # Most lines end at their first piece: find it with the tightest loop there is.
                for t in ray:
                    if cells[t]:
                        break
                else:
                    continue
                p = cells[t]
                step = ray[0] - origin
                if p >> 3 == color:
                    # ATTACK_KINDS of one step: the kinds that attack on along this line.
                    if (
                        xrays is not None
                        and ATTACK_KINDS[step + 119] & KIND_BITS[p]
                        and not (t + step) & 0x88
                    ):
                        _walk_battery(cells, origin, t, step, xrays)
                elif pins is not None and p & 7 != KING:  # a king is never pinned
                    _walk_pin(board, origin, t, step, pins)


def _walk_battery(
    cells: list[int], origin: int, front: int, step: int, found: list[tuple[Color, int, int]]
) -> None:
    """Enter the squares the slider on `origin` x-rays along the line of `step` past the
    friendly piece on `front`, which attacks the next square of the line (see `find_xrays`)."""
    color = cells[origin] >> 3
    kinds = ATTACK_KINDS[step + 119]
    while True:
        t = front + step
        if cells[front] & 7 in (PAWN, KING):  # it attacks one step on, no further
            found.append((color, t, origin))
            return
        while not t & 0x88:  # every square reached behind a friendly slider is x-rayed
            found.append((color, t, origin))
            if cells[t]:
                break
            t += step
        else:
            return
        # Looked past only when it is a friendly piece attacking the next square of the line.
        p = cells[t]
        if p >> 3 != color or not kinds & KIND_BITS[p] or (t + step) & 0x88:
            return
        front = t


def xray_attackers(board: Board, color: Color, sq: int) -> list[int]:
    """Squares of the pieces of `color` attacking `sq` through friendly attackers in front."""
    return sorted(xrays_of_square(board.board, sq)[color])


def xrays_of_square(cells: list[int], sq: int) -> tuple[list[int], list[int]]:
    """(white, black) x-ray attackers of `sq` on the 0x88 list `cells`: one walk per line."""
    found: tuple[list[int], list[int]] = ([], [])
    for ray in QUEEN_RAYS[sq]:
        front = -1  # colour of the direct attacker heading the line, once found
        for t in ray:
            p = cells[t]
            if not p:
                continue
            # Every piece of a battery would attack `sq` were the pieces in front gone.
            if not ATTACK_KINDS[sq - t + 119] & KIND_BITS[p]:
                break
            if front < 0:
                front = p >> 3
            elif p >> 3 == front:
                found[front].append(t)
            else:
                break
    return found


def find_pins(board: Board) -> tuple[PinLine, ...]:
    """Every absolute and relative pin of both colours, sorted by the pinned piece's square
    (then the pinner's) in name order."""
    pins: list[PinLine] = []
    _scan_lines(board, None, pins)
    return _sorted_pins(pins)


def find_pins_among(board: Board, attacks: Iterable[tuple[int, int]]) -> tuple[PinLine, ...]:
    """`find_pins` for a caller that knows every attack on a piece of the other colour, as
    (attacker's square, attacked square) pairs: a pinner attacks the piece it pins (the first
    piece on its line), so only the attacks by sliders are followed past their target, and
    no line is walked up to its first piece. The same pins, in the same order."""
    cells = board.board
    pins: list[PinLine] = []
    for pinner, pinned in attacks:
        code = cells[pinner]
        if (
            BISHOP <= code & 7 <= QUEEN
            and cells[pinned] & 7 != KING
            and cells[pinned] >> 3 != code >> 3
        ):
            _walk_pin(board, pinner, pinned, ATTACK_STEPS[pinned - pinner + 119], pins)
    return _sorted_pins(pins)


def _sorted_pins(pins: list[PinLine]) -> tuple[PinLine, ...]:
    return tuple(sorted(pins, key=lambda pin: (NAME_ORDER[pin.pinned], NAME_ORDER[pin.pinner])))


def _walk_pin(board: Board, pinner: int, pinned: int, step: int, pins: list[PinLine]) -> None:
    """Enter the pin of the enemy piece on `pinned` (not a king), first on the line of `step`
    from the slider on `pinner`, if the next piece on the line makes it one."""
    cells = board.board
    target = pinned + step
    while not target & 0x88:
        if cells[target]:
            if cells[target] >> 3 == cells[pinned] >> 3 and _is_pin(board, pinner, pinned, target):
                pins.append(PinLine(pinner, pinned, target, cells[target] & 7 == KING))
            return
        target += step


def _is_pin(board: Board, pinner: int, pinned: int, target: int) -> bool:
    """Whether the slider on `pinner` pins the enemy piece on `pinned` (not a king) to the
    enemy piece on `target`, the next one on the line (`find_pins` has checked all that)."""
    cells = board.board
    if cells[target] & 7 == KING:
        return True
    target_value = PIECE_VALUES[cells[target] & 7]
    if target_value <= PIECE_VALUES[cells[pinned] & 7]:
        return False
    if target_value > PIECE_VALUES[cells[pinner] & 7]:
        return True
    return not is_attacked(cells, target, board.piece_squares[cells[target] >> 3])
