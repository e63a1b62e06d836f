"""What a move changed, and what a move would change: the difference of two threat maps.

`describe_change(board, move)` compares the position before a legal move with the position
after it and keeps only the difference, as plain JSON-ready data with square names. Pieces are
followed across the move (the moved piece from its origin to its target, the castling rook
likewise, the captured piece gone), so a knight that keeps attacking the same rook after moving
is not a "new" attack, and a pin that holds while the pinned piece slides along it is neither
created nor released. Its facts:

- ``new_attacks``: attacks on pieces of the other colour that did not exist before, by either
  colour (the mover's new threats, and the attacks the move exposed its own pieces to);
- ``discovered``: the new attacks of the mover made by a piece other than the moved one (and
  other than the castling rook): lines the move opened, discovered checks included;
- ``became_hanging`` / ``no_longer_hanging``: pieces of either colour that turned hanging or
  stopped being hanging (hanging as in the threat map: attacked and undefended, or attacked by
  a cheaper piece); a captured piece is in neither;
- ``forks``: a piece attacking two or more enemy pieces that are each undefended, worth more
  than it, or the king, where it did not fork exactly those pieces before;
- ``pins_created`` / ``pins_released``: absolute and relative pin lines (chesscore.analysis.xray);
  released pins are named by their squares before the move, all else by the squares after;
- ``checkers``: the pieces giving check after the move.

`preview(board, move)` is what the drag overlay shows while a piece is held over a target:
the threat map after the move, the move's static exchange value and safety label
(chesscore.analysis.see), the x-ray pin lines after it, and the change above. `make_insight(board)`
gathers what the overlays show beside the threat map after every move: x-rays and pin lines,
the last move's change and its words, and every square in words. All three take an optional
threat map of the current position, which the server already holds, to save building it again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from chesscore.analysis.describe import describe_played_move, describe_squares
from chesscore.analysis.see import exchange_on_target, label_exchange
from chesscore.analysis.threats import (
    NAMES,
    SQUARE_OF_NAME,
    AttackLists,
    find_hanging,
    make_threat_map,
    piece_attack_lists,
)
from chesscore.analysis.values import PIECE_VALUES
from chesscore.analysis.xray import (
    PinLine,
    SquareXrays,
    find_pins,
    find_pins_among,
    make_xray_map,
)
from chesscore.errors import IllegalMoveError
from chesscore.rules.move import Move
from chesscore.rules.squares import BLACK, COLOR_NAMES, KING, WHITE, square_name

if TYPE_CHECKING:
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board

PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")

# "from" is a Python keyword, hence the functional form.
Attack = TypedDict("Attack", {"from": str, "to": str, "by": str})
Fork = TypedDict("Fork", {"from": str, "targets": list[str], "by": str})
MoveFacts = TypedDict(
    "MoveFacts",
    {"uci": str, "color": str, "piece": str, "from": str, "to": str, "captured": str | None},
)


class Change(TypedDict):
    """What one move changed (see the module docstring)."""

    move: MoveFacts
    checkers: list[str]
    new_attacks: list[Attack]
    discovered: list[Attack]
    became_hanging: list[str]
    no_longer_hanging: list[str]
    forks: list[Fork]
    pins_created: list[PinLine]
    pins_released: list[PinLine]


class Insight(TypedDict):
    """Everything the overlays show beside the threat map, for one position."""

    xrays: dict[str, SquareXrays]
    pins: list[PinLine]
    change: Change | None
    announcement: str | None
    descriptions: dict[str, str]


class Preview(TypedDict):
    """The position after a candidate move, for the drag preview."""

    move: str
    fen: str
    see: int
    safety: str
    threats: ThreatMap
    pins: list[PinLine]
    change: Change


def make_insight(board: Board, threats: ThreatMap | None = None) -> Insight:
    """The overlays' facts for `board` beside its threat map (`threats`, if the caller has
    it): the x-ray attackers of every square and every pin line (chesscore.analysis.xray), what the
    last move changed and that move in words (None before the first move), and every square
    in words for screen readers (chesscore.analysis.describe).

    >>> from chesscore import Board
    >>> board = Board()
    >>> _ = board.push_san("e4")
    >>> insight = make_insight(board)
    >>> insight["announcement"], insight["change"]["new_attacks"], insight["pins"]
    ('White pawn from e2 to e4', [], [])
    >>> insight["xrays"]["e6"], insight["descriptions"]["e4"]  # the bishop c8 behind d7
    ({'white': [], 'black': ['c8']}, 'e4, white pawn: not attacked; not defended')
    """
    threats = threats or make_threat_map(board)
    xrays = make_xray_map(board)
    change, announcement = describe_last_move(board, threats)
    return {
        "xrays": xrays["squares"],
        "pins": xrays["pins"],
        "change": change,
        "announcement": announcement,
        "descriptions": describe_squares(board, threats),
    }


def describe_last_move(board: Board, threats: ThreatMap) -> tuple[Change | None, str | None]:
    """What the last move changed and that move in words, (None, None) before the first move;
    `threats` is `board`'s threat map."""
    if not board.ply:
        return None, None
    before = board.copy()
    move = before.pop()
    # Of the position before, only its pieces' attackers are compared: no map is made.
    lists = piece_attack_lists(before)
    change = _compare(before, move, board, lists, find_hanging(before, lists), threats)
    return change, describe_played_move(before, move, board)


