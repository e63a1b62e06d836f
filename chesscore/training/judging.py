"""Judging an answer: what was right, what was missed, what was wrong, and why in words.

An answer is given in the drill kind's form (chesscore.training.drills): a set of squares, a
set of moves by their start and end squares, the two attacker counts, or whether a played move
is safe. A set is correct when it is exactly the truth; then `missed` is what the truth has
and the answer lacks, `wrong` what the answer has and the truth lacks (a page marks them
orange and red, the rest green). A count (with the exchange, when it is given) or a yes/no
answer is right or wrong as a whole;
a blunder check answered "safe" misses the squares the move drops. A pins drill answered in
full (`PinAnswer`: each pinned piece with the piece it is pinned to) is correct when the pinned
pieces are exactly the truth and so are the pairs; `missed_pairs` and `wrong_pairs` say which
pairs were not named and which were named wrongly. Answered with squares alone, only the
pinned pieces are judged.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from chesscore.rules.move import Move
from chesscore.rules.squares import in_name_order
from chesscore.training.drills import MOVE_KINDS, SQUARE_KINDS, Drill, in_pair_order

# A move as the trainer compares moves: its start and end squares.
MoveKey = tuple[int, int]
# A count: white attackers, black attackers, and the exchange ("win", ...) or None if not asked.
CountAnswer = tuple[int, int, str | None]
# A pin as the trainee names it: the pinned piece's square and its target's.
PinPair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PinAnswer:
    """A pins drill's whole answer: (pinned, target) pairs; the pinned pieces are their
    first squares."""

    pairs: frozenset[PinPair]


Answer = frozenset[int] | frozenset[MoveKey] | CountAnswer | bool | PinAnswer


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one answer; squares and moves in the drill's own order."""

    correct: bool
    missed: tuple[int, ...]
    wrong: tuple[int, ...]
    missed_moves: tuple[MoveKey, ...]
    wrong_moves: tuple[MoveKey, ...]
    explanation: str
    missed_pairs: tuple[PinPair, ...] = ()
    wrong_pairs: tuple[PinPair, ...] = ()


def move_key(move: Move) -> MoveKey:
    return move.from_square, move.to_square


def judge(drill: Drill, answer: Answer) -> Verdict:
    """The verdict on `answer` to `drill`; TypeError when the answer is not of the kind's form
    (the server checks the form first and refuses it in words)."""
    if drill.kind == "pins" and (isinstance(answer, PinAnswer) or answer == frozenset()):
        # No square at all says "no piece is pinned", which is the whole answer.
        return _judge_pins(
            drill, answer if isinstance(answer, PinAnswer) else PinAnswer(frozenset())
        )
    if drill.kind in SQUARE_KINDS:
        return _judge_squares(drill, _as_set(answer, int))
    if drill.kind in MOVE_KINDS:
        return _judge_moves(drill, _as_set(answer, tuple))
    if drill.kind == "count":
        if not isinstance(answer, tuple):
            raise TypeError("a count is answered with (white, black, exchange or None)")
        white, black, exchange = answer
        right = (white, black) == drill.count and exchange in (None, drill.exchange)
        return _verdict(right, drill)
    if not isinstance(answer, bool):
        raise TypeError("a blunder check is answered with True (safe) or False")
    right = answer == drill.safe
    return _verdict(right, drill, missed=() if right or answer is False else drill.squares)


def _as_set(answer: Answer, item: type) -> frozenset[object]:
    if not isinstance(answer, frozenset) or any(not isinstance(x, item) for x in answer):
        raise TypeError(f"this drill is answered with a set of {item.__name__}")
    return frozenset(answer)


def _judge_squares(drill: Drill, answer: frozenset[object]) -> Verdict:
    truth = set(drill.squares)
    missed = tuple(sq for sq in drill.squares if sq not in answer)
    wrong = tuple(in_name_order(sq for sq in answer if isinstance(sq, int) and sq not in truth))
    return _verdict(not missed and not wrong, drill, missed=missed, wrong=wrong)


def _judge_pins(drill: Drill, answer: PinAnswer) -> Verdict:
    pinned = _judge_squares(drill, frozenset(pinned for pinned, _ in answer.pairs))
    truth = set(drill.pin_pairs)
    missed = tuple(pair for pair in drill.pin_pairs if pair not in answer.pairs)
    wrong = in_pair_order(answer.pairs - truth)
    right = pinned.correct and not missed and not wrong
    return replace(pinned, correct=right, missed_pairs=missed, wrong_pairs=wrong)


def _judge_moves(drill: Drill, answer: frozenset[object]) -> Verdict:
    keys = [move_key(move) for move in drill.moves]
    missed = tuple(key for key in keys if key not in answer)
    extra = [key for key in answer if isinstance(key, tuple) and key not in set(keys)]
    wrong: tuple[MoveKey, ...] = tuple(sorted(extra))
    ok = not missed and not wrong
    return _verdict(ok, drill, missed_moves=missed, wrong_moves=wrong)


def _verdict(
    correct: bool,
    drill: Drill,
    missed: tuple[int, ...] = (),
    wrong: tuple[int, ...] = (),
    missed_moves: tuple[MoveKey, ...] = (),
    wrong_moves: tuple[MoveKey, ...] = (),
) -> Verdict:
    return Verdict(correct, missed, wrong, missed_moves, wrong_moves, " ".join(drill.reasons))
