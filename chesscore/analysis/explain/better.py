"""The second sentence: what was better, and the point of it in the engine's best line.

"Better was" the best move, then the first of what its line shows (from the position before
the move, read as far as `LINE_PLIES` plies):

- *mate missed*: the line ends in mate ("with mate in 2: Qxh7+ Kf8 Qh8#"; told as a back-rank
  mate when it ends in one);
- *material missed*: by its end the opponent is down material, counted both ways, more than
  after the move played ("which wins a knight for a pawn: Nxe5 dxe5 Qd5+ …"), with the tactic
  that wins it when the line cashes it in: a piece taken for nothing (*free piece not taken*),
  a fork (*fork missed*), a pin (*pin missed*);
- *material kept*: the move played loses material (the first sentence's claim) and the best
  line loses at least two pawns' worth less, and at most `KEPT_MOST` ("which loses nothing",
  "which loses only a pawn");

then the best line's evaluation in brackets ("+0.4", "#3"). Each of these is a claim on the
best line (chesscore.analysis.explain.claims).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import kind_of
from chesscore.analysis.explain.claims import (
    ClaimKind,
    Material,
    is_cashed,
    make_claim,
    mated_in,
    material_claim,
    read_material,
)
from chesscore.analysis.explain.facts import QUOTED_PLIES, Facts, Kind, NoAttackerFact
from chesscore.analysis.explain.lines import loss_words
from chesscore.analysis.explain.mating import back_rank_words
from chesscore.analysis.explain.refutation import (
    best_line,
    material_words,
    merge,
    refutation_line,
)
from chesscore.analysis.explain.tactics import forked, pin_words
from chesscore.analysis.see import SEE_VALUES, exchange_on_target
from chesscore.analysis.threats import make_threat_map
from chesscore.words import Message, say, say_in

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.move import Move

KEPT_MOST = 2  # the most a best line may lose to be told as "loses only"


def better_sentence(s: Situation, facts: Facts) -> Message | None:
    """The second sentence (module docstring), with a `{best}` placeholder filled here."""
    best = s.best
    if best is None or best == s.played:
        return None
    san = s.board.san(best)
    facts.move(best)
    line = best_line(s)
    mate = mated_in(s.board, line, s.mover ^ 1)
    if mate is not None:
        return _mate_missed(s, line, mate, facts).with_values(best=san)
    gain = read_material(s.board, line, s.mover ^ 1)
    given = read_material(s.board, refutation_line(s)[: max(gain.length, 2)], s.mover ^ 1)
    if gain.points >= 1 and gain.points > given.points and gain.length:
        sentence = _material_missed(s, gain, facts).with_values(best=san)
    else:
        sentence = _material_kept(s, facts).with_values(best=san)
    if not s.best_eval:
        return sentence
    return say_in(
        "the evaluation after a sentence",
        "{sentence} ({evaluation})",
        sentence=sentence,
        evaluation=s.best_eval.text(),
    )


def _mate_missed(s: Situation, line: tuple[Move, ...], mate: int, facts: Facts) -> Message:
    facts.kinds.append(Kind.MATE_MISSED)
    facts.claims.append(make_claim(ClaimKind.MATE, s.mover ^ 1, s.board, line, mate=mate))
    if len(line) <= QUOTED_PLIES:
        back_rank = back_rank_words(s.board, line, facts)
        if back_rank is not None:
            return say(
                "Better was {best}, with a back-rank mate in {mate}: {how}",
                mate=mate,
                how=back_rank,
            )
    if len(line) == 1:
        facts.line(s.board, line, mate=True)
        return say("Better was {best}, with mate in {mate}", mate=mate)
    shown = facts.quote(s.board, line, mate=True)
    return say("Better was {best}, with mate in {mate}: {line}", mate=mate, line=shown)


def _material_missed(s: Situation, gain: Material, facts: Facts) -> Message:
    """ "Better was {best}, forking the king on e8 and the rook on a8, which wins the exchange:
    Nc7+ Kd8 Nxa8"."""
    line = best_line(s)[: gain.length]
    facts.claims.append(material_claim(s.board, line, s.mover ^ 1, gain))
    idea = _best_idea(s, line, facts)
    facts.kinds.append(Kind.MATERIAL_MISSED)
    what = material_words(gain, line)
    if idea is not None and len(line) == 1:
        return say("Better was {best}, {idea}", idea=idea)  # "taking the queen ... for nothing"
    shown = facts.quote(s.board, line)
    if idea is not None:
        return say(
            "Better was {best}, {idea}, which wins {lost}: {line}", idea=idea, lost=what, line=shown
        )
    return say("Better was {best}, which wins {lost}: {line}", lost=what, line=shown)


