"""Puzzles (issue 35): tactics from real and engine games, verified, tagged and rated.

`verify` says whether a position after an opponent's mistake is a puzzle and finds its line
(the engine is a callable the caller passes: this package does no I/O); `themes` judges a
line's themes on chesscore's rules and analysis (the judges in `mates`, `tactics`,
`material`, on the plies `line` plays out); `rating` estimates a new puzzle's first rating
and rates an attempt as a Glicko-2 game between solver and puzzle; `csvformat` reads and
writes lichess's puzzle CSV, checking every row's moves and mapping lichess's theme keys to
ours. The generator (tools/make_puzzles.py) and the server build on these.
"""

from chesscore.puzzles.csvformat import (
    HEADER,
    DuplicatePuzzleError,
    IllegalPuzzleMoveError,
    InvalidPuzzleFenError,
    InvalidPuzzleRowError,
    Puzzle,
    PuzzleError,
    make_puzzle_csv,
    make_puzzle_row,
    map_themes,
    parse_puzzle_row,
    read_puzzles,
)
from chesscore.puzzles.rating import (
    Difficulty,
    estimate_rating,
    measure_difficulty,
    new_puzzle_rating,
    rate_attempt,
)
from chesscore.puzzles.themes import THEMES, find_themes
from chesscore.puzzles.verify import EngineLine, Rejected, Score, Verified, verify_puzzle

__all__ = [
    "HEADER",
    "THEMES",
    "Difficulty",
    "DuplicatePuzzleError",
    "EngineLine",
    "IllegalPuzzleMoveError",
    "InvalidPuzzleFenError",
    "InvalidPuzzleRowError",
    "Puzzle",
    "PuzzleError",
    "Rejected",
    "Score",
    "Verified",
    "estimate_rating",
    "find_themes",
    "make_puzzle_csv",
    "make_puzzle_row",
    "map_themes",
    "measure_difficulty",
    "new_puzzle_rating",
    "parse_puzzle_row",
    "rate_attempt",
    "read_puzzles",
    "verify_puzzle",
]
