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

from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import is_piece_of, kind_at
from chesscore.analysis.explain.facts import (
    PIECE_WORDS,
    Arrow,
    AttackFact,
    Facts,
    Kind,
    NoAttackerFact,
    Role,
    TrappedFact,
)
from chesscore.analysis.explain.lines import captured_square, find_fall
from chesscore.analysis.see import exchange_on_target
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import KING, PAWN

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move


def losing_capture(s: Situation, facts: Facts) -> str:
    """The move takes, and the exchange it starts loses material: what, and who takes back."""
    board, after, target = s.board, s.after, s.played.to_square
    if not board.board[target]:
        return ""
    packed = board.find_packed(s.played)
    assert packed is not None
    value = exchange_on_target(board, packed)[0]
    if value >= 0:
        return ""
    # Only a legal capture takes back (a pinned attacker may not): the reply if it does, else
    # the cheapest taker.
    takers = [m for m in after.legal_moves() if m.to_square == target]
    if not takers:
        return ""
    if s.reply in takers:
        back = s.reply
    else:
        back = min(takers, key=lambda m: (PIECE_VALUES[kind_at(after, m.from_square)], m.uci()))
    facts.kinds.append(Kind.LOSING_CAPTURE)
    facts.squares.append(target)
    facts.arrows.append(Arrow(back.from_square, target, Role.ATTACK))
    facts.attacks.append(AttackFact(after.fen(), back.from_square, target))
    facts.move(back)
    mine = kind_at(board, s.played.from_square)
    return (
        f"takes {facts.piece(board, target)}, but {after.san(back)} takes "
        f"the {PIECE_WORDS[mine]} back"
    )


def hanging(s: Situation, facts: Facts) -> str:
    """A hanging piece of the mover that the reply (or the best capture) wins."""
    after, mover = s.after, s.mover
    capture = s.reply if s.reply is not None else _best_capture(after)
    if capture is None:
        return ""
    target = capture.to_square
    if not is_piece_of(after, target, mover) or target not in s.after_map.hanging:
        return ""
    if target == s.played.to_square and _even_trade(s):
        return ""  # a piece taken back after it took as much: a trade, not a piece lost
    packed = after.find_packed(capture)
    value = exchange_on_target(after, packed)[0] if packed is not None else 0
    if value <= 0:
        return ""
    attackers = s.after_map.attackers[mover ^ 1][target]
    defenders = s.after_map.attackers[mover][target]
    facts.kinds.append(Kind.HANGING)
    facts.squares.append(target)
    facts.arrows += [Arrow(a, target, Role.ATTACK) for a in attackers]
    facts.arrows += [Arrow(d, target, Role.DEFENCE) for d in defenders]
    facts.move(capture)
    piece = facts.piece(after, target)
    attacked = facts.group(after, attackers, target)
    if defenders:
        defended = f"defended by {facts.group(after, defenders, target)}"
    else:
        facts.unattacked.append(NoAttackerFact(after.fen(), target, mover))
        defended = "defended by nothing"
    # "attacked by A, B and C, and defended by D": the comma keeps the two lists apart.
    comma = "," if len(attackers) > 1 else ""
    tail = f"{attacked}{comma} and {defended}"
    if target == s.played.to_square:
        return f"puts {piece} attacked by {tail}"
    if _defended_by_the_move(s, target):
        facts.kinds.append(Kind.DEFENDER_MOVED_AWAY)
        facts.attacks.append(AttackFact(s.board.fen(), s.played.from_square, target))
        return f"stops defending {piece}, now attacked by {tail}"
    return f"leaves {piece} attacked by {tail}"


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


def trapped(s: Situation, facts: Facts) -> str:
    """After the reply, a piece of the mover is attacked and has no safe square, and the
    opponent's line takes a piece of its kind."""
    fall = find_fall(s, least=2)
    if s.reply is None or s.after_reply is None or fall is None:
        return ""
    board = s.after_reply[0]
    taken = captured_square(fall.before, fall.move)
    if taken is None or board.is_check():
        return ""  # in check, no piece "can go" anywhere but to answer it
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
        return (
            f"allows {s.after.san(s.reply)}, trapping {facts.piece(board, square)}, attacked "
            "with every square it can go to covered"
        )
    return ""


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
