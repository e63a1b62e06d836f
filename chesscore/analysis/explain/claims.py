"""What an explanation claims about the engine's lines, as data, and the lines read for it.

An explanation says what a line shows (issue 31): the material that changes hands by its end,
a mate at its end, the tactic its first move makes when the line cashes it in. Each such
statement is a `Claim` carried beside the text: its kind, the side it is against (`color`: the
side that loses, is mated, is forked...), the line it rests on (UCI moves from `fen`), the ply
of that line after which a motif stands (`at`), the pieces and squares it names, the material
(`pieces` the side has fewer by the line's end, `gained` the other side has fewer, `points`
the fall of its balance in pawns), a mate's length, a count (king safety, activity). The tests
check every claim against its line with another chess library (tests/test_explain_claims.py,
the rules of each kind are in `ClaimKind`'s comments).

The readers here play a line on chesscore's board: `read_material` counts both ways where the
line ends, cut while it ends inside an exchange (the engine may stop there, the board does
not); `mated_in` finds a mate at a line's end; `is_cashed` follows a piece down a line to
see it taken. Squares are 0x88 ints, colours ints, piece types chesscore's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import color_at, kind_at
from chesscore.analysis.values import PIECE_VALUES

if TYPE_CHECKING:
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move
    from chesscore.rules.squares import Color


class ClaimKind(StrEnum):
    """What a claim states about its line (after `line[:at]` for a motif)."""

    # By the line's end `color` has exactly `pieces` fewer, the other side `gained` fewer, and
    # `color`'s material less the other side's fell by `points`.
    MATERIAL = "material"
    # The line ends in checkmate of `color`, the other side making `mate` moves in it.
    MATE = "mate"
    # The line (one move) leaves `color` stalemated.
    STALEMATE = "stalemate"
    # The piece of `color` on squares[0] is attacked, and the line takes it.
    CAPTURE = "capture"
    # The piece that moved to squares[0] attacks the pieces of `color` on squares[1:], and the
    # line takes one of them.
    FORK = "fork"
    # The piece on squares[0], which did not move, attacks the piece of `color` on squares[1]
    # it did not attack before the move; the line takes that piece.
    DISCOVERED = "discovered"
    # The piece on squares[0] pins the piece of `color` on squares[1] to the one on
    # squares[2]; the line takes one of the two.
    PIN = "pin"
    # The piece of `color` on squares[0] is attacked and every move of it lands it hanging;
    # the line takes it.
    TRAPPED = "trapped"
    # The piece on squares[0] is the only defender of the attacked piece of `color` on
    # squares[1] (or was, until the move took it); the line takes the defended piece.
    DEFENDER = "defender"
    # The other side's pawn promotes on squares[0] with the line's move `at`.
    PROMOTION = "promotion"
    # The other side's pawn on squares[0] is passed, and the line takes it to squares[1].
    PASSED_PAWN = "passed_pawn"
    # At the line's end, the squares next to `color`'s king the other side attacks are
    # exactly `squares` (`count` of them).
    KING_SAFETY = "king_safety"
    # At the line's end, `color` to move has `count` legal moves.
    ACTIVITY = "activity"


# What the line shows in material or the game's end: a claim of these kinds is concrete.
CONCRETE = frozenset({ClaimKind.MATERIAL, ClaimKind.MATE, ClaimKind.STALEMATE})


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement of an explanation about the line `line` (UCI) from `fen` (module
    docstring; what each kind states is in `ClaimKind`)."""

    kind: ClaimKind
    color: Color
    fen: str
    line: tuple[str, ...]
    at: int = 0
    pieces: tuple[int, ...] = ()
    gained: tuple[int, ...] = ()
    squares: tuple[int, ...] = ()
    points: int = 0
    mate: int | None = None
    count: int | None = None


def make_claim(
    kind: ClaimKind,
    color: Color,
    board: Board,
    line: Sequence[Move],
    *,
    at: int = 0,
    squares: tuple[int, ...] = (),
    mate: int | None = None,
    count: int | None = None,
) -> Claim:
    """A claim of `kind` against `color` on the legal `line` from `board` (for material,
    `material_claim`)."""
    ucis = tuple(move.uci() for move in line)
    return Claim(kind, color, board.fen(), ucis, at, squares=squares, mate=mate, count=count)


