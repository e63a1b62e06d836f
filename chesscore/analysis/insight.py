"""What a move changed, and what a move would change: the difference of two threat maps.

`describe_change(board, move)` compares the position before a legal move with the position
after it and keeps only the difference, as frozen values of 0x88 squares (the server names them
on the wire). Pieces are
followed across the move (the moved piece from its origin to its target, the castling rook
likewise, the captured piece gone), so a knight that keeps attacking the same rook after moving
is not a "new" attack, and a pin that holds while the pinned piece slides along it is neither
created nor released. Its facts:

- `new_attacks`: attacks on pieces of the other colour that did not exist before, by either
  colour (the mover's new threats, and the attacks the move exposed its own pieces to);
- `discovered`: the new attacks of the mover made by a piece other than the moved one (and
  other than the castling rook): lines the move opened, discovered checks included;
- `became_hanging` / `no_longer_hanging`: pieces of either colour that turned hanging or
  stopped being hanging (hanging as in the threat map: its capture wins material by the
  exchange, chesscore.analysis.exchange); a captured piece is in neither;
- `forks`: a piece attacking two or more enemy pieces that it wins by the exchange, or the
  king, where it did not fork exactly those pieces before: had its side to move, it would take
  each winning material (`chesscore.analysis.exchange.won_by`); when the other side is to
  move, the piece does not hang and the targets fall had that side passed, or after every
  answer to the check (`falling`), as the trainer's forks do;
- `pins_created` / `pins_released`: absolute and relative pin lines (chesscore.analysis.xray);
  released pins are named by their squares before the move, all else by the squares after;
- `checkers`: the pieces giving check after the move.

`preview(board, move)` is what the drag overlay shows while a piece is held over a target:
the threat map after the move, the move's static exchange value and safety label
(chesscore.analysis.see), the x-ray pin lines after it, and the change above. `make_insight(board)`
gathers what the overlays show beside the threat map after every move: x-rays and pin lines,
the last move's change and its words, and every square in words. All three take an optional
threat map of the current position, which the server already holds, to save building it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chesscore.analysis.describe import describe_played_move, describe_squares
from chesscore.analysis.exchange import falling, won_by
from chesscore.analysis.see import exchange_on_target, label_exchange
from chesscore.analysis.threats import (
    ThreatMap,
    find_hanging,
    make_threat_map,
    piece_attack_lists,
)
from chesscore.analysis.values import PIECE_VALUES
from chesscore.analysis.xray import PinLine, XrayMap, find_pins, find_pins_among, make_xray_map
from chesscore.errors import IllegalMoveError
from chesscore.rules.attacks import AttackLists
from chesscore.rules.move import Move
from chesscore.rules.squares import BLACK, KING, NAME_ORDER, WHITE, Color, in_name_order

if TYPE_CHECKING:
    from chesscore.rules.board import Board

# Where the pieces a move touches went: square before -> square after, None for a captured one.
Relocation = dict[int, int | None]


@dataclass(frozen=True, slots=True)
class Attack:
    """The piece on `origin`, of `color`, attacks the enemy piece on `target`."""

    origin: int
    target: int
    color: Color


@dataclass(frozen=True, slots=True)
class Fork:
    """The piece on `origin`, of `color`, forks the pieces on `targets` (name order)."""

    origin: int
    targets: tuple[int, ...]
    color: Color


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """The move a change is about: who moved what (piece types), from where to where."""

    move: Move
    color: Color
    piece: int
    origin: int
    target: int
    captured: int | None


@dataclass(frozen=True, slots=True)
class Change:
    """What one move changed (see the module docstring); squares are those after the move,
    but for `pins_released` and `no_longer_hanging`, named by their squares before it."""

    move: MoveFacts
    checkers: tuple[int, ...]
    new_attacks: tuple[Attack, ...]
    discovered: tuple[Attack, ...]
    became_hanging: tuple[int, ...]
    no_longer_hanging: tuple[int, ...]
    forks: tuple[Fork, ...]
    pins_created: tuple[PinLine, ...]
    pins_released: tuple[PinLine, ...]


@dataclass(frozen=True, slots=True)
class PieceRelations:
    """What a move's change compares of one position: every attack on a piece of the other
    colour (attacker, target), the pins among them, the forks and the hanging pieces. Made
    once per position (`relations_of`), they serve as the "after" of the move that reached it
    and, kept by the caller, as the "before" of the next move's change."""

    attacks: frozenset[tuple[int, int]]
    pins: tuple[PinLine, ...]
    forks: dict[int, tuple[int, ...]]
    hanging: tuple[int, ...]


