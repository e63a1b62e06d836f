"""A fork further down the opponent's line: the tactic that wins the material, when it comes
after some quiet moves.

The material clause (chesscore.analysis.explain.refutation) reads the opponent's line to its
end; an engine's line often wins material with a fork a few moves in, then gives some back
for an attack, and ends level. A coach still says what the fork wins: "allows a fork: after
… gxf6 Nxf6 Ne5 Qc7, Ng6+ forks the king on h8 and the rook on e7 and wins the exchange
(Ng6+ Kg8 Nxe7+ Qxe7)". `fork_in_line` finds the first move of the opponent within
`SHOWN_PLIES` of the line that forks pieces of the mover, one of which the line then takes,
and reads the material where that exchange settles (`EXCHANGE_PLIES` at most from the fork):
told when what falls after the fork is worth at least `LEAST_WON` pawns and the mover is then
down more than the best line from the position before leaves it at the same depth. Its claims:
the material up to there from the position before the move, the fork, and the material its
exchange wins (what the text tells).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.claims import (
    ClaimKind,
    is_cashed,
    make_claim,
    material_claim,
    read_material,
)
from chesscore.analysis.explain.facts import QUOTED_PLIES, Facts, Kind
from chesscore.analysis.explain.lines import SHOWN_PLIES
from chesscore.analysis.explain.refutation import best_line, material_words, refutation_line
from chesscore.analysis.explain.situation import change_of
from chesscore.analysis.explain.tactics import forked
from chesscore.analysis.threats import make_threat_map
from chesscore.words import Message, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.claims import Material
    from chesscore.analysis.explain.situation import Situation
    from chesscore.analysis.insight import Fork
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

EXCHANGE_PLIES = 4  # the fork, the answer, the capture and the recapture: all quoted
LEAST_WON = 2  # the exchange or more: a fork that wins a pawn is not the story


def fork_in_line(s: Situation, facts: Facts) -> Message | None:
    """The first fork of the opponent's line that wins material (module docstring)."""
    line = refutation_line(s)
    board = s.board.copy()
    board.push(s.played)
    # The opponent's moves are the odd plies of the line; the first is the reply, whose
    # fork the material clause already tells.
    for index in range(1, min(len(line), SHOWN_PLIES + 1)):
        move = line[index]
        if index % 2 == 1 and index > 1:
            text = _fork_at(s, line, index, board, facts)
            if text is not None:
                return text
        board.push(move)
    return None


def _fork_at(
    s: Situation, line: tuple[Move, ...], index: int, board: Board, facts: Facts
) -> Message | None:
    """The fork made by `line[index]` played on `board`, told when it wins (module docstring)."""
    after, change = change_of(board, line[index], make_threat_map(board))
    forks = [f for f in change.forks if f.origin == line[index].to_square]
    if not forks:
        return None
    at = index + 1
    # The line up to where the fork's exchange settles, counted from the position before the
    # move as every material claim is (the better move's sentence reads the best line as
    # far), against the best line as far.
    so_far = read_material(s.board, line[: index + EXCHANGE_PLIES], s.mover)
    cut = line[: so_far.length]
    if so_far.length <= at or so_far.points < 1:
        return None
    if so_far.points <= read_material(s.board, best_line(s)[: so_far.length], s.mover).points:
        return None
    # The fork wins it: a forked piece falls before the line is cut, and what falls after the
    # fork (not what the forking move took on its way) is worth the exchange or more.
    if not any(is_cashed(s.board, cut, at, target) for target in forks[0].targets):
        return None
    if read_material(after, cut[at:], s.mover).points < LEAST_WON:
        return None
    return _told(s, cut, index, board, forks[0], after, so_far, facts)


def _told(
    s: Situation,
    line: tuple[Move, ...],
    index: int,
    board: Board,
    fork: Fork,
    after: Board,
    so_far: Material,
    facts: Facts,
) -> Message:
    """The sentence and the claims of the fork `line[index]`, played on `board`, after which
    the mover has lost `so_far` by the end of `line` (from the position before the move)."""
    facts.kinds.append(Kind.FORK_ALLOWED)
    facts.claims.append(material_claim(s.board, line, s.mover, so_far))
    # The text tells what the fork's own exchange wins, from the position before the fork.
    exchange = read_material(board, line[index:], s.mover)
    facts.claims.append(material_claim(board, line[index:], s.mover, exchange))
    squares = (fork.origin, *fork.targets)
    claim = make_claim(ClaimKind.FORK, s.mover, s.board, line, at=index + 1, squares=squares)
    facts.claims.append(claim)
    # The moves just before the fork are quoted (those that bring the forking piece), the
    # earlier ones left to the board.
    first = max(1, index - QUOTED_PLIES)
    lead_board = s.after.copy()
    for move in line[1:first]:
        lead_board.push(move)
    lead = ("… " if first > 1 else "") + facts.line(lead_board, line[first:index])
    facts.move(line[index])
    targets = forked(after, fork, facts)
    shown = facts.quote(board, line[index:])
    what = material_words(exchange, line[index:])
    return say(
        "{move} allows a fork: after {lead}, {fork} forks {targets} and wins {lost} ({line})",
        lead=lead,
        fork=board.san(line[index]),
        targets=targets,
        lost=what,
        line=shown,
    )
