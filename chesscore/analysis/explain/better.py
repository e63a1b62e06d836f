"""The second sentence: what was better. "Better was" the best move, then the first of what it
did: a mate it starts (*mate missed*, told as a back-rank mate when its line ends in one), a
piece it takes that nothing can take back (*free piece not taken*), a fork it makes (*fork
missed*), a pin it makes (*pin missed*), material its line wins for good (*material missed*,
chesscore.analysis.explain.lines); then its evaluation ("+0.4", "#3").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.facts import Facts, Kind, NoAttackerFact
from chesscore.analysis.explain.lines import SHOWN_PLIES, ends_worse, find_gain, record_fall
from chesscore.analysis.explain.mating import back_rank_words
from chesscore.analysis.explain.tactics import forked, pin_words
from chesscore.analysis.see import SEE_VALUES, exchange_on_target
from chesscore.analysis.threats import make_threat_map

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.move import Move


def better_sentence(s: Situation, facts: Facts) -> str:
    best = s.best
    if best is None or best == s.played:
        return ""
    san = s.board.san(best)
    mate = s.best_eval.for_color(s.mover).mate if s.best_eval else None
    if mate is not None and mate > 0:
        facts.kinds.append(Kind.MATE_MISSED)
        facts.move(best)
        back_rank = back_rank_words(s.board, s.best_line, facts)
        if back_rank:
            return f"Better was {san}, with a back-rank mate in {mate}: {back_rank}"
        return f"Better was {san}, with mate in {mate}"
    facts.move(best)
    detail = (
        free_piece(s, best, facts)
        or fork_missed(s, best, facts)
        or pin_missed(s, best, facts)
        or material_missed(s, facts)
    )
    shown = f" ({s.best_eval.text()})" if s.best_eval else ""
    return f"Better was {san}{detail}{shown}"


def free_piece(s: Situation, best: Move, facts: Facts) -> str:
    """The best move takes a piece that nothing can take back (and the move played did not)."""
    board, target = s.board, best.to_square
    code = board.board[target]
    if not code or s.played.to_square == target or board.is_en_passant(best):
        return ""
    assert s.after_best is not None  # there is a best move
    after = s.after_best[0]
    if make_threat_map(after).attackers[s.mover ^ 1][target]:
        return ""
    packed = board.find_packed(best)
    assert packed is not None
    if exchange_on_target(board, packed)[0] < SEE_VALUES[code & 7]:
        return ""  # a promotion's gain aside, a free capture wins the whole piece
    facts.kinds.append(Kind.FREE_PIECE_MISSED)
    facts.squares.append(target)
    facts.unattacked.append(NoAttackerFact(after.fen(), target, s.mover ^ 1))
    return f", taking {facts.piece(board, target)} for nothing"


def fork_missed(s: Situation, best: Move, facts: Facts) -> str:
    assert s.after_best is not None  # there is a best move
    after, change = s.after_best
    forks = [f for f in change.forks if f.origin == best.to_square]
    if not forks:
        return ""
    facts.kinds.append(Kind.FORK_MISSED)
    return f", forking {forked(after, forks[0], facts)}"


def pin_missed(s: Situation, best: Move, facts: Facts) -> str:
    assert s.after_best is not None  # there is a best move
    after, change = s.after_best
    made = [p for p in change.pins_created if p.pinner == best.to_square]
    if not made:
        return ""
    line = made[0]
    facts.kinds.append(Kind.PIN_MISSED)
    return f", pinning {pin_words(after, line.pinner, line.pinned, line.target, facts)}"


def material_missed(s: Situation, facts: Facts) -> str:
    """The best line wins material for good: what, and the moves up to where it is won."""
    gain = find_gain(s)
    if gain is None or len(gain.moves) > SHOWN_PLIES or not ends_worse(s):
        return ""  # none, too far, or the move played ends with as much material
    facts.kinds.append(Kind.MATERIAL_MISSED)
    what = record_fall(s.board, gain, s.mover ^ 1, facts)
    moves = facts.line(s.board, gain.moves)
    return f", which wins {what}" + (f": {moves}" if len(gain.moves) > 1 else "")
