"""The clauses of a defender lost to the reply: taken away, or given two things to hold.

- *defender removed*: the reply takes the only defender of another piece of the mover, which
  the opponent's line then wins ("allows Bxf6, taking the knight on f6, the only defender of
  the bishop on d5");
- *overloaded defender*: after the move, one piece of the mover is the only defender of two
  of its pieces, both attacked; the reply takes one of them, and the opponent's line wins
  material ("allows Rxd5: the queen on d8 is the only defender of both the pawn on d5 and the
  bishop on b6").

(A defender the move itself takes away is the hanging clause's "stops defending".)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import is_piece_of, kind_at
from chesscore.analysis.explain.facts import Arrow, AttackFact, DefendersFact, Facts, Kind, Role
from chesscore.analysis.explain.lines import captured_square, find_fall
from chesscore.analysis.explain.nouns import Place
from chesscore.rules.squares import KING
from chesscore.words import Message, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation


def defender_removed(s: Situation, facts: Facts) -> Message | None:
    """The reply takes the only defender of a piece that the opponent's line then takes."""
    if s.reply is None or s.after_reply is None:
        return None
    removed = captured_square(s.after, s.reply)
    fall = find_fall(s)
    if removed is None or fall is None or fall.index == 0:
        return None
    target = captured_square(fall.before, fall.move)
    attackers = s.after_map.attackers
    if target is None or target == removed or not is_piece_of(s.after, target, s.mover):
        return None
    if fall.before.board[target] != s.after.board[target] or not _is_only_defender(
        s, removed, target
    ):
        return None
    facts.kinds.append(Kind.DEFENDER_REMOVED)
    facts.squares.append(target)
    facts.move(s.reply)
    facts.arrows.append(Arrow(removed, target, Role.DEFENCE))
    facts.attacks.append(AttackFact(s.after.fen(), removed, target))
    facts.defenders.append(DefendersFact(s.after.fen(), target, s.mover, (removed,)))
    for origin in attackers[s.mover ^ 1][target]:
        facts.attacks.append(AttackFact(s.after.fen(), origin, target))
    defender = facts.piece(s.after, removed)
    return say(
        "allows {reply}, taking {defender}, the only defender of {target}",
        reply=s.after.san(s.reply),
        defender=defender,
        target=facts.piece(s.after, target, Place.OF),
    )


def _is_only_defender(s: Situation, defender: int, target: int) -> bool:
    """Whether in the position after the move, the piece on `defender` alone defends the
    piece on `target`, which the opponent attacks."""
    attackers = s.after_map.attackers
    return list(attackers[s.mover][target]) == [defender] and bool(attackers[s.mover ^ 1][target])


def overloaded(s: Situation, facts: Facts) -> Message | None:
    """One defender of two attacked pieces; the reply takes one, and material falls."""
    if s.reply is None or find_fall(s) is None:
        return None
    first = s.reply.to_square
    if not is_piece_of(s.after, first, s.mover):
        return None
    defenders = s.after_map.attackers[s.mover][first]
    if len(defenders) != 1:
        return None
    defender = defenders[0]
    for second in s.after.piece_squares[s.mover]:
        if second in (first, defender) or kind_at(s.after, second) == KING:
            continue
        if _is_only_defender(s, defender, second) and _is_only_defender(s, defender, first):
            return _overloaded_words(s, defender, first, second, facts)
    return None


def _overloaded_words(
    s: Situation, defender: int, first: int, second: int, facts: Facts
) -> Message:
    assert s.reply is not None
    fen = s.after.fen()
    facts.kinds.append(Kind.OVERLOADED_DEFENDER)
    facts.squares += [defender, first, second]
    facts.move(s.reply)
    for target in (first, second):
        facts.arrows.append(Arrow(defender, target, Role.DEFENCE))
        facts.attacks.append(AttackFact(fen, defender, target))
        facts.defenders.append(DefendersFact(fen, target, s.mover, (defender,)))
        attackers = s.after_map.attackers[s.mover ^ 1][target]
        facts.attacks += [AttackFact(fen, origin, target) for origin in attackers]
    return say(
        "allows {reply}: {defender} is the only defender of both {first} and {second}, "
        "and both are attacked",
        reply=s.after.san(s.reply),
        defender=facts.piece(s.after, defender, Place.SUBJECT),
        first=facts.piece(s.after, first, Place.OF),
        second=facts.piece(s.after, second, Place.OF),
    )
