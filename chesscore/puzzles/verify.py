"""Whether a position after an opponent's mistake is a puzzle, and its solution: the rules a
generated puzzle must pass, written once for the generator, its tests and later imports of
our own games.

A puzzle starts from the position before the opponent's mistake (the *setting-up move*); the
solver then has, at every one of their moves, exactly one move that wins or keeps the win:

- the best move *wins*: it mates, or the engine scores it at least `WINNING_CP` for the solver;
- every other move is *clearly worse*: when the best mates, no other move mates (two mates are
  two answers, as lichess's generator judges); otherwise the second best loses at least
  `WIN_CHANCE_GAP` of win chance, which is what 1.5 pawns are worth from an equal position
  (win chances as lichess computes them from centipawns, `win_chance`), and 1.5 pawns in
  centipawns too;
- a puzzle does not start with a single legal move (any move would do); later in the line
  a forced move is played as the line goes on (taking back after a forced exchange, as
  lichess's lines do);
- a first solver move that only takes back the piece that has just captured is no puzzle;
- the line ends in mate, or once the solver is at least `MIN_GAIN` pawns of material up against
  the puzzle's start (chesscore's material count, `PIECE_VALUES`) after the opponent's best
  reply to the solver's last move, within `MAX_SOLVER_MOVES` moves of the solver.

The opponent's replies are the engine's best (the second move of the solver's principal
variation). The engine is a callable given by the caller (`Search`: the legal lines of a
position, best first, scored from the side to move's view), so this module stays pure: the
generator (tools/make_puzzles.py) passes Stockfish at a fixed budget, tests pass the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import KING, Color

WINNING_CP = 200  # a move that leaves the solver this far ahead wins
WIN_CHANCE_SLOPE = 0.00368208  # lichess's centipawns-to-win-chances factor
CLEAR_CP = 150  # "clearly worse": 1.5 pawns ...
MIN_GAIN = 2  # pawns of material the line must win when it does not mate
MAX_SOLVER_MOVES = 6  # a longer line is not a puzzle any more but a game
# The most the solver may stand before the mistake for a puzzle that does not mate: a position
# already won gives no lesson in winning it (lichess's generator skips them too).
MAX_CP_BEFORE = 300
# The least jump in win chance (in [-1, 1]) a mistake must make to be looked at.
MIN_SWING = 0.5
# The most material (pawns) the solver may be up after the mistake: a side already a piece up
# wins in many ways, and its puzzles have many answers (lichess's generator skips them too).
MAX_MATERIAL_UP = 2


def win_chance(cp: int) -> float:
    """The win chance, in [-1, 1], of a centipawn score (lichess's logistic curve)."""
    return 2 / (1 + math.exp(-WIN_CHANCE_SLOPE * cp)) - 1


WIN_CHANCE_GAP = win_chance(CLEAR_CP)  # ... in win chances: what 1.5 pawns are worth from 0


@dataclass(frozen=True, slots=True)
class Score:
    """An engine's score from one side's view: `mate` moves to mate (negative: mated), else
    centipawns."""

    cp: int = 0
    mate: int | None = None

    @property
    def chance(self) -> float:
        """The win chance of the score (a mate is a certain result)."""
        if self.mate is not None:
            return 1.0 if self.mate > 0 else -1.0
        return win_chance(self.cp)

    @property
    def mates(self) -> bool:
        return self.mate is not None and self.mate > 0

    @property
    def is_winning(self) -> bool:
        return self.mates or (self.mate is None and self.cp >= WINNING_CP)

    def negated(self) -> Score:
        return Score(-self.cp, None if self.mate is None else -self.mate)


@dataclass(frozen=True, slots=True)
class EngineLine:
    """One line of an engine's MultiPV answer: its first move, its score from the side to
    move's view and its principal variation (UCI, the first move included)."""

    move: str
    score: Score
    pv: tuple[str, ...]


# The engine: a position's best lines (at least the best two where there are two legal moves).
Search = Callable[[Board], Sequence[EngineLine]]


@dataclass(frozen=True, slots=True)
class Verified:
    """A puzzle that passed: its line (UCI, the setting-up move first), whether it ends in
    mate, its material gain in pawns, and the engine's first answer to the solver."""

    moves: tuple[str, ...]
    mate: bool
    gain: int
    first: tuple[EngineLine, ...]


@dataclass(frozen=True, slots=True)
class Rejected:
    """A candidate that failed, and the rule it failed (one of `REASONS`)."""

    reason: str


REASONS = (
    "single legal move", "not winning", "ambiguous", "recapture", "no clear gain", "too long",
)  # fmt: skip


def is_clearly_better(best: Score, second: Score | None) -> bool:
    """Whether the second best move is clearly worse than the best (module docstring)."""
    if second is None:
        return True
    if best.mates:
        return not second.mates
    if second.mate is not None or best.mate is not None:
        return second.chance < best.chance
    gap_cp = best.cp - second.cp
    return gap_cp >= CLEAR_CP and best.chance - second.chance >= WIN_CHANCE_GAP


def is_mistake(before: Score, after: Score, balance: int) -> bool:
    """Whether a move that took the solver's score from `before` (the position before the move,
    solver's view) to `after` is a mistake worth looking at: the solver is not already up
    more than MAX_MATERIAL_UP pawns after it (`balance`) nor was already mating, and the move
    lets the solver mate, or turns a position not yet won into a win by a big jump of win
    chance."""
    if balance > MAX_MATERIAL_UP or before.mates:
        return False
    if after.mates:
        return True
    if not after.is_winning or before.mate is not None or before.cp > MAX_CP_BEFORE:
        return False
    return after.chance - before.chance >= MIN_SWING


def material(board: Board, color: Color) -> int:
    """The material of `color`'s pieces in pawns (pawn 1, minor 3, rook 5, queen 9)."""
    cells = board.board
    return sum(
        PIECE_VALUES[cells[sq] & 7] for sq in board.piece_squares[color] if cells[sq] & 7 != KING
    )


def material_balance(board: Board, color: Color) -> int:
    """`color`'s material minus the other side's, in pawns."""
    return material(board, color) - material(board, color ^ 1)


def is_recapture(setting_up: Move, captured: bool, answer: Move) -> bool:
    """Whether `answer` takes back on the square where the setting-up move has just captured
    (`captured`: whether it did)."""
    return captured and answer.to_square == setting_up.to_square


def verify_puzzle(fen: str, setting_up: str, search: Search) -> Verified | Rejected:
    """The puzzle that the opponent's move `setting_up` (UCI) in the position `fen` gives the
    other side, verified with `search`, or why there is none (module docstring)."""
    board = Board.from_fen(fen)
    solver = board.turn ^ 1
    start = material_balance(board, solver)
    setup_move = board.parse_uci(setting_up)
    captured = board.is_capture(setup_move)
    board.push(setup_move)
    moves = [setting_up]
    first: tuple[EngineLine, ...] = ()
    mating = False
    for step in range(MAX_SOLVER_MOVES):
        choices = len(board.legal_moves())
        if step == 0 and choices < 2:
            return Rejected("single legal move")
        lines = tuple(search(board))
        best = lines[0]
        second = lines[1].score if len(lines) > 1 else None
        if second is None and choices > 1:
            return Rejected("ambiguous")  # the engine said nothing of the other moves
        if step == 0:
            first = lines
            # A mate too long to be a puzzle's line may still win material: judged as a gain.
            mating = best.score.mates and (best.score.mate or 0) <= MAX_SOLVER_MOVES
            if is_recapture(setup_move, captured, Move.from_uci(best.move)):
                return Rejected("recapture")
        if not best.score.is_winning or (mating and not best.score.mates):
            return Rejected("not winning")
        if not is_clearly_better(best.score, second):
            return Rejected("ambiguous")
        board.push_uci(best.move)
        moves.append(best.move)
        if board.is_checkmate():
            return Verified(tuple(moves), True, material_balance(board, solver) - start, first)
        if not board.legal_moves():
            return Rejected("not winning")  # stalemate
        reply = best.pv[1] if len(best.pv) > 1 else search(board)[0].move
        board.push_uci(reply)
        gain = material_balance(board, solver) - start
        if not mating and gain >= MIN_GAIN:
            return Verified(tuple(moves), False, gain, first)
        moves.append(reply)
    return Rejected("too long" if mating else "no clear gain")
