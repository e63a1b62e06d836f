"""Opening names: the ECO code and name of a position, as lichess names it.

The names are the lichess chess-openings data set (CC0; `chesscore/data/README.md`), one line
per named opening: its ECO code, its name and its moves from the start position in SAN. A
position is named by its placement, side to move, castling rights and en passant file (its
Zobrist key, chesscore.rules.zobrist, which counts an en passant square only when a capture
there is legal, as lichess's EPD keys do): so a line that transposes into a named position gets
that name, and counters do not matter.

A game or an analysis line carries the name of the *last* named position on its path
(`opening_of`), as lichess shows it: after 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 it is "Ruy Lopez:
Morphy Defense" until a later position has a name of its own. Every board keeps the keys of its
whole game, so that is a dictionary look-up per ply, without replaying the line.

Where several lines of the data reach one position, the shortest line names it (the first
listed of equal length): a transposition reaches a position by a detour, its own line is the
direct one. The table is built on first use (about a second: the lines are played out, each
from where the one before it branches off) and kept for the process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from chesscore.errors import ChessError
from chesscore.rules.board import Board

DATA = "data/openings.tsv"


@dataclass(frozen=True, slots=True)
class Opening:
    """A named opening: its ECO code ("C65") and name ("Ruy Lopez: Berlin Defense")."""

    eco: str
    name: str


@dataclass(frozen=True, slots=True)
class OpeningTable:
    """Position key -> the opening named there."""

    names: dict[int, Opening]


def position_key(board: Board) -> int:
    """The key naming `board`'s position: its Zobrist key."""
    return board.key()


@cache
def opening_table() -> OpeningTable:
    """The table of named positions, read from the data file once per process. The lines are
    played in the order of their moves, taking back only what the next line does not share
    with the one before: most lines extend another, and this plays a third of the moves."""
    text = resources.files("chesscore").joinpath(DATA).read_text(encoding="utf-8")
    lines = []
    for number, line in enumerate(text.splitlines()[1:], start=2):
        eco, name, pgn = line.split("\t")
        moves = tuple(token for token in pgn.split() if not token[0].isdigit())  # not "1."
        lines.append((moves, number, Opening(eco, name)))
    found: dict[int, tuple[int, int, Opening]] = {}
    board = Board()
    played: tuple[str, ...] = ()
    for moves, number, opening in sorted(lines, key=lambda line: line[0]):
        shared = _shared_length(played, moves)
        for _ in range(len(played) - shared):
            board.pop()
        for san in moves[shared:]:
            try:
                board.push_san(san)
            except ChessError as error:  # the data is fixed: a test keeps it readable
                raise ValueError(f"{DATA} line {number}: {error}") from error
        played = moves
        key = position_key(board)
        # The shortest line names a position; of equal ones, the first in the file.
        if key not in found or (board.ply, number) < found[key][:2]:
            found[key] = (board.ply, number, opening)
    return OpeningTable({key: entry[2] for key, entry in found.items()})


def _shared_length(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        shared += 1
    return shared


def opening_at(board: Board) -> Opening | None:
    """The opening named at `board`'s own position, if any."""
    return opening_table().names.get(position_key(board))


def opening_of(board: Board) -> Opening | None:
    """The opening of the line that led to `board`: the name of the last named position on its
    path from its root (the root included), None if none is named.

    >>> board = Board()
    >>> for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "h3"]:
    ...     _ = board.push_san(san)
    >>> opening_of(board)
    Opening(eco='C70', name='Ruy Lopez: Morphy Defense')
    """
    names = opening_table().names
    latest = next(filter(names.__contains__, reversed(board.keys)), None)
    return None if latest is None else names[latest]
