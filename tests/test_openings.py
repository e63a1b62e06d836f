"""Opening names (chesscore.openings): every line of the data names its own position, moves
played in another order reach the same name, and a line keeps the last name on its path."""

from __future__ import annotations

import functools
from pathlib import Path

import chess
import pytest

from chesscore import Board
from chesscore.openings import Opening, opening_at, opening_of, opening_table, position_key

NAJDORF = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"
DATA = Path(__file__).resolve().parent.parent / "chesscore" / "data" / "openings.tsv"


def played(sans: str, board: Board | None = None) -> Board:
    board = board or Board()
    for san in sans.split():
        if not san[0].isdigit():
            board.push_san(san)
    return board


def data_lines() -> list[tuple[str, str, str]]:
    rows = DATA.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "eco\tname\tpgn"
    return [tuple(row.split("\t")) for row in rows[1:]]  # type: ignore[misc]


@functools.cache
def played_data() -> list[tuple[str, str, str, Board]]:
    """Every line of the data with the board it ends on, played once for the tests here (the
    boards are only read)."""
    return [(eco, name, pgn, played(pgn)) for eco, name, pgn in data_lines()]


def test_every_line_of_the_data_names_its_own_position() -> None:
    """Each of the 3,807 lines ends on a named position; its name is the line's own unless a
    line no longer than it names the same position (a transposition in the data)."""
    lines = played_data()
    assert len(lines) == 3807
    lengths = {}
    for eco, name, _, board in lines:
        lengths.setdefault(position_key(board), []).append((board.ply, Opening(eco, name)))
    for eco, name, pgn, board in lines:
        found = opening_at(board)
        assert found is not None, pgn
        shortest = min(ply for ply, _ in lengths[position_key(board)])
        assert (shortest, found) in lengths[position_key(board)], pgn
        if found != Opening(eco, name):
            assert shortest <= board.ply, pgn


def test_the_key_agrees_with_python_chess_on_what_a_position_is() -> None:
    """The key is the FEN's first four fields: python-chess's EPD names the same positions
    (it writes an en passant square only when a capture there is legal, which the data's
    positions never differ by: equal keys, equal EPDs, over every line)."""
    ours: dict[str, str] = {}
    for _, _, pgn, board in played_data():
        oracle = chess.Board()
        for san in pgn.split():
            if not san[0].isdigit():
                oracle.push_san(san)
        key = position_key(board)
        assert ours.setdefault(key, oracle.epd()) == oracle.epd(), pgn
    assert len(set(ours.values())) == len(ours)


def test_a_transposition_reaches_the_same_name() -> None:
    direct = played("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Nf3")
    detour = played("1. Nf3 Nf6 2. c4 e6 3. Nc3 Bb4 4. d4")
    expected = Opening("E21", "Nimzo-Indian Defense: Three Knights Variation")
    assert opening_of(direct) == opening_of(detour) == expected


def test_a_line_keeps_the_last_name_on_its_path() -> None:
    board = played("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6")
    morphy = Opening("C70", "Ruy Lopez: Morphy Defense")
    assert opening_at(board) == opening_of(board) == morphy
    played("4. h3 h6 5. g3", board)  # out of the book
    assert opening_at(board) is None
    assert opening_of(board) == morphy


def test_positions_before_any_name_and_set_up_positions() -> None:
    assert opening_of(Board()) is None  # the start position itself has no name
    # A game set up on a named position carries its name from the start.
    named = played("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6")
    assert opening_of(Board.from_fen(named.fen())) == Opening("C70", "Ruy Lopez: Morphy Defense")
    # Bare kings and a pawn: fewer pieces than any named position.
    assert opening_of(Board.from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) is None


@pytest.mark.parametrize(
    ("sans", "eco", "name"),
    [
        ("1. e4 c5", "B20", "Sicilian Defense"),
        (NAJDORF, "B90", "Sicilian Defense: Najdorf Variation"),
        ("1. d4 d5 2. c4", "D06", "Queen's Gambit"),
        ("1. e4 e6", "C00", "French Defense"),
    ],
)  # fmt: skip
def test_known_names(sans: str, eco: str, name: str) -> None:
    assert opening_of(played(sans)) == Opening(eco, name)


def test_the_table_is_built_once() -> None:
    assert opening_table() is opening_table()
    assert len(opening_table().names) == len({position_key(b) for *_, b in played_data()})
