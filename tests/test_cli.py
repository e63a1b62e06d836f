"""The command line, `python -m chesscore`: perft, moves and threats, and its refusals.

Most cases call `main()` in-process (capturing its output); a few run the real module in a
subprocess to check the exit code and that bad input never shows a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chesscore.__main__ import main

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TWO_PINS = "4k3/4r3/2n5/1B6/8/8/4N3/4K3 w - - 0 1"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [
        (START, "0", 1),
        (START, "3", 8902),
        (KIWIPETE, "2", 2039),
        ("8/8/8/8/8/8/8/K1k5 w - - 0 1", "1", 1),
    ],
)
def test_perft_prints_the_count_last(
    capsys: pytest.CaptureFixture[str], fen: str, depth: str, count: int
) -> None:
    code, lines, _ = run(capsys, "perft", fen, depth)
    assert code == 0
    assert lines[-1] == str(count)


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "perft", KIWIPETE, "2", "--divide")
    assert code == 0
    assert lines[-1] == "2039"
    divided = dict(line.split(": ") for line in lines[:-1])
    assert len(divided) == 48
    assert divided["e1g1"] == "43" and divided["d5e6"] == "46"
    assert sum(map(int, divided.values())) == 2039


def test_moves_prints_uci_and_san(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "moves", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert code == 0
    assert "e1c1 O-O-O" in lines
    assert "a1a8 Ra8+" in lines
    assert len(lines) == 16


def test_threats_prints_counts_per_square(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "threats", TWO_PINS)
    assert code == 0
    rank2 = lines[7].split()
    assert rank2[0] == "2" and rank2[5] == "2/1N"  # e2: bishop and king defend, the rook attacks
    assert lines[8].split()[5] == "0/0K"
    assert lines[9].split() == list("abcdefgh")
    assert lines[-3:] == ["checkers: -", "pins: c6 pinned by b5, e2 pinned by e7", "hanging: c6"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "junk", "1"], "invalid FEN 'junk'"),
        (["moves", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"], "invalid FEN"),
        (["threats", "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1"], "unplayable position"),
    ],
)
def test_bad_fen_is_an_error_with_exit_code_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, lines, err = run(capsys, *args)
    assert code == 2
    assert lines == []
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "junk", "1"], "invalid FEN"),
        (["perft", START, "-1"], "depth must be a whole number"),
        (["perft", START], "required"),
        (["fly", START], "invalid choice"),
        ([], "required"),
    ],
)
def test_real_process_exit_code_and_no_traceback(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chesscore", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


# -- analyse ---------------------------------------------------------------------------------

WHITE_MATES_IN_2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
BLACK_MATES_IN_2 = "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"
# Ends with White to move and Qxf7 mating; after ply 4 (2... Nc6) nothing mates yet.
SCHOLARS_PGN = """[Event "Casual"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 (2... g6 3. Qxe5+) 3. Bc4 Nf6 *
"""


def final_lines(lines: list[str]) -> list[tuple[str, str, list[str]]]:
    """(rank, score, SAN moves) of the lines after the summary."""
    start = next(i for i, line in enumerate(lines) if line.startswith("depth ") and "nodes" in line)
    rows = [line.split() for line in lines[start + 1 :]]
    return [(row[0], row[1], row[2:]) for row in rows]


@pytest.mark.parametrize(
    ("fen", "depth", "score", "moves"),
    [
        (WHITE_MATES_IN_2, "3", "#2", ["Nf6+", "gxf6", "Bxf7#"]),
        (BLACK_MATES_IN_2, "3", "#-2", ["Rg1+", "Kxg1", "Rxf1#"]),
    ],
)
def test_analyse_prints_each_depth_then_the_lines(
    capsys: pytest.CaptureFixture[str], fen: str, depth: str, score: str, moves: list[str]
) -> None:
    code, lines, _ = run(capsys, "analyse", fen, "--depth", depth, "--multipv", "2")
    assert code == 0
    assert [line.split()[:2] for line in lines[:3]] == [
        ["depth", "1"],
        ["depth", "2"],
        ["depth", "3"],
    ]
    assert lines[3].startswith("depth 3, ") and lines[3].endswith(" s")
    best, second = final_lines(lines)
    assert best == ("1", score, moves)
    assert second[0] == "2" and second[1] != score


def test_analyse_scores_are_signed_pawns(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "analyse", START, "--depth", "2", "--multipv", "3")
    assert code == 0
    rows = final_lines(lines)
    assert [rank for rank, _, _ in rows] == ["1", "2", "3"]
    for _, score, moves in rows:
        assert score[0] in "+-" and len(score.split(".")[1]) == 2, score
        assert len(moves) == 2


def test_analyse_gives_one_line_per_move_when_asked_for_more(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines, _ = run(capsys, "analyse", "7k/8/8/8/8/8/6PP/7K w - - 0 1", "--multipv", "9")
    assert code == 0
    firsts = sorted(moves[0] for _, _, moves in final_lines(lines))
    assert firsts == ["Kg1", "g3", "g4", "h3", "h4"]


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "checkmate"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate"),
    ],
)
def test_analyse_of_a_finished_position(
    capsys: pytest.CaptureFixture[str], fen: str, message: str
) -> None:
    code, lines, _ = run(capsys, "analyse", fen)
    assert (code, lines) == (0, [f"{message}: no lines"])


def test_analyse_a_pgn_file_at_its_end_or_a_ply(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "scholar.pgn"
    path.write_text(SCHOLARS_PGN)
    code, lines, _ = run(capsys, "analyse", str(path), "--depth", "2", "--multipv", "1")
    assert code == 0
    assert final_lines(lines) == [("1", "#1", ["Qxf7#"])]
    code, lines, _ = run(capsys, "analyse", str(path), "--depth", "2", "--ply", "4")
    assert code == 0
    assert all(not score.startswith("#") for _, score, _ in final_lines(lines))
    code, lines, _ = run(capsys, "analyse", str(path), "--depth", "1", "--ply", "0")
    assert code == 0 and len(final_lines(lines)) == 3


def test_analyse_with_a_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "analyse", KIWIPETE, "--movetime", "0.5", "--multipv", "1")
    assert code == 0
    assert len(final_lines(lines)) == 1


def test_analyse_accepts_impossible_checks_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "analyse", "4k3/8/8/8/8/8/3b1b2/4K3 w - - 0 1", "--depth", "1")
    assert code == 0
    assert "cannot arise in a game" in err
    assert len(final_lines(lines)) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyse", "missing.pgn"], "cannot read 'missing.pgn': No such file or directory"),
        (["analyse", "junk"], "invalid FEN 'junk'"),
        (["analyse", "{bad}.pgn"], "line 6: 4. 'Qxf9': malformed SAN 'Qxf9'"),
        (["analyse", "{good}.pgn", "--ply", "99"], "ply 99 is past the end of the game (6 plies)"),
        (["analyse", "{good}.pgn", "--game", "2"], "holds 1 game(s), not 2"),
    ],
)
def test_analyse_bad_input_is_an_error_with_exit_code_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "good.pgn").write_text(SCHOLARS_PGN)
    (tmp_path / "bad.pgn").write_text(SCHOLARS_PGN.replace("Nf6 *", "Nf6 4. Qxf9 *"))
    args = [arg.format(bad=tmp_path / "bad", good=tmp_path / "good") for arg in args]
    code, lines, err = run(capsys, *args)
    assert code == 2
    assert lines == []
    assert message in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyse", START, "--multipv", "0"], "expected a whole number >= 1"),
        (["analyse", START, "--depth", "x"], "expected a whole number >= 1"),
        (["analyse", START, "--movetime", "nan"], "expected a number of seconds above 0"),
        (["analyse"], "required"),
    ],
)
def test_analyse_bad_options_exit_2_without_traceback(args: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chesscore", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