def relations_of(board: Board, lists: AttackLists, hanging: Sequence[int]) -> PieceRelations:
    """The relations of `board`'s pieces from its attack lists (a threat map's, or
    `threats.piece_attack_lists`) and its hanging pieces."""
    attacks = _attacks_on_pieces(board, lists)
    return PieceRelations(
        frozenset(attacks),
        find_pins_among(board, attacks),
        _forks_of(board, lists, attacks, hanging),
        tuple(hanging),
    )


@dataclass(frozen=True, slots=True)
class Insight:
    """Everything the overlays show beside the threat map, for one position."""

    xrays: XrayMap
    change: Change | None
    announcement: str | None
    descriptions: dict[int, str]


@dataclass(frozen=True, slots=True)
class Preview:
    """The position after a candidate move, for the drag preview."""

    move: Move
    fen: str
    see: int
    safety: str
    threats: ThreatMap
    pins: tuple[PinLine, ...]
    change: Change


def make_insight(board: Board, threats: ThreatMap | None = None) -> Insight:
    """The overlays' facts for `board` beside its threat map (`threats`, if the caller has
    it): the x-ray attackers of every square and every pin line (chesscore.analysis.xray), what
    the last move changed and that move in words (None before the first move), and every
    square in words for screen readers (chesscore.analysis.describe).

    >>> from chesscore import Board
    >>> from chesscore.rules.squares import BLACK, parse_square
    >>> board = Board()
    >>> _ = board.push_san("e4")
    >>> insight = make_insight(board)
    >>> insight.announcement, insight.change.new_attacks, insight.xrays.pins
    ('White pawn from e2 to e4', (), ())
    >>> insight.xrays.of(BLACK, parse_square("e6")) == [parse_square("c8")]  # behind d7
    True
    >>> insight.descriptions[parse_square("e4")]
    'e4, white pawn: not attacked; not defended'
    """
    threats = threats or make_threat_map(board)
    change, announcement = describe_last_move(board, threats)
    return Insight(make_xray_map(board), change, announcement, describe_squares(board, threats))


def describe_last_move(
    board: Board,
    threats: ThreatMap,
    relations: PieceRelations | None = None,
    relations_before: PieceRelations | None = None,
) -> tuple[Change | None, str | None]:
    """What the last move changed and that move in words, (None, None) before the first move;
    `threats` is `board`'s threat map, `relations` its pieces' relations and
    `relations_before` those of the position before the last move, if the caller has them (a
    server makes them once per position and keeps them for the next move)."""
    if not board.ply:
        return None, None
    before = board.copy()
    move = before.pop()
    change = last_move_change(before, move, board, threats, relations, relations_before)
    return change, describe_played_move(before, move, board)


def last_move_change(
    before: Board,
    move: Move,
    board: Board,
    threats: ThreatMap,
    relations: PieceRelations | None = None,
    relations_before: PieceRelations | None = None,
) -> Change:
    """`describe_last_move`'s change for a caller that has the position before the last move
    already: `before` is `board` before the legal `move` that reached it, the rest as there."""
    if relations is None:
        relations = relations_of(board, threats.attackers, threats.hanging)
    if relations_before is None:
        # Of the position before, only its pieces' attackers are compared: no map is made.
        lists = piece_attack_lists(before)
        relations_before = relations_of(before, lists, find_hanging(before, lists))
    return _compare(before, move, board, relations_before, relations, threats.checkers)


def describe_change(board: Board, move: Move, threats: ThreatMap | None = None) -> Change:
    """What the legal `move` changes in `board` (IllegalMoveError otherwise); `threats` is
    `make_threat_map(board)` if the caller has it.

    >>> from chesscore import Board
    >>> from chesscore.rules.squares import square_name
    >>> board = Board.from_fen("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    >>> change = describe_change(board, board.parse_uci("b5c7"))  # the knight forks
    >>> [(square_name(f.origin), [square_name(t) for t in f.targets]) for f in change.forks]
    [('c7', ['a8', 'e8'])]
    >>> [(square_name(a.origin), square_name(a.target)) for a in change.new_attacks]
    [('c7', 'a8'), ('c7', 'e8')]
    """
    after = _play(board, move)
    return compare_positions(
        board, move, after, threats or make_threat_map(board), make_threat_map(after)
    )


