"""The first sentence: what the opponent's line after the move shows, and its idea in words.

The line it rests on is the move played and the opponent's best line after it, read from the
position before the move (`refutation_line`). In order:

- *stalemate*: the move leaves no legal move and no check;
- *mate allowed*: the line ends in mate ("walks into mate in 3: Qxh7+ Kf8 Qh8+ …"), its
  length counted on the board, never taken from the evaluation alone;
- *material*: by the line's end the mover has lost material, counted both ways ("loses a
  knight for a pawn", "loses the exchange"), and more than the best line from the position
  before loses; told with the idea of the line when one of chesscore's facts about its first
  moves is cashed in by the line (the piece it names is taken in it): a losing capture, a
  hanging piece, a fork, a discovered attack, a pin, a trapped piece, a defender removed or
  overloaded, a pawn promoted (`IDEAS`);
- else one named factor (chesscore.analysis.explain.factors).

Every statement is a claim (chesscore.analysis.explain.claims) beside the text; lines in the
text are at most `QUOTED_PLIES` (facts) long, the rest is left to the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.claims import (
    Claim,
    ClaimKind,
    Material,
    is_cashed,
    make_claim,
    mated_in,
    material_claim,
    read_material,
)
from chesscore.analysis.explain.defenders import defender_removed, overloaded
from chesscore.analysis.explain.facts import QUOTED_PLIES, Facts, Kind
from chesscore.analysis.explain.lines import loss_words
from chesscore.analysis.explain.material import hanging, losing_capture, trapped
from chesscore.analysis.explain.mating import back_rank_words
from chesscore.analysis.explain.nouns import MATERIAL
from chesscore.analysis.explain.pawns import promotion_allowed
from chesscore.analysis.explain.situation import LINE_PLIES
from chesscore.analysis.explain.tactics import discovered, fork_allowed, pin
from chesscore.words import ENGLISH, Message, render, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.move import Move

# A clause says its finding as a message with a `{move}` placeholder (the move played, put
# in by the caller), or None when it does not hold.
Clause = Callable[["Situation", Facts], Message | None]

# The ideas tried on the line's first moves, in order: the first the line cashes in is told.
IDEAS: tuple[Clause, ...] = (
    losing_capture,
    hanging,
    fork_allowed,
    discovered,
    pin,
    trapped,
    defender_removed,
    overloaded,
    promotion_allowed,
)


def refutation_line(s: Situation) -> tuple[Move, ...]:
    """The move played and the opponent's line after it (at most `LINE_PLIES` of it)."""
    return (s.played, *s.reply_line[:LINE_PLIES])


def best_line(s: Situation) -> tuple[Move, ...]:
    """The engine's best line from the position before the move, read as far as the other."""
    return tuple(s.best_line[: LINE_PLIES + 1])


def mate_walked_into(s: Situation, facts: Facts) -> Message | None:
    """The opponent's line ends in mate: its length, its first moves."""
    mate = mated_in(s.after, s.reply_line, s.mover)
    if mate is None:
        return None
    facts.kinds.append(Kind.MATE_ALLOWED)
    facts.claims.append(make_claim(ClaimKind.MATE, s.mover, s.after, s.reply_line, mate=mate))
    assert s.reply is not None
    facts.move(s.reply)
    if len(s.reply_line) <= QUOTED_PLIES:
        back_rank = back_rank_words(s.after, s.reply_line, facts)
        if back_rank:
            return say("{move} allows a back-rank mate in {mate}: {how}", mate=mate, how=back_rank)
    line = facts.quote(s.after, s.reply_line, mate=True)
    return say("{move} walks into mate in {mate}: {line}", mate=mate, line=line)


def material_lost(s: Situation, facts: Facts) -> Message | None:
    """By the line's end the mover is down material, more than the best line leaves it."""
    line = refutation_line(s)
    lost = read_material(s.board, line, s.mover)
    # The best line read as far, and to its end (the engine's lines end anywhere, often
    # inside a tactic): the move loses more than the better of the two.
    best = best_line(s)
    kept = min(
        read_material(s.board, best[: max(lost.length, 2)], s.mover).points,
        read_material(s.board, best, s.mover).points,
    )
    if lost.points < 1 or lost.points <= kept or lost.length < 1:
        return None
    cited = line[: lost.length]
    facts.claims.append(material_claim(s.board, cited, s.mover, lost))
    what = material_words(lost, cited)
    idea = find_idea(s, cited, facts)
    if s.reply is not None:
        facts.move(s.reply)
    rest = cited[1:]
    shown = facts.quote(s.after, rest) if rest else ""
    if idea:
        # The line is quoted unless the idea names it already (its moves are the same in
        # every language).
        if shown in render(idea, ENGLISH):
            return say("{move} loses {lost}: it {idea}", lost=what, idea=idea)
        return say("{move} loses {lost}: it {idea} ({line})", lost=what, idea=idea, line=shown)
    facts.kinds.append(Kind.MATERIAL_LINE)
    if shown:
        return say("{move} loses {lost}: {line}", lost=what, line=shown)
    return say("{move} loses {lost}", lost=what)


