"""lichess's puzzle CSV, read and written: `parse_puzzle_row` / `make_puzzle_row` for one row,
`read_puzzles` / `make_puzzle_csv` for a file's text.

The columns (lichess's database, CC0, and our shipped set alike):
`PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`.
`FEN` is the position before the opponent's setting-up move; `Moves` the UCI line from it
separated by spaces, the setting-up move first and the solver's move last (so an even number
of moves, two at least); `Themes` and `OpeningTags` are separated by spaces.

Reading is strict, as chesscore's formats are: every move is played on the board, and each
fault is a `PuzzleError` (a `ValueError`) of its own kind whose message quotes the row's line
and the bad value. lichess's theme keys are mapped to ours (`map_themes`: the same key where
we judge the theme, a broader one of ours for lichess's finer keys, dropped where we have
none). A puzzle whose id, or whose position and first move, came before is a
`DuplicatePuzzleError`; `read_puzzles` with an `on_error` skips bad and duplicate rows and
hands each error to it, so an import of millions of rows goes on past a bad one.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from chesscore.errors import ChessError
from chesscore.puzzles.themes import THEMES
from chesscore.rules.board import Board

HEADER = (
    "PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation", "Popularity", "NbPlays", "Themes",
    "GameUrl", "OpeningTags",
)  # fmt: skip
PUZZLE_ID = re.compile(r"[0-9A-Za-z]{1,16}")
THEME_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*")

# lichess's finer keys that fall under one of ours; a lichess key that is ours maps to itself;
# any other key (exposedKing, quietMove, crushing, master, ...) names nothing we judge: dropped.
LICHESS_THEMES: dict[str, str] = {
    **{key: key for key in THEMES},
    "overloading": "deflection",
    "underPromotion": "promotion",
    "pawnEndgame": "endgame",
    "knightEndgame": "endgame",
    "bishopEndgame": "endgame",
    "rookEndgame": "endgame",
    "queenEndgame": "endgame",
    "queenRookEndgame": "endgame",
}


class PuzzleError(ChessError):
    """A puzzle row that cannot be read (the message quotes its line and the bad value)."""


class InvalidPuzzleRowError(PuzzleError):
    """A row with the wrong number of fields, a bad id, number or theme key."""


class InvalidPuzzleFenError(PuzzleError):
    """A row whose FEN is not a playable position."""


class IllegalPuzzleMoveError(PuzzleError):
    """A row whose line holds a malformed or illegal move, or is not a puzzle's length."""


class DuplicatePuzzleError(PuzzleError):
    """A row whose id, or whose position and setting-up move, an earlier row had."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle as the CSV holds it (themes already ours)."""

    id: str
    fen: str
    moves: tuple[str, ...]
    rating: int
    deviation: int
    popularity: int
    plays: int
    themes: tuple[str, ...]
    game_url: str = ""
    opening_tags: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """What makes two puzzles the same: the position (FEN without counters) and the
        setting-up move."""
        return " ".join([*self.fen.split()[:4], self.moves[0]])


def map_themes(keys: Iterable[str]) -> tuple[str, ...]:
    """lichess's theme keys as ours, each once, in `THEMES`'s order (unknown keys dropped)."""
    ours = {LICHESS_THEMES[key] for key in keys if key in LICHESS_THEMES}
    return tuple(key for key in THEMES if key in ours)


def parse_puzzle_row(fields: Sequence[str], line: int = 0) -> Puzzle:
    """The puzzle of one row's fields (`line`: where it stands, for the messages)."""
    where = f"line {line}: " if line else ""
    if len(fields) != len(HEADER):
        raise InvalidPuzzleRowError(f"{where}{len(fields)} fields, not {len(HEADER)}: {fields!r}")
    puzzle_id, fen, moves_text, rating, deviation, popularity, plays = fields[:7]
    themes_text, game_url, tags_text = fields[7:]
    if not PUZZLE_ID.fullmatch(puzzle_id):
        raise InvalidPuzzleRowError(f"{where}not a puzzle id: {puzzle_id!r}")
    keys = themes_text.split()
    bad = [key for key in keys if not THEME_KEY.fullmatch(key)]
    if bad:
        raise InvalidPuzzleRowError(f"{where}not a theme key: {bad[0]!r}")
    moves = tuple(moves_text.split())
    check_line(fen, moves, where)
    return Puzzle(
        puzzle_id, fen, moves,
        _parse_int(rating, "Rating", where), _parse_int(deviation, "RatingDeviation", where),
        _parse_int(popularity, "Popularity", where), _parse_int(plays, "NbPlays", where),
        map_themes(keys), game_url, tuple(tags_text.split()),
    )  # fmt: skip


def check_line(fen: str, moves: Sequence[str], where: str = "") -> None:
    """Play the line on the FEN: InvalidPuzzleFenError or IllegalPuzzleMoveError if it fails."""
    try:
        board = Board.from_fen(fen)
    except ChessError as error:
        raise InvalidPuzzleFenError(f"{where}bad FEN {fen!r}: {error}") from None
    if len(moves) < 2 or len(moves) % 2:
        raise IllegalPuzzleMoveError(
            f"{where}a puzzle's line is the setting-up move and the solver's answers, an even "
            f"number of moves: {' '.join(moves)!r}"
        )
    for move in moves:
        try:
            board.push_uci(move)
        except ChessError:
            raise IllegalPuzzleMoveError(
                f"{where}move {move!r} of {' '.join(moves)!r} is not legal in {board.fen()!r}"
            ) from None


def _parse_int(text: str, name: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise InvalidPuzzleRowError(f"{where}{name} is not a whole number: {text!r}") from None


def read_puzzles(
    lines: Iterable[str],
    on_error: Callable[[PuzzleError], None] | None = None,
    seen: set[str] | None = None,
) -> Iterator[Puzzle]:
    """The puzzles of a CSV's lines (its header first). Without `on_error` the first bad or
    duplicate row raises; with it, such rows are handed to it and skipped. `seen` holds the ids
    and keys (`Puzzle.key`) met so far, to skip duplicates of earlier imports too."""
    seen = set() if seen is None else seen
    rows = csv.reader(lines)
    header = next(rows, None)
    if header is None or tuple(header) != HEADER:
        raise InvalidPuzzleRowError(f"line 1: not lichess's puzzle header: {header!r}")
    for number, fields in enumerate(rows, 2):
        try:
            puzzle = parse_puzzle_row(fields, number)
            for mark in (puzzle.id, puzzle.key):
                if mark in seen:
                    raise DuplicatePuzzleError(f"line {number}: a duplicate puzzle: {mark!r}")
        except PuzzleError as error:
            if on_error is None:
                raise
            on_error(error)
            continue
        seen.update((puzzle.id, puzzle.key))
        yield puzzle


def make_puzzle_row(puzzle: Puzzle) -> list[str]:
    """The row's fields of a puzzle (`parse_puzzle_row` reads them back)."""
    return [
        puzzle.id, puzzle.fen, " ".join(puzzle.moves), str(puzzle.rating), str(puzzle.deviation),
        str(puzzle.popularity), str(puzzle.plays), " ".join(puzzle.themes), puzzle.game_url,
        " ".join(puzzle.opening_tags),
    ]  # fmt: skip


def make_puzzle_csv(puzzles: Iterable[Puzzle]) -> str:
    """The CSV text of `puzzles`, the header first, one row each, lines ended by "\\n"."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    writer.writerows(make_puzzle_row(puzzle) for puzzle in puzzles)
    return out.getvalue()
