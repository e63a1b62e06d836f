"""The nine drill kinds: from a position's facts, the question and its exact answer.

Each kind reads chesscore's threat analysis of one position (chesscore.training.facts):

- ``hanging``: every hanging piece of either colour, as a lichess player means it: attacked and
  insufficiently defended, so that its capture wins material by the exchange (never a king;
  chesscore.training.material); not asked in check, where the check is the question;
- ``checks``, ``captures``: every legal move of the side to move that gives check, or captures
  (en passant included);
- ``threats``: every legal move of the side to move that neither captures nor checks, does not
  lose material (the moved piece is not simply lost, nor another piece it uncovers or stopped
  defending) and makes the moved piece attack, from its target square, an enemy piece it did
  not attack before and would take winning material by the exchange if the opponent did
  nothing: the target falls or must be answered (a discovered attack by another piece is not
  counted);
- ``count``: the white and black pieces attacking one square (the `focus`), as the threat
  map counts them: pawns diagonally, sliders up to the first piece, pinned pieces included;
  and what the side to move gets by capturing the piece there and the exchange that follows
  (static exchange of its best capture): ``win``, ``even``, ``lose``, or ``none`` (no piece
  there it can capture; then the question asks for the counts alone);
- ``safe``: the target squares of one piece of the side to move (the `focus`) where the move
  loses no material: its own exchange there (chesscore.analysis.see's label is not "losing"),
  the pin it was under (absolute or relative), what its move uncovers and what it stopped
  defending (chesscore.training.material);
- ``pins``: every pinned piece of either colour, absolute or relative (chesscore.analysis.xray),
  and for each the piece it is pinned to: the pin line's target, which the pinner x-rays
  through it (a piece pinned on two lines has two targets);
- ``fork``: every legal move of the side to move that does not lose material and after which the
  moved piece, not hanging where it lands, attacks two or more targets: the king (a check), or
  a piece it would take winning material by the exchange if the opponent did nothing (a
  capture whose piece is simply taken back forks nothing);
- ``blunder``: a move of the side to move (`played`, from the game the position came from) and
  whether it is safe: it drops the moved piece when its exchange loses material (SEE < 0), and
  any other piece of the mover it leaves hanging (by the exchange, as ``hanging`` counts) that
  was not hanging before.

Moves are compared by their start and end squares, so the four promotions on one square are
one answer (kept as the queen's). A kind that has no question in a position (no square both
sides attack, no piece that can move, no move played) makes no drill: `make_drill` is None.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from chesscore.analysis.exchange import QUIET
from chesscore.analysis.see import LOSING, exchange_on_target
from chesscore.rules.board import Board
from chesscore.rules.move import SQUARE_MASK, Move
from chesscore.rules.squares import (
    KING,
    NAME_ORDER,
    SQUARES,
    WHITE,
    color_of,
    in_name_order,
    piece_type_of,
    square_name,
)
from chesscore.training.difficulty import Measures, distance, level_of
from chesscore.training.facts import MoveAttacks, PositionFacts
from chesscore.training.material import capture_gains
from chesscore.words import ENGLISH, N_, Translator, plural_count

# The words a drill names pieces and sides by, by piece type and by colour (WHITE, BLACK).
PIECE_WORDS = ("", N_("pawn"), N_("knight"), N_("bishop"), N_("rook"), N_("queen"), N_("king"))
# A move drill's question and summary by kind, then by the side to move: a sentence per side,
# so each language says "White's" and "Black's" its own way.
MOVE_QUESTIONS = {
    "checks": (
        N_("Play every check White has (none: answer with no move)."),
        N_("Play every check Black has (none: answer with no move)."),
    ),
    "captures": (
        N_("Play every capture White has (none: answer with no move)."),
        N_("Play every capture Black has (none: answer with no move)."),
    ),
    "threats": (
        N_("Play every threat White has (none: answer with no move)."),
        N_("Play every threat Black has (none: answer with no move)."),
    ),
    "fork": (
        N_("Play every fork White has (none: answer with no move)."),
        N_("Play every fork Black has (none: answer with no move)."),
    ),
}
MOVE_SUMMARIES = {
    "checks": (N_("White's checks: {moves}."), N_("Black's checks: {moves}.")),
    "captures": (N_("White's captures: {moves}."), N_("Black's captures: {moves}.")),
    "threats": (N_("White's threats: {moves}."), N_("Black's threats: {moves}.")),
    "fork": (N_("White's forks: {moves}."), N_("Black's forks: {moves}.")),
}

KINDS = ("hanging", "checks", "captures", "threats", "count", "safe", "pins", "fork", "blunder")
# How the answer to each kind is given (docs/protocol.md, "Threat trainer").
SQUARE_KINDS = frozenset({"hanging", "pins", "safe"})
MOVE_KINDS = frozenset({"checks", "captures", "threats", "fork"})
# The kinds that ask to find every one of something (an empty answer may be the truth).
FIND_KINDS = frozenset({"hanging", "pins"}) | MOVE_KINDS


@dataclass(frozen=True, slots=True)
class Drill:
    """A position, its question and the exact answer (see the module docstring).

    The answer is `squares` (hanging, pins, safe; for blunder what the move drops) with
    `pin_pairs` (pins: each (pinned, target), in name order), `moves` (checks,
    captures, threats, fork), `count` and `exchange` (count) or `safe` (blunder); `reasons`
    say in words why, one sentence each.
    """

    kind: str
    fen: str
    question: str
    measures: Measures
    level: int
    reasons: tuple[str, ...]
    focus: int | None = None
    played: Move | None = None
    squares: tuple[int, ...] = ()
    pin_pairs: tuple[tuple[int, int], ...] = ()
    moves: tuple[Move, ...] = ()
    count: tuple[int, int] = (0, 0)
    exchange: str = "none"
    safe: bool = True

    @property
    def finds_nothing(self) -> bool:
        """A drill asking to find every one of something where there is none."""
        return self.kind in FIND_KINDS and not self.squares and not self.moves


def make_drill(
    facts: PositionFacts,
    kind: str,
    rng: random.Random,
    played: Move | None = None,
    focus: int | None = None,
    words: Translator = ENGLISH,
) -> Drill | None:
    """A drill of `kind` on the position of `facts`, or None if the kind has none there; `rng`
    picks the square or piece a count or safe-squares drill points at unless `focus` names
    it, `played` is the move a blunder check asks about; its question and reasons are in the
    language of `words` (chesscore.words). ValueError names an unknown kind."""
    if kind not in _MAKERS:
        raise ValueError(f"unknown drill kind {kind!r}: expected one of {', '.join(KINDS)}")
    return _MAKERS[kind](facts, _Choice(rng, focus, words), played)


@dataclass(frozen=True, slots=True)
class _Choice:
    """How a drill that points at one square picks it: `focus` if given, else at random;
    and the words it is said in."""

    rng: random.Random
    focus: int | None
    words: Translator

    def pick(self, preferred: list[int], others: list[int]) -> int:
        if self.focus is not None:
            return self.focus
        return self.rng.choice(preferred if preferred and self.rng.random() < 0.7 else others)


def _drill(
    facts: PositionFacts,
    kind: str,
    question: str,
    measures: Measures,
    reasons: tuple[str, ...],
    **answer: Any,
) -> Drill:
    """A drill with the fields of its answer (`answer`: Drill's fields from `focus` on)."""
    made = Drill(kind, facts.fen, question, measures, level_of(kind, measures), reasons)
    return replace(made, **answer)


def _piece(board: Board, sq: int, words: Translator) -> str:
    """'knight c6' for the piece on `sq`."""
    return f"{words.gettext(PIECE_WORDS[piece_type_of(board.board[sq])])} {square_name(sq)}"


def _pieces(board: Board, squares: Iterable[int], words: Translator) -> str:
    return ", ".join(_piece(board, sq, words) for sq in squares) or words.gettext("none")


def _by_side(board: Board, white: str, black: str, words: Translator) -> str:
    """The sentence of the side to move, translated."""
    return words.gettext(black if board.turn else white)


def _hanging(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill | None:
    board, attackers, hanging = facts.board, facts.threats.attackers, facts.hanging
    words = rng.words
    if hanging is None:
        return None
    reasons = []
    far = 0
    for sq, gain in hanging.items():
        color = color_of(board.board[sq])
        enemies, defenders = attackers[color ^ 1][sq], attackers[color][sq]
        why = (
            words.gettext("defended by {pieces}, not enough").format(
                pieces=_pieces(board, defenders, words)
            )
            if defenders
            else words.gettext("undefended")
        )
        sentence = words.ngettext(
            "The {piece} hangs: attacked by {attackers}, {why}; taking it wins {pawns} pawn"
            " of material.",
            "The {piece} hangs: attacked by {attackers}, {why}; taking it wins {pawns} pawns"
            " of material.",
            plural_count(gain / 100),
        )
        reasons.append(
            sentence.format(
                piece=_piece(board, sq, words),
                attackers=_pieces(board, enemies, words),
                why=why,
                pawns=f"{gain / 100:g}",
            )
        )
        far = max([far, *(distance(a, sq) for a in enemies)])
    if not reasons:
        reasons.append(words.gettext("No piece hangs: no capture wins material by the exchange."))
    squares = tuple(hanging)
    measures = Measures(facts.piece_count(), len(squares), far)
    question = words.gettext(
        "Click every hanging piece, of either colour (none: answer with no square)."
    )
    return _drill(facts, "hanging", question, measures, squares=squares, reasons=tuple(reasons))


def _by_squares(moves: Iterable[MoveAttacks]) -> tuple[MoveAttacks, ...]:
    """One move per start and end square: the queen's of four promotions (it sorts last)."""
    kept: dict[tuple[int, int], MoveAttacks] = {}
    for item in moves:
        kept[item.move.from_square, item.move.to_square] = item
    return tuple(kept.values())


# What a move drill keeps of a move: the targets it names (none for checks and captures), or
# None to leave the move out.
Keep = Callable[[MoveAttacks], tuple[int, ...] | None]


def _move_drill(facts: PositionFacts, kind: str, words: Translator, keep: Keep) -> Drill:
    board = facts.board
    kept = {item: keep(item) for item in facts.moves}
    found = _by_squares(item for item, targets in kept.items() if targets is not None)
    far = 0
    reasons = []
    for item in found:
        move = item.move
        targets = kept[item] or ()
        far = max([far, distance(move.from_square, move.to_square)])
        far = max([far, *(distance(move.to_square, t) for t in targets)])
        said = f"{board.san(move)} ({move.uci()})"
        if kind in ("threats", "fork"):
            piece = words.gettext(PIECE_WORDS[piece_type_of(board.board[move.from_square])])
            said = words.gettext("{move}: the {piece} attacks {targets}").format(
                move=said, piece=piece, targets=_pieces(board, targets, words)
            )
        reasons.append(said)
    listed = "; ".join(reasons) if reasons else words.gettext("none")
    summary = _by_side(board, *MOVE_SUMMARIES[kind], words).format(moves=listed)
    measures = Measures(facts.piece_count(), len(found), far)
    question = _by_side(board, *MOVE_QUESTIONS[kind], words)
    moves = tuple(item.move for item in found)
    return _drill(facts, kind, question, measures, moves=moves, reasons=(summary,))


def _checks(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill:
    return _move_drill(facts, "checks", rng.words, lambda item: () if item.gives_check else None)


def _captures(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill:
    return _move_drill(facts, "captures", rng.words, lambda item: () if item.is_capture else None)


def _threats(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill:
    cells = facts.board.board

    def threatened(item: MoveAttacks) -> tuple[int, ...] | None:
        # The cheap geometric questions first: most moves stop there.
        new = [t for t in item.new_attacked if piece_type_of(cells[t]) != KING]
        if item.is_capture or item.gives_check or not new:
            return None
        targets = tuple(t for t in facts.targets_of(item) if t in new)
        return targets if targets and not facts.loses_material(item.move) else None

    return _move_drill(facts, "threats", rng.words, threatened)


def _fork(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill:
    def forked(item: MoveAttacks) -> tuple[int, ...] | None:
        if len(item.attacked) < 2:
            return None
        targets = facts.targets_of(item)
        return targets if len(targets) >= 2 and not facts.loses_material(item.move) else None

    return _move_drill(facts, "fork", rng.words, forked)


def _count(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill | None:
    board, lists = facts.board, facts.threats.attackers
    contested = [sq for sq in _board_squares() if lists[0][sq] and lists[1][sq]]
    if not contested:
        return None
    # Mostly a square with a piece the side to move may take, so the exchange is a question.
    cells = board.board
    takeable = [sq for sq in contested if cells[sq] and color_of(cells[sq]) != board.turn]
    square = rng.pick(takeable, contested)
    if square not in contested:
        return None
    white, black = lists[0][square], lists[1][square]
    words = rng.words
    exchange, said = _exchange(board, square, words)
    counted = words.gettext(
        "{square}: white {white} ({white_pieces}), black {black} ({black_pieces})."
    ).format(
        square=square_name(square),
        white=len(white),
        white_pieces=_pieces(board, white, words),
        black=len(black),
        black_pieces=_pieces(board, black, words),
    )
    reasons = (counted, said)
    far = max(distance(a, square) for a in (*white, *black))
    measures = Measures(facts.piece_count(), len(white) + len(black), far)
    question = words.gettext("How many white and how many black pieces attack {square}?")
    question = question.format(square=square_name(square))
    if exchange != "none":  # on a square with nothing to take the exchange is not asked
        also = _by_side(
            board,
            N_("And if White takes the {piece}, who wins the exchange?"),
            N_("And if Black takes the {piece}, who wins the exchange?"),
            words,
        )
        question += " " + also.format(piece=_piece(board, square, words))
    return _drill(
        facts, "count", question, measures, reasons, focus=square,
        count=(len(white), len(black)), exchange=exchange,
    )  # fmt: skip


# What the side to move gets by the exchange, in words: by the outcome, then by the side.
EXCHANGE_WORDS = {
    "none": (N_("White cannot capture on {square}."), N_("Black cannot capture on {square}.")),
    "even": (N_("Taking there, White comes out even."), N_("Taking there, Black comes out even.")),
}


def _exchange(board: Board, square: int, words: Translator) -> tuple[str, str]:
    """What the side to move gets by capturing the piece on `square` and the exchange there
    (its best capture, by the static exchange): "win", "even", "lose", or "none" when it
    cannot capture there; and that in words."""
    captures = [packed for packed in board.generate_legal() if packed & SQUARE_MASK == square]
    if not board.board[square] or not captures:
        said = _by_side(board, *EXCHANGE_WORDS["none"], words)
        return "none", said.format(square=square_name(square))
    best = max(exchange_on_target(board, packed)[0] for packed in captures)
    if best == 0:
        return "even", _by_side(board, *EXCHANGE_WORDS["even"], words)
    pawns = abs(best) / 100
    return ("win" if best > 0 else "lose"), _pawns_said(board.turn, best > 0, pawns, words)


def _pawns_said(turn: int, wins: bool, pawns: float, words: Translator) -> str:
    """ "Taking there, White wins 3 pawns of material." and the like, whole sentences each."""
    n = plural_count(pawns)
    if wins and turn == WHITE:
        said = words.ngettext(
            "Taking there, White wins {pawns} pawn of material.",
            "Taking there, White wins {pawns} pawns of material.",
            n,
        )
    elif wins:
        said = words.ngettext(
            "Taking there, Black wins {pawns} pawn of material.",
            "Taking there, Black wins {pawns} pawns of material.",
            n,
        )
    elif turn == WHITE:
        said = words.ngettext(
            "Taking there, White loses {pawns} pawn of material.",
            "Taking there, White loses {pawns} pawns of material.",
            n,
        )
    else:
        said = words.ngettext(
            "Taking there, Black loses {pawns} pawn of material.",
            "Taking there, Black loses {pawns} pawns of material.",
            n,
        )
    return said.format(pawns=f"{pawns:g}")


def _names(squares: Iterable[int], words: Translator) -> str:
    return ", ".join(map(square_name, squares)) or words.gettext("no square")


def _board_squares() -> list[int]:
    return in_name_order(SQUARES)


def _safe(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill | None:
    board, labels = facts.board, facts.labels
    movable = [sq for sq in labels if piece_type_of(board.board[sq]) != KING]
    if not movable:
        return None
    # Mostly a piece with a square to avoid: one its exchange there loses, or a pinned piece.
    pinned = {pin.pinned for pin in facts.pins}
    mixed = [sq for sq in movable if LOSING in labels[sq].values() or sq in pinned]
    piece = rng.pick(mixed, movable)
    if piece not in movable:
        return None
    targets = labels[piece]
    losing = tuple(t for t in targets if facts.loses_material(Move(piece, t)))
    safe = tuple(t for t in targets if t not in losing)
    words = rng.words
    said = words.gettext("The {piece} can go safely to {safe}; it loses material on {losing}.")
    named = _piece(board, piece, words)
    reasons = (said.format(piece=named, safe=_names(safe, words), losing=_names(losing, words)),)
    far = max(distance(piece, t) for t in targets)
    measures = Measures(facts.piece_count(), len(safe), far)
    question = words.gettext("Where can the {piece} go without losing material?")
    question = question.format(piece=named)
    return _drill(facts, "safe", question, measures, focus=piece, squares=safe, reasons=reasons)


def _pins(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill:
    board, words = facts.board, rng.words
    pinned = tuple(in_name_order({pin.pinned for pin in facts.pins}))
    absolute = N_("The {pinner} pins the {pinned} to the {target}.")
    relative = N_("The {pinner} pins the {pinned} to the {target} (a relative pin).")
    reasons = tuple(
        words.gettext(absolute if pin.absolute else relative).format(
            pinner=_piece(board, pin.pinner, words),
            pinned=_piece(board, pin.pinned, words),
            target=_piece(board, pin.target, words),
        )
        for pin in facts.pins
    ) or (words.gettext("No piece is pinned."),)
    far = max([0, *(distance(pin.pinner, pin.target) for pin in facts.pins)])
    measures = Measures(facts.piece_count(), len(pinned), far)
    question = words.gettext(
        "Click every pinned piece, of either colour, and the piece it is pinned to "
        "(none: answer with no square)."
    )
    pairs = in_pair_order({(pin.pinned, pin.target) for pin in facts.pins})
    return _drill(
        facts, "pins", question, measures, squares=pinned, pin_pairs=pairs, reasons=reasons
    )


def in_pair_order(pairs: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Square pairs sorted by the first square's name, then the second's."""
    return tuple(sorted(pairs, key=lambda pair: (NAME_ORDER[pair[0]], NAME_ORDER[pair[1]])))


def _blunder(facts: PositionFacts, rng: _Choice, played: Move | None) -> Drill | None:
    board = facts.board
    packed = board.find_packed(played) if played is not None else None
    if played is None or packed is None:
        return None
    value, _ = exchange_on_target(board, packed)
    mover = board.turn
    before = set(facts.hanging or ())
    after = board.copy()
    after.push(played)
    # The opponent moves next: its winning captures are the mover's pieces hanging.
    hanging_after = [sq for sq, gain in capture_gains(after).items() if gain > 0]
    left = [
        sq for sq in hanging_after
        if sq != QUIET and sq != played.to_square and sq not in before
    ]  # fmt: skip
    drops = tuple(in_name_order(([played.to_square] if value < 0 else []) + left))
    san, words = board.san(played), rng.words
    lost = -value // 100
    reasons = (
        [
            words.ngettext(
                "{move} loses {pawns} pawn of material on {square}.",
                "{move} loses {pawns} pawns of material on {square}.",
                lost,
            ).format(move=san, pawns=lost, square=square_name(played.to_square))
        ]
        if value < 0
        else []
    )
    reasons += [
        words.gettext("{move} leaves the {piece} hanging.").format(
            move=san, piece=_piece(after, sq, words)
        )
        for sq in left
    ]
    if not drops:
        reasons.append(words.gettext("{move} is safe: it drops nothing.").format(move=san))
    enemies = [a for sq in drops for a in after.attackers(mover ^ 1, sq)]
    far = max(
        [
            distance(played.from_square, played.to_square),
            *(distance(a, d) for a in enemies for d in drops),
        ]
    )
    measures = Measures(facts.piece_count(), len(drops), far)
    question = _by_side(
        board, N_("White plays {move}. Is it safe?"), N_("Black plays {move}. Is it safe?"), words
    ).format(move=san)
    return _drill(
        facts, "blunder", question, measures, played=played, squares=drops, safe=not drops,
        reasons=tuple(reasons),
    )  # fmt: skip


_MAKERS: dict[str, Callable[[PositionFacts, _Choice, Move | None], Drill | None]] = {
    "hanging": _hanging, "checks": _checks, "captures": _captures, "threats": _threats,
    "count": _count, "safe": _safe, "pins": _pins, "fork": _fork, "blunder": _blunder,
}  # fmt: skip
assert tuple(_MAKERS) == KINDS