def describe_change(board: Board, move: Move, threats: ThreatMap | None = None) -> Change:
    """What the legal `move` changes in `board` (IllegalMoveError otherwise); `threats` is
    `make_threat_map(board)` if the caller has it.

    >>> from chesscore import Board
    >>> board = Board.from_fen("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    >>> change = describe_change(board, board.parse_uci("b5c7"))  # the knight forks
    >>> change["forks"], change["checkers"]
    ([{'from': 'c7', 'targets': ['a8', 'e8'], 'by': 'white'}], ['c7'])
    >>> change["new_attacks"]
    [{'from': 'c7', 'to': 'a8', 'by': 'white'}, {'from': 'c7', 'to': 'e8', 'by': 'white'}]
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
    return {
        "move": move.uci(),
        "fen": after.fen(),
        "see": value,
        "safety": label_exchange(value, attacked),
        "threats": after_threats,
        "pins": find_pins(after),
        "change": change,
    }


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
    before_lists = _map_lists(board, before_map)
    return _compare(board, move, after, before_lists, before_map["hanging"], after_map)


def _compare(
    board: Board,
    move: Move,
    after: Board,
    before_lists: AttackLists,
    before_hanging: list[str],
    after_map: ThreatMap,
) -> Change:
    """`compare_positions` given, of the position before, only the attack lists of its pieces
    (`threats.piece_attack_lists`) and its hanging pieces."""
    moved = _relocation(board, move)
    facts = _move_facts(board, move)
    after_lists = _map_lists(after, after_map)
    before_pairs = _attacks_on_pieces(board, before_lists)
    after_pairs = _attacks_on_pieces(after, after_lists)
    before_attacks = {
        (a2, t2) for a, t in before_pairs if (a2 := moved.get(a, a)) and (t2 := moved.get(t, t))
    }
    new = sorted(after_pairs - before_attacks)
    new_attacks: list[Attack] = [{"from": a, "to": t, "by": _color_at(after, a)} for a, t in new]
    # The moved piece and a castling rook: their new attacks are theirs, not discovered ones.
    movers = {square for square in moved.values() if square is not None}
    # Every pinner attacks the piece it pins: the pins are looked for among the attacks.
    created, released = _pin_changes(
        find_pins_among(board, _squares_of(before_pairs)),
        find_pins_among(after, _squares_of(after_pairs)),
        moved,
    )
    became, stopped = _hanging_changes(before_hanging, after_map["hanging"], moved)
    return {
        "move": facts,
        "checkers": after_map["checkers"],
        "new_attacks": new_attacks,
        "discovered": [
            x for x in new_attacks if x["by"] == facts["color"] and x["from"] not in movers
        ],
        "became_hanging": became,
        "no_longer_hanging": stopped,
        "forks": _new_forks(
            _forks_of(board, before_lists, before_pairs),
            _forks_of(after, after_lists, after_pairs),
            after,
            moved,
        ),
        "pins_created": created,
        "pins_released": released,
    }


def _hanging_changes(
    before: list[str], after: list[str], moved: dict[str, str | None]
) -> tuple[list[str], list[str]]:
    """(pieces that became hanging, by their new squares; pieces that stopped, by their old
    squares), following the moved pieces; a captured piece is in neither."""
    followed = {old: moved.get(old, old) for old in before}
    became = sorted(set(after) - set(followed.values()))
    stopped = sorted(old for old, new in followed.items() if new is not None and new not in after)
    return became, stopped


def _relocation(board: Board, move: Move) -> dict[str, str | None]:
    """Where the pieces the move touches went (square names), None for the captured one."""
    origin, target = square_name(move.from_square), square_name(move.to_square)
    moved: dict[str, str | None] = {}
    if board.is_en_passant(move):
        moved[square_name(move.to_square + (-16 if board.turn == WHITE else 16))] = None
    elif board.piece_at(move.to_square) is not None:
        moved[target] = None
    if board.is_castling(move):
        kingside = move.to_square > move.from_square
        rook = move.to_square + 1 if kingside else move.to_square - 2
        moved[square_name(rook)] = square_name((move.from_square + move.to_square) // 2)
    moved[origin] = target
    return moved


def _move_facts(board: Board, move: Move) -> MoveFacts:
    piece = board.piece_at(move.from_square)
    assert piece is not None  # a legal move starts on a piece
    captured = board.piece_at(move.to_square)
    if board.is_en_passant(move):
        captured_name: str | None = "pawn"
    else:
        captured_name = PIECE_NAMES[captured.piece_type] if captured else None
    return {
        "uci": move.uci(),
        "color": COLOR_NAMES[piece.color],
        "piece": PIECE_NAMES[piece.piece_type],
        "from": square_name(move.from_square),
        "to": square_name(move.to_square),
        "captured": captured_name,
    }


def _color_at(board: Board, name: str) -> str:
    return COLOR_NAMES[board.board[SQUARE_OF_NAME[name]] >> 3]


def _map_lists(board: Board, threats: ThreatMap) -> AttackLists:
    """The threat map's lists at the squares of the pieces of `board`, by 0x88 index (the
    shape of `threats.piece_attack_lists`; the other indexes hold an empty list)."""
    squares = threats["squares"]
    empty: list[str] = []
    white = [empty] * 128
    black = [empty] * 128
    for sq in board.piece_squares[WHITE] | board.piece_squares[BLACK]:
        entry = squares[NAMES[sq]]
        white[sq] = entry["white"]
        black[sq] = entry["black"]
    return white, black


def _attacks_on_pieces(board: Board, lists: AttackLists) -> set[tuple[str, str]]:
    """(attacker, target) name pairs: every attack on a piece of the other colour."""
    white, black = lists
    pairs = {(a, NAMES[sq]) for sq in board.piece_squares[WHITE] for a in black[sq]}
    pairs |= {(a, NAMES[sq]) for sq in board.piece_squares[BLACK] for a in white[sq]}
    return pairs


def find_forks(board: Board, threats: ThreatMap) -> dict[str, list[str]]:
    """Forking piece -> the two or more enemy pieces it forks: each one the king, undefended,
    or worth more than the forking piece."""
    lists = _map_lists(board, threats)
    return _forks_of(board, lists, _attacks_on_pieces(board, lists))


def _forks_of(
    board: Board, lists: AttackLists, pairs: set[tuple[str, str]]
) -> dict[str, list[str]]:
    """`find_forks` from the position's attack lists and `_attacks_on_pieces`."""
    attacked: dict[str, list[str]] = {}
    for attacker, target in pairs:
        if attacker in attacked:
            attacked[attacker].append(target)
        else:
            attacked[attacker] = [target]
    cells = board.board
    forks: dict[str, list[str]] = {}
    # Only a piece attacking two pieces or more can fork: most attack one at most.
    for attacker in sorted([a for a, targets in attacked.items() if len(targets) > 1]):
        value = PIECE_VALUES[cells[SQUARE_OF_NAME[attacker]] & 7]
        found = []
        for target in sorted(attacked[attacker]):
            sq = SQUARE_OF_NAME[target]
            victim = cells[sq]
            if victim & 7 == KING or not lists[victim >> 3][sq] or PIECE_VALUES[victim & 7] > value:
                found.append(target)
        if len(found) >= 2:
            forks[attacker] = found
    return forks


