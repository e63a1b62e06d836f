"""`python -m server.puzzles import FILE`: lichess's puzzle database (CC0) into the puzzles table.

The file is read a row at a time (chesscore.puzzles.read_puzzles: every move of a row played
by chesscore, lichess's theme names mapped to ours, a bad row or a duplicate in the file
skipped and counted by its kind) and written in batches of `BATCH` rows, each batch one
transaction; a puzzle the table holds already (same id, or same position and setting-up move)
is skipped and counted. The file of millions of rows is never held in memory whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from chesscore.puzzles import DuplicatePuzzleError, Puzzle, PuzzleError, read_puzzles
from server.puzzles.tables import PuzzleTables

BATCH = 5_000


@dataclass
class ImportCounts:
    """What an import did: rows read, puzzles added, already in the table, refused by kind."""

    read: int = 0
    added: int = 0
    already_stored: int = 0
    refused: Counter[str] = field(default_factory=Counter)

    def report(self) -> str:
        lines = [
            f"rows read: {self.read}",
            f"puzzles added: {self.added}",
            f"already in the table: {self.already_stored}",
        ]
        lines += [f"skipped, {kind}: {count}" for kind, count in sorted(self.refused.items())]
        return "\n".join(lines)


def _kind(error: PuzzleError) -> str:
    if isinstance(error, DuplicatePuzzleError):
        return "duplicate in the file"
    return {
        "InvalidPuzzleRowError": "bad row",
        "InvalidPuzzleFenError": "bad FEN",
        "IllegalPuzzleMoveError": "illegal move",
    }.get(type(error).__name__, "bad row")


def _batches(puzzles: Iterable[Puzzle]) -> Iterator[list[Puzzle]]:
    it = iter(puzzles)
    while batch := list(islice(it, BATCH)):
        yield batch


def import_lines(lines: Iterable[str], tables: PuzzleTables) -> ImportCounts:
    """Import a lichess puzzle CSV's lines (its header first) into `tables`."""
    counts = ImportCounts()

    def refused(error: PuzzleError) -> None:
        counts.refused[_kind(error)] += 1

    for batch in _batches(read_puzzles(lines, on_error=refused)):
        added = tables.add_puzzles(batch, lambda puzzle: puzzle.game_url or "lichess")
        counts.added += added
        counts.already_stored += len(batch) - added
    counts.read = counts.added + counts.already_stored + sum(counts.refused.values())
    return counts


def import_file(path: Path, tables: PuzzleTables) -> ImportCounts:
    with path.open(encoding="utf-8", newline="") as rows:
        return import_lines(rows, tables)