def preview(board: Board, move: Move, threats: ThreatMap | None = None) -> Preview:
    """The threat map after the legal `move` and its derived facts (IllegalMoveError
    otherwise); `threats` is `make_threat_map(board)` if the caller has it."""
    after = _play(board, move)
    after_threats = make_threat_map(after)
    packed = board.find_packed(move)
    assert packed is not None  # `_play` has checked that the move is legal
    value, attacked = exchange_on_target(board, packed)
    change = compare_positions(board, move, after, threats or make_threat_map(board), after_threats)
    return Preview(
        move,
        after.fen(),
        value,
        label_exchange(value, attacked),
        after_threats,
        find_pins(after),
        change,
    )


def _play(board: Board, move: Move) -> Board:
    if not board.is_legal(move):
        text = move.uci() if isinstance(move, Move) else repr(move)
        raise IllegalMoveError(f"illegal move {text} in position {board.fen()!r}")
    after = board.copy()
    after.push(move)
    return after


def compare_positions(
    board: Board, move: Move, after: Board, before_map: ThreatMap, after_map: ThreatMap
) -> Change:
    """`describe_change` for a caller that has played the move already: `after` is `board`
    after the legal `move`, the maps are their threat maps."""
    return _compare(
        board,
        move,
        after,
        relations_of(board, before_map.attackers, before_map.hanging),
        relations_of(after, after_map.attackers, after_map.hanging),
        after_map.checkers,
    )


def _compare(
    board: Board,
    move: Move,
    after: Board,
    before: PieceRelations,
    now: PieceRelations,
    checkers: tuple[int, ...],
) -> Change:
    """`compare_positions` given the relations of the pieces before and after the move, and
    the pieces giving check after it."""
    moved = _relocation(board, move)
    facts = _move_facts(board, move)
    before_attacks = {
        (a2, t2)
        for a, t in before.attacks
        if (a2 := moved.get(a, a)) is not None and (t2 := moved.get(t, t)) is not None
    }
    cells = after.board
    new_attacks = tuple(
        Attack(a, t, cells[a] >> 3)
        for a, t in sorted(now.attacks - before_attacks, key=_pair_order)
    )
    # The moved piece and a castling rook: their new attacks are theirs, not discovered ones.
    movers = {square for square in moved.values() if square is not None}
    created, released = _pin_changes(before.pins, now.pins, moved)
    became, stopped = _hanging_changes(before.hanging, now.hanging, moved)
    return Change(
        facts,
        checkers,
        new_attacks,
        tuple(x for x in new_attacks if x.color == facts.color and x.origin not in movers),
        became,
        stopped,
        _new_forks(before.forks, now.forks, after, moved),
        created,
        released,
    )


def _pair_order(pair: tuple[int, int]) -> tuple[int, int]:
    return NAME_ORDER[pair[0]], NAME_ORDER[pair[1]]


