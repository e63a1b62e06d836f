"""lichess's puzzle CSV (chesscore.puzzles.csvformat): rows read and written back, every move
played, lichess's theme keys mapped to ours, and each bad row refused with its own error
quoting the line and the bad value. The two good rows are lichess's (its database is CC0)."""

from __future__ import annotations

import pytest

from chesscore.puzzles import (
    DuplicatePuzzleError,
    IllegalPuzzleMoveError,
    InvalidPuzzleFenError,
    InvalidPuzzleRowError,
    PuzzleError,
    make_puzzle_csv,
    map_themes,
    parse_puzzle_row,
    read_puzzles,
)

HEADER = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"
ROW_A = (
    "00008,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,f2g3 e6e7 b2b1 b3c1 b1c1 h6c1,"
    "1913,75,94,6230,crushing hangingPiece long middlegame,https://lichess.org/787zsVup/black#47,"
)
ROW_B = (
    "0000D,5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27,d3d6 f8d8 d6d8 f6d8,"
    "1580,74,96,13436,advantage endgame short rookEndgame,https://lichess.org/F8M8OS71#53,"
    "Kings_Pawn_Game Kings_Pawn_Game_Other"
)


def read(*rows: str) -> list:
    return list(read_puzzles([HEADER, *rows]))


def test_rows_are_read_with_their_themes_as_ours() -> None:
    first, second = read(ROW_A, ROW_B)
    assert first.id == "00008" and first.moves[0] == "f2g3" and len(first.moves) == 6
    assert (first.rating, first.deviation, first.popularity, first.plays) == (1913, 75, 94, 6230)
    # "crushing" names nothing we judge: dropped; the rest keep lichess's keys, in our order.
    assert first.themes == ("hangingPiece", "middlegame", "long")
    assert second.themes == ("endgame", "short")  # rookEndgame is an endgame of ours
    assert second.opening_tags == ("Kings_Pawn_Game", "Kings_Pawn_Game_Other")
    assert first.game_url == "https://lichess.org/787zsVup/black#47"


def test_a_file_written_reads_back_the_same() -> None:
    puzzles = read(ROW_A, ROW_B)
    text = make_puzzle_csv(puzzles)
    assert text.splitlines()[0] == HEADER
    assert list(read_puzzles(text.splitlines())) == puzzles


def test_theme_keys_map_to_ours_once_each_in_our_order() -> None:
    keys = ["short", "overloading", "underPromotion", "deflection", "kingsideAttack", "mateIn2"]
    assert map_themes(keys) == ("mateIn2", "deflection", "promotion", "short")


def bad(row: str, error: type[PuzzleError], quoted: str) -> None:
    with pytest.raises(error) as raised:
        read(row)
    assert quoted in str(raised.value) and "line 2" in str(raised.value)


@pytest.mark.parametrize(
    ("row", "error", "quoted"),
    [
        (ROW_A.replace("e6e7", "e6e8"), IllegalPuzzleMoveError, "'e6e8'"),
        (ROW_A.replace("b3c1", "b3c1q"), IllegalPuzzleMoveError, "'b3c1q'"),
        (ROW_A.replace("f2g3", "f2g3 x9"), IllegalPuzzleMoveError, "an even number of moves"),
        (ROW_A.replace("4Rp1Q", "4Rp1Q1"), InvalidPuzzleFenError, "4Rp1Q1"),
        (ROW_A.replace(",1913,", ",high,"), InvalidPuzzleRowError, "'high'"),
        (ROW_A.replace("00008", "0000-8"), InvalidPuzzleRowError, "'0000-8'"),
        (ROW_A.replace("crushing", "crush!ng"), InvalidPuzzleRowError, "'crush!ng'"),
        (ROW_A + ",extra", InvalidPuzzleRowError, "11 fields"),
    ],
)
def test_a_bad_row_is_refused_quoting_what_is_wrong(
    row: str, error: type[PuzzleError], quoted: str
) -> None:
    bad(row, error, quoted)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse_puzzle_row(["1"] * 3)


def test_duplicates_by_id_or_by_position_are_refused() -> None:
    with pytest.raises(DuplicatePuzzleError, match="line 3: a duplicate puzzle: '00008'"):
        read(ROW_A, ROW_A)
    same_position = ROW_A.replace("00008", "0000X")
    with pytest.raises(DuplicatePuzzleError, match="line 3"):
        read(ROW_A, same_position)


def test_an_import_skips_bad_rows_and_goes_on() -> None:
    errors: list[PuzzleError] = []
    seen: set[str] = set()
    rows = [HEADER, ROW_A, ROW_A, ROW_A.replace("e6e7", "e6e8"), ROW_B]
    kept = list(read_puzzles(rows, on_error=errors.append, seen=seen))
    assert [p.id for p in kept] == ["00008", "0000D"]
    assert [type(e) for e in errors] == [DuplicatePuzzleError, IllegalPuzzleMoveError]
    # A later import with the same memory skips what the first one took.
    again = list(read_puzzles([HEADER, ROW_B], on_error=errors.append, seen=seen))
    assert again == [] and isinstance(errors[-1], DuplicatePuzzleError)


def test_a_file_without_lichess_header_is_refused() -> None:
    with pytest.raises(InvalidPuzzleRowError, match="line 1"):
        list(read_puzzles(["id,fen,moves", ROW_A]))
