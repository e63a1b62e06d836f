"""Puzzle ratings: the first rating of a generated puzzle, estimated from its difficulty, and a
solver's attempt rated as lichess rates it.

lichess starts every puzzle at 1500 and lets the results teach the rating. A set of our own
has no results yet, so its first rating is an estimate, and the deviation says how little it
is trusted (`INITIAL_DEVIATION`, the most a rating can have): the first attempts move it
fast, as they move a new player's. The estimate starts from `BASE` and adds, in rating
points, for each thing that makes a tactic harder to see:

- each solver move after the first: +`PER_MOVE` (a longer line is more to calculate);
- a first move that is neither a capture nor a check: +`QUIET` (forcing moves are the
  ones a solver tries first); a capture: -`CAPTURE`;
- the generator's quick search (a few thousand nodes) did not find the first move:
  +`DEEP` (the tactic needs depth to be seen); it found it: nothing;
- the plausible alternatives, the solver's legal moves beyond `MOVES_PAR`: +`PER_OPTION` each,
  fewer: - as much, at most `OPTIONS_CAP` either way;
- a mate: -`MATE` (a mating net is a concrete goal, and mate in one is the easiest puzzle);
- a material gain beyond two pawns: -`PER_PAWN` each, at most `GAIN_CAP` (a bigger prize is
  easier to spot).

The estimate is kept within [`LOWEST`, `HIGHEST`]. A solver's attempt is a game between the
solver and the puzzle, each a player with a Glicko-2 rating (chesscore.ratings): a solve is a
win of the solver, a failure a win of the puzzle; both ratings move, as on lichess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chesscore.puzzles.verify import material_balance
from chesscore.ratings.glicko2 import Glicko
from chesscore.ratings.rated import INITIAL_VOLATILITY, PlayerRating, RatingChange, rate_game
from chesscore.rules.board import Board

BASE = 1300
PER_MOVE = 250
QUIET = 200
CAPTURE = 100
DEEP = 250
MOVES_PAR = 30
PER_OPTION = 5
OPTIONS_CAP = 100
MATE = 100
PER_PAWN = 25
GAIN_CAP = 150
LOWEST, HIGHEST = 600, 2800
INITIAL_DEVIATION = 500


@dataclass(frozen=True, slots=True)
class Difficulty:
    """What the first rating is estimated from (module docstring)."""

    solver_moves: int
    first_move: str  # "capture", "check" or "quiet" (a capturing check counts as a capture)
    found_quickly: bool
    legal_moves: int
    mate: bool
    gain: int  # pawns of material won by the line's end


def measure_difficulty(fen: str, moves: Sequence[str], found_quickly: bool) -> Difficulty:
    """The difficulty facts of a puzzle line (UCI, the setting-up move first); `found_quickly`:
    whether a quick search found the solver's first move. Errors of `Board` on a bad line."""
    board = Board.from_fen(fen)
    solver = board.turn ^ 1
    start = material_balance(board, solver)
    board.push_uci(moves[0])
    legal = len(board.legal_moves())
    first = board.parse_uci(moves[1])
    kind = (
        "capture" if board.is_capture(first) else "check" if board.gives_check(first) else "quiet"
    )
    for move in moves[1:]:
        board.push_uci(move)
    gain = material_balance(board, solver) - start
    return Difficulty(len(moves) // 2, kind, found_quickly, legal, board.is_checkmate(), gain)


def estimate_rating(difficulty: Difficulty) -> int:
    """The first rating of a puzzle of that difficulty (module docstring)."""
    rating = BASE + PER_MOVE * (difficulty.solver_moves - 1)
    rating += QUIET if difficulty.first_move == "quiet" else 0
    rating -= CAPTURE if difficulty.first_move == "capture" else 0
    rating += 0 if difficulty.found_quickly else DEEP
    options = PER_OPTION * (difficulty.legal_moves - MOVES_PAR)
    rating += max(-OPTIONS_CAP, min(OPTIONS_CAP, options))
    rating -= MATE if difficulty.mate else 0
    rating -= min(GAIN_CAP, PER_PAWN * max(0, difficulty.gain - 2))
    return max(LOWEST, min(HIGHEST, rating))


def new_puzzle_rating(rating: float, deviation: float = INITIAL_DEVIATION) -> PlayerRating:
    """A puzzle with no attempts yet, as a player of that rating."""
    return PlayerRating(Glicko(rating, deviation, INITIAL_VOLATILITY))


def rate_attempt(
    solver: PlayerRating, puzzle: PlayerRating, solved: bool, now: float
) -> tuple[RatingChange, RatingChange]:
    """The solver's and the puzzle's changes after one attempt at `now` (seconds): a game the
    solver won if `solved`, else lost, each rated against the other as they stood before."""
    return rate_game(solver, puzzle, 1.0 if solved else 0.0, now)