def _best_idea(s: Situation, line: tuple[Move, ...], facts: Facts) -> Message | None:
    """The tactic of the best move that its line cashes in, with its claim; None when none."""
    for clause in (free_piece, fork_missed, pin_missed):
        scratch = Facts()
        text = clause(s, scratch)
        if text is None:
            continue
        kind, at, squares, targets = _motif(scratch)
        if not any(is_cashed(s.board, line, at, square) for square in targets):
            continue
        merge(facts, scratch)
        facts.claims.append(make_claim(kind, s.mover ^ 1, s.board, line, at=at, squares=squares))
        return text
    return None


def _motif(found: Facts) -> tuple[ClaimKind, int, tuple[int, ...], tuple[int, ...]]:
    """What a clause of the best move found as a claim: its kind, the ply of the line after
    which it stands, its squares, and the squares of the pieces the line should take."""
    kind = found.kinds[0]
    if kind == Kind.FREE_PIECE_MISSED:
        target = found.squares[0]
        return ClaimKind.CAPTURE, 0, (target,), (target,)
    if kind == Kind.FORK_MISSED:
        origin, *targets = found.squares[:3]
        return ClaimKind.FORK, 1, (origin, *targets), tuple(targets)
    pin = found.pins[0]
    return ClaimKind.PIN, 1, (pin.pinner, pin.pinned, pin.target), (pin.pinned, pin.target)


def _material_kept(s: Situation, facts: Facts) -> Message:
    """The move played loses material and the best line loses less: "which loses nothing"."""
    alone = say("Better was {best}")
    lost = next((c for c in facts.claims if c.kind == ClaimKind.MATERIAL), None)
    if lost is None or lost.color != s.mover:
        return alone
    # Read as far as the losing line was, so that the opponent's answers are in it too.
    line = best_line(s)[: max(len(lost.line), 2)]
    kept = read_material(s.board, line, s.mover)
    # "Which loses only two bishops" would say little: told when it loses a pawn or two less.
    if kept.points > KEPT_MOST or kept.points > lost.points - 2 or len(line) < 2:
        return alone
    kept = read_material(s.board, line[: max(kept.length, 2)], s.mover)
    if kept.length < 2:
        return alone  # cut inside an exchange down to nothing to show
    if mated_in(s.board, line[: kept.length], s.mover) is not None:
        return alone  # a line that ends with the mover mated keeps nothing worth saying
    facts.claims.append(material_claim(s.board, line, s.mover, kept))
    facts.kinds.append(Kind.MATERIAL_KEPT)
    shown = facts.quote(s.board, line[: kept.length])
    if kept.points <= 0:
        return say("Better was {best}, which loses nothing: {line}", line=shown)
    lost_only = loss_words(kept.lost, kept.gained)
    return say("Better was {best}, which loses only {lost}: {line}", lost=lost_only, line=shown)


def free_piece(s: Situation, facts: Facts) -> Message | None:
    """The best move takes a piece that nothing can take back (and the move played did not)."""
    board, best = s.board, s.best
    if best is None:
        return None
    target = best.to_square
    code = board.board[target]
    if not code or s.played.to_square == target or board.is_en_passant(best):
        return None
    assert s.after_best is not None  # there is a best move
    after = s.after_best[0]
    if make_threat_map(after).attackers[s.mover ^ 1][target]:
        return None
    packed = board.find_packed(best)
    assert packed is not None
    if exchange_on_target(board, packed)[0] < SEE_VALUES[kind_of(code)]:
        return None  # a promotion's gain aside, a free capture wins the whole piece
    facts.kinds.append(Kind.FREE_PIECE_MISSED)
    facts.squares.append(target)
    facts.unattacked.append(NoAttackerFact(after.fen(), target, s.mover ^ 1))
    return say("taking {piece} for nothing", piece=facts.piece(board, target))


def fork_missed(s: Situation, facts: Facts) -> Message | None:
    if s.best is None or s.after_best is None:
        return None
    after, change = s.after_best
    forks = [f for f in change.forks if f.origin == s.best.to_square]
    if not forks:
        return None
    facts.kinds.append(Kind.FORK_MISSED)
    return say("forking {targets}", targets=forked(after, forks[0], facts))


def pin_missed(s: Situation, facts: Facts) -> Message | None:
    if s.best is None or s.after_best is None:
        return None
    after, change = s.after_best
    made = [p for p in change.pins_created if p.pinner == s.best.to_square]
    if not made:
        return None
    line = made[0]
    facts.kinds.append(Kind.PIN_MISSED)
    pinned, target = pin_words(after, line.pinner, line.pinned, line.target, facts)
    return say("pinning {pinned} to {target}", pinned=pinned, target=target)
