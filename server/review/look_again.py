"""The deeper look before a `?` or `??` (issue 31): a Stockfish review's positions around a ply
that would be marked a mistake or a blunder are searched again, deeper, before it is marked.

At the review's node budget a position's search sometimes misses what the next one sees (a
threat just past its horizon), and the ply between them shows a drop that a deep search does
not: most false `??` of the first pass fall in positions already lost, where the short search
of the position before the move still saw a fight. So `LookAgain` holds what a review job knows
(each position's evaluation, and which have been searched again), and whenever positions get
new numbers it judges the plies beside them; a ply that would be marked `?` or `??` has its two
positions searched again at `AGAIN_FACTOR` times the nodes (on the job's warm engine, whose
hash still holds the first search), the deeper numbers replace the first ones, and the plies
beside a position searched again are judged again (a deeper position may make its other
neighbour a mark too, which is then searched again in turn). A ply is marked only on numbers
both of whose positions were searched again, or when the review's share of deeper searches
(`AGAIN_SHARE` of its positions: a game of blunders on every move stays within its time) is
spent. The judging itself is chesscore.review's (`is_marked_mistake`), the searching the job's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from chesscore.review.evaluate import PositionEval
from chesscore.review.judge import is_marked_mistake
from chesscore.rules.board import Board
from chesscore.rules.move import Move

# The deeper search: this many times the review's nodes a position (900,000 at the default
# 300,000; lichess's fishnet gives a requested analysis about 1,000,000), measured by
# bench/review_again.py.
AGAIN_FACTOR = 3
# At most this share of a review's positions is searched again (an 80-ply game: 25 positions,
# about 12 marks), so a review's time stays within twice its first pass.
AGAIN_SHARE = 0.3

Search = Callable[[int], PositionEval | None]


def most_searched_again(positions: int) -> int:
    """How many of a review's `positions` may be searched again."""
    return math.ceil(AGAIN_SHARE * positions)


class LookAgain:
    """A review's positions (`boards`, index 0 the start), its moves, the evaluations known so
    far (`evals`, by index, updated in place) and those already searched again (`verified`);
    `search` searches a position again deeper (None when it was cancelled); `on_look` hears
    of each ply about to be looked at again (a job sends it at once, its mark held back)."""

    def __init__(
        self,
        boards: Sequence[Board],
        moves: Sequence[Move],
        evals: dict[int, PositionEval],
        verified: Iterable[int],
        search: Search,
        on_look: Callable[[int], None] | None = None,
    ) -> None:
        self.boards = boards
        self.moves = moves
        self.evals = evals
        self.verified = set(verified)
        self.search = search
        self.on_look = on_look
        self.most = most_searched_again(len(boards))

    def settle(self, changed: Iterable[int]) -> list[int] | None:
        """The positions `changed` got new numbers: the plies beside them (those whose two
        positions are known) are judged, and searched again as the module says. The plies
        whose numbers are now final, in order (each to be judged and sent), or None when a
        search was cancelled."""
        waiting = {ply for index in changed for ply in (index, index + 1) if self._known(ply)}
        done: set[int] = set()
        while waiting:
            ply = min(waiting)
            waiting.discard(ply)
            done.add(ply)
            again = self._to_search(ply)
            if again and self.on_look is not None:
                self.on_look(ply)
            for index in again:
                found = self.search(index)
                if found is None:
                    return None
                self.evals[index] = found
                self.verified.add(index)
                waiting.update(p for p in (index, index + 1) if self._known(p))
        return sorted(done)

    def _known(self, ply: int) -> bool:
        return 1 <= ply <= len(self.moves) and ply - 1 in self.evals and ply in self.evals

    def _to_search(self, ply: int) -> list[int]:
        """The positions of `ply` to search again: those not yet searched again, when the
        ply would be marked and the review's share allows both."""
        left = [index for index in (ply - 1, ply) if index not in self.verified]
        if not left or len(self.verified) + len(left) > self.most:
            return []
        before, after = self.evals[ply - 1], self.evals[ply]
        if not is_marked_mistake(self.boards[ply - 1], self.moves[ply - 1], before, after):
            return []
        return left
