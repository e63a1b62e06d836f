"""When the line wins no material and mates no king: the one factor the engine's lines differ in.

Both lines are read from the position before the move to the same length (`COMPARED_PLIES`
at most, an even count, so the mover is to move at both ends), and the first of these that
the played line leaves worse is told, each with a claim per line:

- *passed pawn*: a passed pawn of the opponent runs in the line (chesscore.analysis.explain.
  pawns): "lets the passed pawn on d5 through: d6 Kf2 d7 …";
- *king safety*: along the played line the opponent comes to attack at least `KING_MARGIN`
  more of the squares next to the mover's king than it ever does along the best one (at the
  mover's turns, counted where it attacks the most), when it has the pieces for an attack
  (`ATTACK_MATERIAL`);
- *activity*: the mover has at least `ACTIVITY_MARGIN` fewer legal moves there.

Nothing else is said: no evaluation "goes from A to B" on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import kind_at, on_board
from chesscore.analysis.explain.claims import Claim, ClaimKind, make_claim
from chesscore.analysis.explain.facts import Facts, Kind
from chesscore.analysis.explain.nouns import Place
from chesscore.analysis.explain.pawns import READ_PLIES, passed_pawn
from chesscore.analysis.explain.refutation import best_line, refutation_line
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import KING, PAWN, QUEEN_DIRECTIONS, WHITE
from chesscore.words import Message, say

if TYPE_CHECKING:
    from chesscore.analysis.explain.situation import Situation
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move
    from chesscore.rules.squares import Color

COMPARED_PLIES = 12
KING_MARGIN = 2
ACTIVITY_MARGIN = 6
ATTACK_MATERIAL = 9  # no king safety to speak of against less (an endgame)


def factor_sentence(s: Situation, facts: Facts) -> Message | None:
    """The first factor the played line leaves worse (module docstring), or None."""
    found = _passed(s, facts)
    if found is not None:
        return found
    played, best = refutation_line(s), best_line(s)
    length = min(len(played), len(best), COMPARED_PLIES) // 2 * 2
    if length < 2 or s.best is None:
        return None
    played, best = played[:length], best[:length]
    exposed_at, exposed = most_pressure(s.board, played, s.mover)
    sheltered_at, sheltered = most_pressure(s.board, best, s.mover)
    if len(exposed) >= len(sheltered) + KING_MARGIN and attackers_left(s.board, s.mover ^ 1):
        facts.claims.append(_zone_claim(s.board, played[:exposed_at], s.mover, exposed))
        facts.claims.append(_zone_claim(s.board, best[:sheltered_at], s.mover, sheltered))
        facts.kinds.append(Kind.KING_SAFETY)
        end = _end(s.board, played[:exposed_at])
        king = facts.piece(end, end.king_square(s.mover), Place.NEXT_TO)
        return say(
            "{move} costs king safety: after {line}, {count} squares next to {king} are "
            "attacked, {sheltered} after {best}",
            line=facts.quote(s.after, played[1:exposed_at]),
            count=len(exposed),
            king=king,
            sheltered=len(sheltered),
            best=facts.quote(s.board, best[:sheltered_at]),
        )
    # Moves are counted where neither side is in check (a check leaves a few moves at most).
    while length and (_end(s.board, played).is_check() or _end(s.board, best).is_check()):
        length -= 2
        played, best = played[:length], best[:length]
    if not length:
        return None
    end_played, end_best = _end(s.board, played), _end(s.board, best)
    cramped, free = len(end_played.legal_moves()), len(end_best.legal_moves())
    if cramped <= free - ACTIVITY_MARGIN:
        for line, count in ((played, cramped), (best, free)):
            facts.claims.append(make_claim(ClaimKind.ACTIVITY, s.mover, s.board, line, count=count))
        facts.kinds.append(Kind.ACTIVITY)
        after, shown = facts.quote(s.after, played[1:]), facts.quote(s.board, best)
        if s.mover == WHITE:
            return say(
                "{move} costs activity: after {line}, White has {cramped} moves, {free} after "
                "{best}",
                line=after,
                cramped=cramped,
                free=free,
                best=shown,
            )
        return say(
            "{move} costs activity: after {line}, Black has {cramped} moves, {free} after {best}",
            line=after,
            cramped=cramped,
            free=free,
            best=shown,
        )
    return None


def _passed(s: Situation, facts: Facts) -> Message | None:
    scratch = Facts()
    text = passed_pawn(s, scratch)
    if text is None:
        return None
    for name in Facts.__slots__:
        getattr(facts, name).extend(getattr(scratch, name))
    origin, goal = scratch.passed[0].square, scratch.squares[-1]
    # The line up to the pawn's last step: it is told standing there.
    steps = [i for i, move in enumerate(s.reply_line[:READ_PLIES]) if move.to_square == goal]
    line = (s.played, *s.reply_line[: steps[-1] + 1])
    facts.claims.append(
        make_claim(ClaimKind.PASSED_PAWN, s.mover, s.board, line, at=1, squares=(origin, goal))
    )
    return text


def attackers_left(board: Board, color: Color) -> bool:
    """Whether `color` has the pieces to attack a king: pieces other than pawns worth at
    least `ATTACK_MATERIAL` (a queen; two rooks; a rook and two minor pieces...)."""
    kinds = [kind_at(board, sq) for sq in board.piece_squares[color]]
    worth = sum(PIECE_VALUES[kind] for kind in kinds if kind not in (PAWN, KING))
    return worth >= ATTACK_MATERIAL


def _end(board: Board, line: Sequence[Move]) -> Board:
    end = board.copy()
    for move in line:
        end.push(move)
    return end


def king_zone_attacks(board: Board, color: Color) -> tuple[int, ...]:
    """The squares next to `color`'s king that the other side attacks, in 0x88 order."""
    king = board.king_square(color)
    attackers = make_threat_map(board).attackers[color ^ 1]
    zone = [king + step for step in QUEEN_DIRECTIONS if on_board(king + step)]
    return tuple(sorted(sq for sq in zone if attackers[sq]))


def most_pressure(board: Board, line: Sequence[Move], color: Color) -> tuple[int, tuple[int, ...]]:
    """Where along the legal `line` from `board` (`color` to move there, and again after
    every second move) the other side attacks the most squares next to `color`'s king, after
    at least one move of each side: the count of moves to there, and those squares (the first
    such place)."""
    best_at, best = 0, tuple[int, ...]()
    replay = board.copy()
    for index, move in enumerate(line, 1):
        replay.push(move)
        if index % 2 == 0:
            squares = king_zone_attacks(replay, color)
            if not best_at or len(squares) > len(best):
                best_at, best = index, squares
    return best_at, best


def _zone_claim(
    board: Board, line: Sequence[Move], color: Color, squares: tuple[int, ...]
) -> Claim:
    return make_claim(
        ClaimKind.KING_SAFETY, color, board, line, squares=squares, count=len(squares)
    )
