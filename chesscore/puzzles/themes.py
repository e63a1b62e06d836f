"""A puzzle's themes, judged by chesscore on its solution line: `find_themes(fen, moves)`.

The keys are lichess's where lichess has the theme (`mateIn2`, `fork`, `hangingPiece`, ...),
so a lichess puzzle and ours are filtered alike; `exchangeSacrifice` is ours. Each judge lives
with its kind (chesscore.puzzles.mates, .tactics, .material) and says what it checks; the
game's phase and the line's length are judged here:

- endgame: at the start, six pieces or fewer besides kings and pawns (the rule lichess's game
  divider uses); opening: not an endgame, and the setting-up move is among the first
  `OPENING_MOVES` moves of the game; middlegame: neither;
- length, in the solver's moves (lichess's keys): one `oneMove`, two `short`, three `long`,
  four or more `veryLong`.

`THEMES` is every key with its name in words, in the order a page lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chesscore.puzzles.line import PuzzleLine, pieces_count, play_line
from chesscore.puzzles.material import (
    is_deflection,
    is_exchange_sacrifice,
    is_hanging_piece,
    is_promotion,
    is_sacrifice,
    is_trapped_piece,
)
from chesscore.puzzles.mates import mate_themes
from chesscore.puzzles.tactics import (
    is_discovered_attack,
    is_double_check,
    is_fork,
    is_pin,
    is_skewer,
)

ENDGAME_PIECES = 6
OPENING_MOVES = 12

THEMES: dict[str, str] = {
    "mate": "Checkmate",
    "mateIn1": "Mate in 1",
    "mateIn2": "Mate in 2",
    "mateIn3": "Mate in 3",
    "mateIn4": "Mate in 4",
    "mateIn5": "Mate in 5 or more",
    "backRankMate": "Back rank mate",
    "fork": "Fork",
    "pin": "Pin",
    "skewer": "Skewer",
    "discoveredAttack": "Discovered attack",
    "doubleCheck": "Double check",
    "hangingPiece": "Hanging piece",
    "trappedPiece": "Trapped piece",
    "deflection": "Deflection",
    "promotion": "Promotion",
    "exchangeSacrifice": "Exchange sacrifice",
    "sacrifice": "Sacrifice",
    "opening": "Opening",
    "middlegame": "Middlegame",
    "endgame": "Endgame",
    "oneMove": "One move",
    "short": "Short puzzle",
    "long": "Long puzzle",
    "veryLong": "Very long puzzle",
}

JUDGES: tuple[tuple[str, Callable[[PuzzleLine], bool]], ...] = (
    ("fork", is_fork),
    ("pin", is_pin),
    ("skewer", is_skewer),
    ("discoveredAttack", is_discovered_attack),
    ("doubleCheck", is_double_check),
    ("hangingPiece", is_hanging_piece),
    ("trappedPiece", is_trapped_piece),
    ("deflection", is_deflection),
    ("promotion", is_promotion),
    ("exchangeSacrifice", is_exchange_sacrifice),
    ("sacrifice", is_sacrifice),
)

LENGTHS = ("oneMove", "short", "long", "veryLong")


def find_themes(fen: str, moves: Sequence[str]) -> tuple[str, ...]:
    """The themes of the puzzle (`moves` in UCI, the setting-up move first), in `THEMES`'s
    order; the errors of `play_line` for a bad FEN or move."""
    line = play_line(fen, moves)
    if len(line.plies) < 2:
        return ()
    found = set(mate_themes(line))
    found.update(key for key, judge in JUDGES if judge(line))
    found.add(phase(line))
    found.add(LENGTHS[min(len(line.solver_plies), len(LENGTHS)) - 1])
    return tuple(key for key in THEMES if key in found)


def phase(line: PuzzleLine) -> str:
    """`opening`, `middlegame` or `endgame` of the puzzle's start (module docstring)."""
    if pieces_count(line.start) <= ENDGAME_PIECES:
        return "endgame"
    if line.start.fullmove_number <= OPENING_MOVES:
        return "opening"
    return "middlegame"
