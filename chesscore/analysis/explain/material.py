"""The clauses of material lost on the spot: a losing capture, a hanging piece, a trapped one.

- *losing capture*: the move captures, and the exchange it starts loses material (static
  exchange < 0): "Qxe5?? loses the queen: it takes the pawn on e5, but Nxe5 takes the queen
  back";
- *hanging*: a piece of the mover is hanging after the move (chesscore.analysis.threats) and
  the reply takes it, winning material by static exchange (chesscore.analysis.see); without a
  reply line, the best capture by exchange value does ("leaves", "puts", or "stops defending"
  when the piece that moved was its defender: *defender moved away*);
- *trapped piece*: after the reply a piece of the mover (a knight or more) is attacked and
  hanging, every move it has lands it hanging again taking less than it is worth, and the
  opponent's line wins at least two pawns' worth, taking a piece of its kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import is_piece_of, kind_at
from chesscore.analysis.explain.facts import (
    Arrow,
    AttackFact,
    Facts,
    Kind,
    NoAttackerFact,
    Role,
    TrappedFact,
)
from chesscore.analysis.explain.lines import captured_square, find_fall
from chesscore.analysis.explain.nouns import taken_back
from chesscore.analysis.see import exchange_on_target
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import KING, PAWN
from chesscore.words import Message, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move


def losing_capture(s: Situation, facts: Facts) -> Message | None:
    """The move takes, and the exchange it starts loses material: what, and who takes back."""
    board, after, target = s.board, s.after, s.played.to_square
    if not board.board[target]:
        return None
    packed = board.find_packed(s.played)
    assert packed is not None
    value = exchange_on_target(board, packed)[0]
    if value >= 0:
        return None
    # Only a legal capture takes back (a pinned attacker may not): the reply if it does, else
    # the cheapest taker.
    takers = [m for m in after.legal_moves() if m.to_square == target]
    if not takers:
        return None
    if s.reply in takers:
        back = s.reply
    else:
        back = min(takers, key=lambda m: (PIECE_VALUES[kind_at(after, m.from_square)], m.uci()))
    facts.kinds.append(Kind.LOSING_CAPTURE)
    facts.squares.append(target)
    facts.arrows.append(Arrow(back.from_square, target, Role.ATTACK))
    facts.attacks.append(AttackFact(after.fen(), back.from_square, target))
    facts.move(back)
    mine = taken_back(kind_at(board, s.played.from_square))
    taken = facts.piece(board, target)
    return say(
        "takes {taken}, but {reply} takes {mine} back",
        taken=taken,
        reply=after.san(back),
        mine=mine,
    )


def hanging(s: Situation, facts: Facts) -> Message | None:
    """A hanging piece of the mover that the reply (or the best capture) wins."""
    after, mover = s.after, s.mover
    capture = s.reply if s.reply is not None else _best_capture(after)
    if capture is None:
        return None
    target = capture.to_square
    if not is_piece_of(after, target, mover) or target not in s.after_map.hanging:
        return None
    if target == s.played.to_square and _even_trade(s):
        return None  # a piece taken back after it took as much: a trade, not a piece lost
    packed = after.find_packed(capture)
    value = exchange_on_target(after, packed)[0] if packed is not None else 0
    if value <= 0:
        return None
    attackers = s.after_map.attackers[mover ^ 1][target]
    defenders = s.after_map.attackers[mover][target]
    facts.kinds.append(Kind.HANGING)
    facts.squares.append(target)
    facts.arrows += [Arrow(a, target, Role.ATTACK) for a in attackers]
    facts.arrows += [Arrow(d, target, Role.DEFENCE) for d in defenders]
    facts.move(capture)
    piece = facts.piece(after, target)
    tail = _attacked_and_defended(s, facts, target, attackers, defenders)
    if target == s.played.to_square:
        return say("puts {piece} {attacked}", piece=piece, attacked=tail)
    if _defended_by_the_move(s, target):
        facts.kinds.append(Kind.DEFENDER_MOVED_AWAY)
        facts.attacks.append(AttackFact(s.board.fen(), s.played.from_square, target))
        return say("stops defending {piece}, now {attacked}", piece=piece, attacked=tail)
    return say("leaves {piece} {attacked}", piece=piece, attacked=tail)


def _attacked_and_defended(
    s: Situation, facts: Facts, target: int, attackers: Sequence[int], defenders: Sequence[int]
) -> Message:
    """ "attacked by the knight on f3 and defended by nothing", of the piece on `target`."""
    after = s.after
    attacked = facts.group(after, attackers, target)
    # "attacked by A, B and C, and defended by D": the comma keeps the two lists apart.
    if defenders:
        defended = facts.group(after, defenders, target)
        if len(attackers) > 1:
            return say(
                "attacked by {attackers}, and defended by {defenders}",
                attackers=attacked,
                defenders=defended,
            )
        return say(
            "attacked by {attackers} and defended by {defenders}",
            attackers=attacked,
            defenders=defended,
        )
    facts.unattacked.append(NoAttackerFact(after.fen(), target, s.mover))
    if len(attackers) > 1:
        return say("attacked by {attackers}, and defended by nothing", attackers=attacked)
    return say("attacked by {attackers} and defended by nothing", attackers=attacked)


def _even_trade(s: Situation) -> bool:
    """Whether the move was a capture that wins at least nothing by static exchange (its
    piece may be taken back, but no more is lost than was taken)."""
    if not s.board.board[s.played.to_square]:
        return False
    packed = s.board.find_packed(s.played)
    return packed is not None and exchange_on_target(s.board, packed)[0] >= 0


def _defended_by_the_move(s: Situation, target: int) -> bool:
    """Whether the piece on `target`, there before the move too and not hanging then, was
    defended by the piece that moved."""
    return (
        s.board.board[target] == s.after.board[target]
        and target not in s.before_map.hanging
        and s.played.from_square in s.before_map.attackers[s.mover][target]
    )


def _best_capture(board: Board) -> Move | None:
    """The capture of `board` that wins the most by static exchange, if any wins anything."""
    best: tuple[int, Move] | None = None
    for move in board.legal_moves():
        if board.board[move.to_square]:
            packed = board.find_packed(move)
            assert packed is not None
            value = exchange_on_target(board, packed)[0]
            if value > 0 and (best is None or value > best[0]):
                best = value, move
    return best[1] if best else None


def trapped(s: Situation, facts: Facts) -> Message | None:
    """After the reply, a piece of the mover is attacked and has no safe square, and the
    opponent's line takes a piece of its kind."""
    fall = find_fall(s, least=2)
    if s.reply is None or s.after_reply is None or fall is None:
        return None
    board = s.after_reply[0]
    taken = captured_square(fall.before, fall.move)
    if taken is None or board.is_check():
        return None  # in check, no piece "can go" anywhere but to answer it
    threats = make_threat_map(board)
    for square in threats.hanging:
        kind = kind_at(board, square)
        if not is_piece_of(board, square, s.mover) or kind in (PAWN, KING):
            continue
        if kind != kind_at(fall.before, taken) or not is_trapped(board, square):
            continue
        facts.kinds.append(Kind.TRAPPED_PIECE)
        facts.squares.append(square)
        facts.move(s.reply)
        facts.trapped.append(TrappedFact(board.fen(), square))
        attackers = threats.attackers[s.mover ^ 1][square]
        facts.arrows += [Arrow(origin, square, Role.ATTACK) for origin in attackers]
        facts.attacks += [AttackFact(board.fen(), origin, square) for origin in attackers]
        return say(
            "allows {reply}, trapping {piece}, attacked with every square it can go to covered",
            reply=s.after.san(s.reply),
            piece=facts.piece(board, square),
        )
    return None


def is_trapped(board: Board, square: int) -> bool:
    """Whether the piece on `square` (its side to move) has legal moves and every one lands
    it hanging, taking less than it is worth."""
    worth = PIECE_VALUES[kind_at(board, square)]
    moves = [move for move in board.legal_moves() if move.from_square == square]
    if not moves:
        return False  # pinned, or shut in by its own pieces: not what "trapped" tells
    for move in moves:
        taken = kind_at(board, move.to_square)
        if PIECE_VALUES[taken] >= worth:
            return False
        replay = board.copy()
        replay.push(move)
        if move.to_square not in make_threat_map(replay).hanging:
            return False
    return True