def material_claim(board: Board, line: Sequence[Move], color: Color, material: Material) -> Claim:
    """The claim that `line` from `board`, read as `material` was (its first
    `material.length` moves), ends with `material` for `color`."""
    ucis = tuple(move.uci() for move in line[: material.length])
    return Claim(
        ClaimKind.MATERIAL, color, board.fen(), ucis,
        pieces=material.lost, gained=material.gained, points=material.points,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Material:
    """Where a line ends for `color`: how much of it to read (`length`), the position there,
    `color`'s piece types fewer there than at the start (`lost`), the other side's (`gained`),
    and the fall of `color`'s balance in pawns (`points`, negative for a gain)."""

    length: int
    end: Board
    lost: tuple[int, ...]
    gained: tuple[int, ...]
    points: int


def balance(board: Board, color: Color) -> int:
    """`color`'s material less the other side's, in pawns (kings left out)."""
    total = 0
    for side, sign in ((color, 1), (color ^ 1, -1)):
        total += sign * sum(PIECE_VALUES[kind_at(board, sq)] for sq in board.piece_squares[side])
    return total


def read_material(start: Board, line: Sequence[Move], color: Color) -> Material:
    """What the legal `line` from `start` (left unchanged) does to `color`'s material: read
    to its end, cut while it ends inside an exchange, then to the first position from which
    the balance no longer changes (the shortest line that shows the same count)."""
    boards = [start]
    for move in line:
        board = boards[-1].copy()
        board.push(move)
        boards.append(board)
    length = settled_length(line, boards)
    values = [balance(board, color) for board in boards[: length + 1]]
    while (
        length > 0
        and values[length - 1] == values[length]
        and not _inside(line, boards, length - 1)
    ):
        length -= 1
    end = boards[length]
    return Material(
        length,
        end,
        fewer(start, end, color),
        fewer(start, end, color ^ 1),
        balance(start, color) - balance(end, color),
    )


def settled_length(line: Sequence[Move], boards: Sequence[Board]) -> int:
    """How much of `line` to read (`boards[k]` the position after k of its moves): cut while
    it ends inside an exchange."""
    length = len(line)
    while length and _inside(line, boards, length):
        length -= 1
    return length


def _inside(line: Sequence[Move], boards: Sequence[Board], length: int) -> bool:
    """Whether the line cut after `length` moves stops inside an exchange: its last move a
    capture or a promotion that the side to move could answer taking something back."""
    if length == 0:
        return False
    move, before, after = line[length - 1], boards[length - 1], boards[length]
    if not (before.board[move.to_square] or move.promotion or before.is_en_passant(move)):
        return False
    return any(reply.to_square == move.to_square for reply in after.legal_moves())


def fewer(before: Board, after: Board, color: Color) -> tuple[int, ...]:
    """The piece types of `color` fewer in `after` than in `before` (a sorted multiset)."""
    counts: Counter[int] = Counter(kind_at(before, sq) for sq in before.piece_squares[color])
    counts.subtract(kind_at(after, sq) for sq in after.piece_squares[color])
    return tuple(sorted(kind for kind, n in counts.items() if n > 0 for _ in range(n)))


def mated_in(start: Board, line: Sequence[Move], mated: Color) -> int | None:
    """The moves the mating side makes when the legal `line` from `start` ends in
    checkmate of `mated`; None when it does not."""
    if not line:
        return None
    board = start.copy()
    for move in line:
        board.push(move)
    if not board.is_checkmate() or board.turn != mated:
        return None
    return (len(line) + 1) // 2


def is_cashed(start: Board, line: Sequence[Move], at: int, square: int) -> bool:
    """Whether the piece standing on `square` after `line[:at]` (from `start`) is taken
    later in the line: it is followed as it moves, until the other side captures it."""
    board = start.copy()
    for move in line[:at]:
        board.push(move)
    if not board.board[square]:
        return False
    owner = color_at(board, square)
    for move in line[at:]:
        if move.to_square == square and board.turn != owner:
            return True
        if move.from_square == square:
            square = move.to_square
        board.push(move)
    return False