def material_words(material: Material, line: Sequence[Move]) -> Message:
    """ "a knight for a pawn", "the exchange": the side's loss counted both ways."""
    if any(move.promotion for move in line):
        return MATERIAL  # a promoted pawn is no piece taken: counted in points only
    return loss_words(material.lost, material.gained)


def find_idea(s: Situation, line: Sequence[Move], facts: Facts) -> Message | None:
    """The first idea of `IDEAS` that the `line` (from the position before the move) cashes
    in, entered in `facts` with its claim; None when none."""
    for clause in IDEAS:
        scratch = Facts()
        text = clause(s, scratch)
        if text is None:
            continue
        claim = motif_claim(s, scratch, line)
        if claim is None:
            continue
        merge(facts, scratch)
        facts.claims.append(claim)
        return text
    return None


def motif_claim(s: Situation, found: Facts, line: Sequence[Move]) -> Claim | None:
    """The claim of the idea `found` (a clause's facts) when `line` cashes it in."""
    kind, board = found.kinds[0], s.board

    def cashed(at: int, *squares: int) -> bool:
        return any(is_cashed(board, line, at, square) for square in squares)

    if kind in (Kind.LOSING_CAPTURE, Kind.HANGING):
        target = found.squares[0]
        if not cashed(1, target):
            return None
        return make_claim(ClaimKind.CAPTURE, s.mover, board, line, at=1, squares=(target,))
    if kind == Kind.FORK_ALLOWED:
        origin, *targets = found.squares[:3]
        if len(line) < 2 or not cashed(2, *targets):
            return None
        squares = (origin, *targets)
        return make_claim(ClaimKind.FORK, s.mover, board, line, at=2, squares=squares)
    if kind == Kind.DISCOVERED_ATTACK_ALLOWED:
        attack = found.attacks[0]
        if len(line) < 2 or not cashed(2, attack.target):
            return None
        squares = (attack.origin, attack.target)
        return make_claim(ClaimKind.DISCOVERED, s.mover, board, line, at=2, squares=squares)
    if kind == Kind.PIN_ALLOWED:
        fact = found.pins[0]
        at = 1 if fact.fen == s.after.fen() else 2
        if len(line) < at or not cashed(at, fact.pinned, fact.target):
            return None
        squares = (fact.pinner, fact.pinned, fact.target)
        return make_claim(ClaimKind.PIN, s.mover, board, line, at=at, squares=squares)
    if kind == Kind.TRAPPED_PIECE:
        square = found.trapped[0].square
        if len(line) < 2 or not cashed(2, square):
            return None
        return make_claim(ClaimKind.TRAPPED, s.mover, board, line, at=2, squares=(square,))
    if kind in (Kind.DEFENDER_REMOVED, Kind.OVERLOADED_DEFENDER):
        return _defender_claim(s, found, line)
    if kind == Kind.PROMOTION_ALLOWED:
        return _promotion_claim(s, line)
    return None


def _defender_claim(s: Situation, found: Facts, line: Sequence[Move]) -> Claim | None:
    """A defender removed or overloaded: the defended piece falls in the line."""
    for fact in found.defenders:
        if is_cashed(s.board, line, 1, fact.square):
            squares = (fact.origins[0], fact.square)
            return make_claim(ClaimKind.DEFENDER, s.mover, s.board, line, at=1, squares=squares)
    return None


def _promotion_claim(s: Situation, line: Sequence[Move]) -> Claim | None:
    """The opponent's pawn promotes within the line."""
    for index, move in enumerate(line):
        if move.promotion and index % 2 == 1:
            squares = (move.to_square,)
            return make_claim(
                ClaimKind.PROMOTION, s.mover, s.board, line, at=index + 1, squares=squares
            )
    return None


def merge(facts: Facts, found: Facts) -> None:
    """Enter what a clause found into `facts`."""
    for name in Facts.__slots__:
        getattr(facts, name).extend(getattr(found, name))
