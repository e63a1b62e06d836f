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

`THEMES` is every key with its name in words (English, marked for the `messages` catalog:
the server says it in the page's language), in the order a page lists them.
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
from chesscore.words import N_

ENDGAME_PIECES = 6
OPENING_MOVES = 12

THEMES: dict[str, str] = {
    "mate": N_("Checkmate"),
    "mateIn1": N_("Mate in 1"),
    "mateIn2": N_("Mate in 2"),
    "mateIn3": N_("Mate in 3"),
    "mateIn4": N_("Mate in 4"),
    "mateIn5": N_("Mate in 5 or more"),
    "backRankMate": N_("Back rank mate"),
    "fork": N_("Fork"),
    "pin": N_("Pin"),
    "skewer": N_("Skewer"),
    "discoveredAttack": N_("Discovered attack"),
    "doubleCheck": N_("Double check"),
    "hangingPiece": N_("Hanging piece"),
    "trappedPiece": N_("Trapped piece"),
    "deflection": N_("Deflection"),
    "promotion": N_("Promotion"),
    "exchangeSacrifice": N_("Exchange sacrifice"),
    "sacrifice": N_("Sacrifice"),
    "opening": N_("Opening"),
    "middlegame": N_("Middlegame"),
    "endgame": N_("Endgame"),
    "oneMove": N_("One move"),
    "short": N_("Short puzzle"),
    "long": N_("Long puzzle"),
    "veryLong": N_("Very long puzzle"),
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
