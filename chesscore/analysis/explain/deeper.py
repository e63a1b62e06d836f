"""A fork further down the opponent's line: the tactic that wins the material, when it comes
after some quiet moves.

The material clause (chesscore.analysis.explain.refutation) reads the opponent's line to its
end; an engine's line often wins material with a fork a few moves in, then gives some back
for an attack, and ends level. A coach still says what the fork wins: "allows a fork: after
… gxf6 Nxf6 Ne5 Qc7, Ng6+ forks the king on h8 and the rook on e7 and wins the exchange
(Ng6+ Kg8 Nxe7+ Qxe7)". `fork_in_line` finds the first move of the opponent within
`SHOWN_PLIES` of the line that forks pieces of the mover, one of which the line then takes,
and reads the material where that exchange settles (`EXCHANGE_PLIES` at most after the fork):
told when the fork itself wins at least `LEAST_WON` pawns and the mover is then down more than
the best line from the position before leaves it at the same depth. Its claims: the material
up to there, and the fork.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.explain.claims import (
    ClaimKind,
    balance,
    is_cashed,
    make_claim,
    material_claim,
    read_material,
)
from chesscore.analysis.explain.facts import QUOTED_PLIES, Facts, Kind
from chesscore.analysis.explain.lines import SHOWN_PLIES, loss_words
from chesscore.analysis.explain.refutation import best_line, refutation_line
from chesscore.analysis.explain.situation import change_of
from chesscore.analysis.explain.tactics import forked
from chesscore.analysis.threats import make_threat_map

if TYPE_CHECKING:
    from chesscore.analysis.explain.claims import Material
    from chesscore.analysis.explain.situation import Situation
    from chesscore.analysis.insight import Fork
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

EXCHANGE_PLIES = 4  # the fork, the answer, the capture and the recapture
LEAST_WON = 2  # the exchange or more: a fork that wins a pawn is not the story


def fork_in_line(s: Situation, facts: Facts) -> str:
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
            if text:
                return text
        board.push(move)
    return ""


def _fork_at(s: Situation, line: tuple[Move, ...], index: int, board: Board, facts: Facts) -> str:
    """The fork made by `line[index]` played on `board`, told when it wins (module docstring)."""
    after, change = change_of(board, line[index], make_threat_map(board))
    forks = [f for f in change.forks if f.origin == line[index].to_square]
    at = index + 1
    if not forks or not any(is_cashed(s.board, line, at, t) for t in forks[0].targets):
        return ""
    cut = line[: at + EXCHANGE_PLIES]
    won = read_material(s.board, cut, s.mover)
    if won.length <= at or balance(board, s.mover) - balance(won.end, s.mover) < LEAST_WON:
        return ""
    best = best_line(s)[: won.length]
    if won.points < 1 or won.points <= read_material(s.board, best, s.mover).points:
        return ""
    return _told(s, line[: won.length], at, forks[0], after, facts, won)


def _told(
    s: Situation,
    line: tuple[Move, ...],
    at: int,
    fork: Fork,
    after: Board,
    facts: Facts,
    won: Material,
) -> str:
    """The sentence and the claims of a fork at ply `at` of `line` that wins `won`."""
    facts.kinds.append(Kind.FORK_ALLOWED)
    facts.claims.append(material_claim(s.board, line, s.mover, won))
    squares = (fork.origin, *fork.targets)
    facts.claims.append(make_claim(ClaimKind.FORK, s.mover, s.board, line, at=at, squares=squares))
    # The moves just before the fork are quoted (those that bring the forking piece), the
    # earlier ones left to the board.
    first = max(1, at - 1 - QUOTED_PLIES)
    lead_board = s.after.copy()
    for move in line[1:first]:
        lead_board.push(move)
    before_fork = lead_board.copy()
    for move in line[first : at - 1]:
        before_fork.push(move)
    facts.move(line[at - 1])
    lead = ("… " if first > 1 else "") + facts.line(lead_board, line[first : at - 1])
    fork_san = before_fork.san(line[at - 1])
    targets = forked(after, fork, facts)
    shown = facts.quote(before_fork, line[at - 1 :])
    what = loss_words(won.lost, won.gained)
    return f"allows a fork: after {lead}, {fork_san} forks {targets} and wins {what} ({shown})"
