"""Multi-PV analysis: the best few lines of a position, each with its exact score, deepening.

`analyse` drives a `Searcher` iteration by iteration, as engines do multi-PV: at each depth one
root search keeps the best K moves (`Searcher.iterate_lines`): the first K are searched with the
full window, each later move with a null window at the K-th best score and fully only when it
beats it, so every line's score is exact and comes with its principal variation, and each other
move is proved worse once (K root searches, each without the better lines' moves, cost 1.2
times the nodes). The transposition table carries what one depth learnt to the next, and the
root moves keep their order (the lines first, in rank order), so each depth tries the likely
best moves first; with one line, each depth is exactly the game search's iteration. An update
goes to `on_update` after every finished depth, and a last one with `done=True` when the search
ends: at its depth limit, at its time or node limit, on `cancel`, or once every line is a mate
the search has seen to its end. A stopped depth is thrown away: the lines reported are those of
the deepest finished depth, save depth 1 cut short by the clock or the node budget, which gives
the root moves it finished (or, when none, the best by their static score) so that a time limit
however short still gives lines; on `cancel` or `stop()` an unfinished depth 1 gives none.

Scores are from White's point of view (`Score`), whoever is to move: centipawns, or moves to
mate (positive: White mates). A side to move with no legal move (mate, stalemate) has no lines.

>>> from chesscore import Board
>>> board = Board.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
>>> result = analyse(board, SearchLimits(depth=2), multipv=2)
>>> [(line.moves[0].uci(), line.score.mate) for line in result.lines][:1]
[('a1a8', 1)]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from chesscore.engine.search import MATE, Searcher, SearchInfo, SearchLimits, StopSignal
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import WHITE


@dataclass(frozen=True)
class Score:
    """A line's score from White's point of view: centipawns, or moves to mate (`cp` None).

    `mate` > 0: White mates in that many moves; < 0: Black does. Never 0: a side already
    mated has no lines at all.
    """

    cp: int | None
    mate: int | None

    def text(self) -> str:
        """As analysis boards write it: "+0.34", "-1.20", "#3", "#-2"."""
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{(self.cp or 0) / 100:+.2f}"


@dataclass(frozen=True)
class Line:
    """One principal variation: its rank (1 = best), its score, its legal moves from the root."""

    rank: int
    score: Score
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Analysis:
    """What the analysis knows: the lines of its deepest finished depth, and its effort."""

    depth: int
    nodes: int
    seconds: float
    lines: tuple[Line, ...]
    done: bool


UpdateCallback = Callable[[Analysis], None]


def analyse(
    board: Board,
    limits: SearchLimits,
    multipv: int = 3,
    on_update: UpdateCallback | None = None,
    cancel: StopSignal | None = None,
    searcher: Searcher | None = None,
) -> Analysis:
    """The best `multipv` lines of `board` (left unchanged), deepening within `limits`.

    Fewer lines come back when the position has fewer legal moves. `searcher` (with its
    tables) may be handed in to keep what it learnt; `cancel`, when given, becomes its stop
    signal. Raises ValueError for a `multipv` below 1.
    """
    if multipv < 1:
        raise ValueError(f"multipv must be at least 1, got {multipv}")
    if searcher is None:
        searcher = Searcher(cancel)
    elif cancel is not None:
        searcher.cancel = cancel
    white_to_move = board.turn == WHITE
    order, start = searcher.begin(board, limits)
    count = min(multipv, len(order))
    result = Analysis(0, 0, 0.0, (), False)
    if not count:  # mate or stalemate: nothing to search
        return _finish(result, searcher, start, on_update)
    for depth in range(1, max(1, limits.depth) + 1):
        infos = searcher.iterate_lines(depth, order, count, start)
        if not infos:  # stopped
            break
        lines = tuple(_make_line(rank, info, white_to_move) for rank, info in enumerate(infos, 1))
        result = Analysis(depth, searcher.nodes, time.monotonic() - start, lines, False)
        if on_update is not None:
            on_update(result)
        if infos[0].stopped or _all_mates_seen(infos, depth):
            break
    return _finish(result, searcher, start, on_update)


def _finish(
    result: Analysis, searcher: Searcher, start: float, on_update: UpdateCallback | None
) -> Analysis:
    """The last update: the deepest lines, the whole effort, `done`."""
    final = Analysis(result.depth, searcher.nodes, time.monotonic() - start, result.lines, True)
    if on_update is not None:
        on_update(final)
    return final


def _make_line(rank: int, info: SearchInfo, white_to_move: bool) -> Line:
    sign = 1 if white_to_move else -1
    mate = info.mate_in
    score = Score(None, sign * mate) if mate is not None else Score(sign * info.score, None)
    return Line(rank, score, tuple(info.pv))


def _all_mates_seen(infos: list[SearchInfo], depth: int) -> bool:
    """True when every line is a mate within the plies searched: deeper finds nothing new."""
    return all(info.mate_in is not None and depth >= MATE - abs(info.score) for info in infos)