def _new_forks(
    before_forks: dict[str, list[str]],
    after_forks: dict[str, list[str]],
    after: Board,
    moved: dict[str, str | None],
) -> list[Fork]:
    before = {
        (moved.get(a, a), frozenset(moved.get(t, t) for t in found))
        for a, found in before_forks.items()
    }
    return [
        {"from": a, "targets": found, "by": _color_at(after, a)}
        for a, found in sorted(after_forks.items())
        if (a, frozenset(found)) not in before
    ]


def _squares_of(pairs: set[tuple[str, str]]) -> list[tuple[int, int]]:
    return [(SQUARE_OF_NAME[a], SQUARE_OF_NAME[t]) for a, t in pairs]


def _pin_changes(
    before_pins: list[PinLine], after_pins: list[PinLine], moved: dict[str, str | None]
) -> tuple[list[PinLine], list[PinLine]]:
    """(pins created, pins released), comparing pins across the move by where their pieces went."""
    before_keys = {_pin_key(pin, moved) for pin in before_pins}
    after_keys = {_pin_key(pin, {}) for pin in after_pins}
    return (
        [pin for pin in after_pins if _pin_key(pin, {}) not in before_keys],
        [pin for pin in before_pins if _pin_key(pin, moved) not in after_keys],
    )


def _pin_key(pin: PinLine, moved: dict[str, str | None]) -> tuple[str | None, ...]:
    pinner, pinned, target = pin["pinner"], pin["pinned"], pin["target"]
    return moved.get(pinner, pinner), moved.get(pinned, pinned), moved.get(target, target)