def _hanging_changes(
    before: Sequence[int], after: Sequence[int], moved: Relocation
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(pieces that became hanging, by their new squares; pieces that stopped, by their old
    squares), following the moved pieces; a captured piece is in neither."""
    followed = {old: moved.get(old, old) for old in before}
    became = tuple(in_name_order(set(after) - set(followed.values())))
    stopped = tuple(
        in_name_order(old for old, new in followed.items() if new is not None and new not in after)
    )
    return became, stopped


def _relocation(board: Board, move: Move) -> Relocation:
    """Where the pieces the move touches went, None for the captured one."""
    moved: Relocation = {}
    if board.is_en_passant(move):
        moved[move.to_square + (-16 if board.turn == WHITE else 16)] = None
    elif board.board[move.to_square]:
        moved[move.to_square] = None
    if board.is_castling(move):
        kingside = move.to_square > move.from_square
        rook = move.to_square + 1 if kingside else move.to_square - 2
        moved[rook] = (move.from_square + move.to_square) // 2
    moved[move.from_square] = move.to_square
    return moved


def _move_facts(board: Board, move: Move) -> MoveFacts:
    cells = board.board
    piece = cells[move.from_square]
    assert piece  # a legal move starts on a piece
    if board.is_en_passant(move):
        captured: int | None = cells[move.to_square + (-16 if board.turn == WHITE else 16)] & 7
    else:
        captured = cells[move.to_square] & 7 or None
    return MoveFacts(move, piece >> 3, piece & 7, move.from_square, move.to_square, captured)


def _attacks_on_pieces(board: Board, lists: AttackLists) -> set[tuple[int, int]]:
    """(attacker, target) square pairs: every attack on a piece of the other colour."""
    white, black = lists
    pairs = {(a, sq) for sq in board.piece_squares[WHITE] for a in black[sq]}
    pairs |= {(a, sq) for sq in board.piece_squares[BLACK] for a in white[sq]}
    return pairs


def find_forks(board: Board, threats: ThreatMap) -> dict[int, tuple[int, ...]]:
    """Forking piece -> the two or more enemy pieces it forks (the module docstring)."""
    lists = threats.attackers
    return _forks_of(board, lists, _attacks_on_pieces(board, lists), threats.hanging)


def _forks_of(
    board: Board, lists: AttackLists, pairs: set[tuple[int, int]], hanging: Sequence[int]
) -> dict[int, tuple[int, ...]]:
    """`find_forks` from the position's attack lists, `_attacks_on_pieces` and its hanging
    pieces: the forking pieces and their targets in name order."""
    attacked: dict[int, list[int]] = {}
    for attacker, target in pairs:
        if attacker in attacked:
            attacked[attacker].append(target)
        else:
            attacked[attacker] = [target]
    cells = board.board
    forks: dict[int, tuple[int, ...]] = {}
    # Only a piece attacking two pieces or more can fork: most attack one at most. Each target
    # must be the king, undefended or worth more than the piece before the exchange is asked.
    several = [a for a, targets in attacked.items() if len(targets) > 1]
    for attacker in in_name_order(several):
        value = PIECE_VALUES[cells[attacker] & 7]
        found = []
        for sq in in_name_order(attacked[attacker]):
            victim = cells[sq]
            if victim & 7 == KING or not lists[victim >> 3][sq] or PIECE_VALUES[victim & 7] > value:
                found.append(sq)
        if len(found) >= 2:
            won = _won_targets(board, attacker, found, hanging)
            if len(won) >= 2:
                forks[attacker] = won
    return forks


def _won_targets(
    board: Board, origin: int, targets: list[int], hanging: Sequence[int]
) -> tuple[int, ...]:
    """Of `targets` (name order), the king and those the piece on `origin` wins by the
    exchange (the module docstring's `forks`)."""
    cells = board.board
    kings = [sq for sq in targets if cells[sq] & 7 == KING]
    others = [sq for sq in targets if cells[sq] & 7 != KING]
    if cells[origin] >> 3 == board.turn:
        won = won_by(board, origin, others)
    elif origin in hanging:
        return ()
    else:
        won = falling(board, origin, others)
    return tuple(in_name_order([*kings, *won]))


def _new_forks(
    before_forks: dict[int, tuple[int, ...]],
    after_forks: dict[int, tuple[int, ...]],
    after: Board,
    moved: Relocation,
) -> tuple[Fork, ...]:
    before = {
        (moved.get(a, a), frozenset(moved.get(t, t) for t in found))
        for a, found in before_forks.items()
    }
    return tuple(
        Fork(a, found, after.board[a] >> 3)
        for a, found in after_forks.items()  # in name order already
        if (a, frozenset(found)) not in before
    )


def _pin_changes(
    before_pins: Sequence[PinLine], after_pins: Sequence[PinLine], moved: Relocation
) -> tuple[tuple[PinLine, ...], tuple[PinLine, ...]]:
    """(pins created, pins released), comparing pins across the move by where their pieces went."""
    before_keys = {_pin_key(pin, moved) for pin in before_pins}
    after_keys = {_pin_key(pin, {}) for pin in after_pins}
    return (
        tuple(pin for pin in after_pins if _pin_key(pin, {}) not in before_keys),
        tuple(pin for pin in before_pins if _pin_key(pin, moved) not in after_keys),
    )


def _pin_key(pin: PinLine, moved: Relocation) -> tuple[int | None, ...]:
    pinner, pinned, target = pin.pinner, pin.pinned, pin.target
    return moved.get(pinner, pinner), moved.get(pinned, pinned), moved.get(target, target)
