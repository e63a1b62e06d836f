"""The engine's evaluation of every position of a game, the review's raw material.

A game of N plies has N + 1 positions: index 0 is the start position, index k the position
after ply k. `evaluate_positions` searches them in order with one `Searcher`, so its
transposition table, filled by the search of one position, already holds most of the next
one's tree (the next position is one ply down the line just searched). Each position gets the
engine's best line and its score from White's view (`PositionEval`), searched within a
`ReviewSetting`: a time budget per position and a depth cap.

A position's evaluation is the score of the deepest iteration that finished within its budget;
an unfinished iteration is thrown away. The time budget is kept by not starting an iteration
that would not finish in time (the next iteration is predicted to cost `GROWTH` times the
last), so the budget is spent on whole iterations and the position ends early rather than late.
A position with no legal move (mate or stalemate on the board) has no evaluation and no line;
a position drawn on the board (insufficient material, fivefold repetition, the 75-move rule,
and at the game's end a claimable threefold repetition or fifty moves) is evaluated 0.00
whatever the search says, and keeps its line.

`cancel` (a pool lane's flag) stops the review between positions and inside a search: the
position being searched when it is raised is not reported, so a review pre-empted at position
k can resume with `first=k` and lose nothing.

Shallow searches disagree with each other: one position searched to an odd depth and the next
to an even one, or a threat just past the horizon of one and inside that of the next, make a
drop of winning chances that a deeper search does not see. So a review takes a second look
(`verify_positions`) at the plies whose drop reaches `VERIFY_POINTS` (a mistake or worse, per
`chesscore.review.judge.positions_to_verify`): the positions before and after each are searched
again with `VERIFY_FACTOR` times the budget, and the deeper numbers are kept. A server can
stream the first pass's plies, then re-judge and push those the second look changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chesscore.analysis.judgement import Evaluation
from chesscore.engine.search import MATE, MAX_PLY, Searcher, SearchInfo, SearchLimits, StopSignal
from chesscore.errors import IllegalMoveError
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import WHITE

# An iteration costs about this many times the one before it (measured on review games: 2 to 4
# from depth 6 on); an iteration is started only when that much time is left in the budget.
GROWTH = 2.5
# The second look: at plies whose drop reaches this many points of winning chances, the two
# positions are searched again with this many times the budget (bench/review_tune.py).
VERIFY_POINTS = 20.0
VERIFY_FACTOR = 3.0
# The second look's whole time, as a share of the first pass's budget (positions x seconds):
# a game full of blunders gets a shorter look at each, so a review's time stays bounded.
VERIFY_SHARE = 0.5
# The hard stop, as a share of the budget past it: a predicted iteration that runs long
# still gets a little time to finish before it is thrown away.
OVERRUN = 0.5


@dataclass(frozen=True)
class ReviewSetting:
    """How long each position is searched: `seconds` at most, `depth` at most (the default
    is the issue's "default setting": an 80-ply game within a minute on one worker)."""

    seconds: float = 0.5
    depth: int = 12

    def __post_init__(self) -> None:
        if not 0 < self.seconds <= 600:
            raise ValueError(f"seconds must be above 0 and at most 600, got {self.seconds!r}")
        if type(self.depth) is not int or not 1 <= self.depth <= MAX_PLY:
            raise ValueError(f"depth must be a whole number 1 to {MAX_PLY}, got {self.depth!r}")

    def to_json(self) -> dict[str, float | int]:
        """The wire form: `{"seconds": 0.5, "depth": 12}`."""
        return {"seconds": self.seconds, "depth": self.depth}


@dataclass(frozen=True)
class PositionEval:
    """The engine's view of one position of a game: index 0 is the start position, k the
    position after ply k; the evaluation from White's view (None when the side to move has no
    legal move), the best line from the position (empty then), the depth and nodes it took."""

    index: int
    evaluation: Evaluation | None
    line: tuple[Move, ...]
    depth: int
    nodes: int


PositionCallback = Callable[[PositionEval], None]


def evaluate_positions(
    start: Board,
    moves: Sequence[Move],
    setting: ReviewSetting,
    on_position: PositionCallback | None = None,
    cancel: StopSignal | None = None,
    first: int = 0,
) -> list[PositionEval]:
    """Evaluate the positions `first`..`len(moves)` of the game of `moves` from `start` (left
    unchanged), in order, with one searcher kept across them; `on_position` is called after
    each. On `cancel` the positions finished so far come back (the one cut short is left out).
    IllegalMoveError (a ValueError) when a move is not legal where it is played."""
    if not 0 <= first <= len(moves):
        raise ValueError(f"first must be 0 to {len(moves)}, got {first!r}")
    _check_game(start, moves)  # at once, not after minutes of searching
    board = start.copy()
    for move in moves[:first]:
        board.push(move)
    searcher = Searcher(cancel)
    evals: list[PositionEval] = []
    for index in range(first, len(moves) + 1):
        if cancel is not None and cancel.is_set():
            break
        result = evaluate_position(board, setting, searcher, index, index == len(moves))
        if cancel is not None and cancel.is_set():
            break  # the search may have been cut short: its numbers are not the setting's
        evals.append(result)
        if on_position is not None:
            on_position(result)
        if index < len(moves):
            board.push(moves[index])
    return evals


def verify_positions(
    start: Board,
    moves: Sequence[Move],
    evals: Sequence[PositionEval],
    indices: Sequence[int],
    setting: ReviewSetting,
    on_position: PositionCallback | None = None,
    cancel: StopSignal | None = None,
) -> list[PositionEval]:
    """The second look: the positions `indices` (of the game of `moves` from `start`; see
    `chesscore.review.judge.positions_to_verify`) searched again, in order, one searcher
    across them, each with `verify_seconds` (`VERIFY_FACTOR` times `setting`'s, less when
    there are many). Each comes back (and goes to `on_position`) as the deeper of its new
    evaluation and its evaluation in `evals` (the first pass, by index). On `cancel` the
    positions finished so far come back."""
    first_pass = {position.index: position for position in evals}
    boards = _boards(start, moves, sorted(set(indices)))
    seconds = verify_seconds(setting, len(moves) + 1, len(boards))
    deeper = ReviewSetting(seconds, setting.depth)
    searcher = Searcher(cancel)
    results: list[PositionEval] = []
    for index, board in boards:
        if cancel is not None and cancel.is_set():
            break
        result = evaluate_position(board, deeper, searcher, index, index == len(moves))
        if cancel is not None and cancel.is_set():
            break
        old = first_pass.get(index)
        if old is not None and old.depth > result.depth:
            result = old
        results.append(result)
        if on_position is not None:
            on_position(result)
    return results


def verify_seconds(setting: ReviewSetting, positions: int, again: int) -> float:
    """The time of each position of a second look at `again` of a game's `positions`:
    `VERIFY_FACTOR` times the setting's, within `VERIFY_SHARE` of the first pass's whole
    budget, never less than the setting's own time.

    >>> verify_seconds(ReviewSetting(0.5), 81, 10), verify_seconds(ReviewSetting(0.5), 81, 40)
    (1.5, 0.50625)
    """
    share = VERIFY_SHARE * setting.seconds * positions / max(1, again)
    return min(600.0, max(setting.seconds, min(setting.seconds * VERIFY_FACTOR, share)))


def merge_positions(
    evals: Sequence[PositionEval], verified: Sequence[PositionEval]
) -> list[PositionEval]:
    """`evals` with each position of `verified` (the second look) in place of its own."""
    by_index = {position.index: position for position in evals}
    by_index.update((position.index, position) for position in verified)
    return [by_index[index] for index in sorted(by_index)]


def _boards(start: Board, moves: Sequence[Move], indices: Sequence[int]) -> list[tuple[int, Board]]:
    """The positions `indices` (sorted) of the game, each a board with its history."""
    if indices and not 0 <= indices[0] <= indices[-1] <= len(moves):
        raise ValueError(f"positions must be 0 to {len(moves)}, got {list(indices)!r}")
    board = start.copy()
    boards = []
    wanted = iter(indices)
    index = next(wanted, None)
    for at in range(len(moves) + 1):
        if index is None:
            break
        if at == index:
            boards.append((at, board.copy()))
            index = next(wanted, None)
        if at < len(moves):
            board.push(_checked(board, moves[at]))
    return boards


def evaluate_position(
    board: Board,
    setting: ReviewSetting,
    searcher: Searcher | None = None,
    index: int = 0,
    final: bool = False,
) -> PositionEval:
    """One position's `PositionEval` within `setting`, by `searcher` (a new one if None).
    Depth 0 with no evaluation: no legal move, or cancelled before depth 1 finished. The
    `final` position of a game is also 0.00 when a draw can be claimed there (the game
    ended by the claim: threefold repetition, fifty moves)."""
    searcher = searcher if searcher is not None else Searcher()
    hard_limit = setting.seconds * (1 + OVERRUN)
    order, start = searcher.begin(board, SearchLimits(setting.depth, hard_limit))
    if not order:
        return PositionEval(index, None, (), 0, 0)
    best: SearchInfo | None = None
    last_cost = 0.0
    for depth in range(1, setting.depth + 1):
        began = time.monotonic()
        elapsed = began - start
        if best is not None and elapsed + GROWTH * last_cost > setting.seconds:
            break
        infos = searcher.iterate_lines(depth, order, 1, start)
        if not infos:
            break  # stopped: the deadline or cancel
        best, last_cost = infos[0], time.monotonic() - began
        if best.stopped or (best.mate_in is not None and depth >= MATE - abs(best.score)):
            break  # depth 1 cut by the clock, or a mate seen to its end: deeper finds nothing
    if best is None:  # cancelled within depth 1
        return PositionEval(index, None, (), 0, searcher.nodes)
    evaluation = _evaluation(board, best, final)
    return PositionEval(index, evaluation, tuple(best.pv), best.depth, searcher.nodes)


def _evaluation(board: Board, info: SearchInfo, final: bool) -> Evaluation:
    """The iteration's score from White's view; 0.00 for a position drawn on the board."""
    outcome = board.outcome(claim_draw=final)
    if outcome is not None and outcome.winner is None:
        return Evaluation(cp=0)
    sign = 1 if board.turn == WHITE else -1
    mate = info.mate_in
    return Evaluation(mate=sign * mate) if mate is not None else Evaluation(cp=sign * info.score)


def _check_game(start: Board, moves: Sequence[Move]) -> None:
    """IllegalMoveError naming the first move of `moves` not legal where it is played."""
    board = start.copy()
    for move in moves:
        board.push(_checked(board, move))


def _checked(board: Board, move: Move) -> Move:
    if not board.is_legal(move):
        raise IllegalMoveError(f"illegal move {move.uci()} in position {board.fen()!r}")
    return move
