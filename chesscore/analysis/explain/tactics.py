"""The clauses of a tactic the reply plays or the move walks into: a fork, a discovered
attack, a pin (chesscore.analysis.insight's change of the reply, chesscore.analysis.xray's pin
lines).

- *fork allowed*: the reply forks two or more pieces ("allows Nc2+, forking the king on e1
  and the rook on a1");
- *discovered attack allowed*: the reply opens a line of another piece onto a piece of the
  mover;
- *pin walked into*: the move or the reply makes a pin of a piece of the mover.

`forked` and `pin_words` also serve the better move's sentence (a fork or a pin missed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import is_piece_of, kind_at
from chesscore.analysis.explain.facts import Arrow, AttackFact, Facts, Kind, PinFact, Role
from chesscore.analysis.explain.nouns import Place
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import NAME_ORDER
from chesscore.words import Message, say, say_list

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.analysis.insight import Fork
    from chesscore.rules.board import Board


def fork_allowed(s: Situation, facts: Facts) -> Message | None:
    if s.reply is None or s.after_reply is None:
        return None
    after_reply, change = s.after_reply
    forks = [f for f in change.forks if f.origin == s.reply.to_square]
    if not forks:
        return None
    facts.kinds.append(Kind.FORK_ALLOWED)
    facts.move(s.reply)
    targets = forked(after_reply, forks[0], facts)
    return say("allows {reply}, forking {targets}", reply=s.after.san(s.reply), targets=targets)


def forked(board: Board, fork: Fork, facts: Facts) -> Message:
    """ "the king on e8 and the rook on a8": the targets of a fork made on `board`."""
    facts.squares += [fork.origin, *fork.targets]
    facts.arrows += [Arrow(fork.origin, t, Role.ATTACK) for t in fork.targets]
    facts.attacks += [AttackFact(board.fen(), fork.origin, t) for t in fork.targets]
    return say_list([facts.piece(board, t) for t in most_valuable_first(board, fork.targets)])


def most_valuable_first(board: Board, squares: Iterable[int]) -> list[int]:
    return sorted(squares, key=lambda sq: (-PIECE_VALUES[kind_at(board, sq)], NAME_ORDER[sq]))


def discovered(s: Situation, facts: Facts) -> Message | None:
    if s.reply is None or s.after_reply is None:
        return None
    after_reply, change = s.after_reply
    found = [a for a in change.discovered if is_piece_of(after_reply, a.target, s.mover)]
    if not found:
        return None
    attack = max(
        found, key=lambda a: (PIECE_VALUES[kind_at(after_reply, a.target)], -NAME_ORDER[a.target])
    )
    facts.kinds.append(Kind.DISCOVERED_ATTACK_ALLOWED)
    facts.squares.append(attack.target)
    facts.move(s.reply)
    facts.arrows.append(Arrow(attack.origin, attack.target, Role.ATTACK))
    facts.attacks.append(AttackFact(after_reply.fen(), attack.origin, attack.target))
    opener = facts.piece(after_reply, attack.origin, Place.OF)
    target = facts.piece(after_reply, attack.target)
    return say(
        "allows {reply}, which opens the line of {opener} to {target}",
        reply=s.after.san(s.reply),
        opener=opener,
        target=target,
    )


def pin(s: Situation, facts: Facts) -> Message | None:
    """A pin of a piece of the mover that the move walks into, or that the reply makes."""
    walked = [p for p in s.change.pins_created if is_piece_of(s.after, p.pinned, s.mover)]
    if walked:
        line, board = walked[0], s.after
    elif s.reply is not None and s.after_reply is not None:
        board, change = s.after_reply
        made = [p for p in change.pins_created if p.pinner == s.reply.to_square]
        if not made:
            return None
        line = made[0]
        facts.move(s.reply)
    else:
        return None
    facts.kinds.append(Kind.PIN_ALLOWED)
    if walked:
        by = facts.piece(board, line.pinner, Place.SUBJECT)
        pinned, target = pin_words(board, line.pinner, line.pinned, line.target, facts)
        return say(
            "walks into a pin, {pinner} pinning {pinned} to {target}",
            pinner=by,
            pinned=pinned,
            target=target,
        )
    assert s.reply is not None
    pinned, target = pin_words(board, line.pinner, line.pinned, line.target, facts)
    return say(
        "allows {reply}, pinning {pinned} to {target}",
        reply=s.after.san(s.reply),
        pinned=pinned,
        target=target,
    )


def pin_words(
    board: Board, pinner: int, pinned: int, target: int, facts: Facts
) -> tuple[Message, Message]:
    """ "the knight on c6", "the king on e8": a pin's pinned piece and the piece behind it,
    entered as facts (the pinner is named by its move or by the caller)."""
    facts.squares += [pinned]
    facts.arrows.append(Arrow(pinner, target, Role.PIN))
    facts.pins.append(PinFact(board.fen(), pinner, pinned, target))
    return facts.piece(board, pinned), facts.piece(board, target)
