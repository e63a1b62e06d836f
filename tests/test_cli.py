"""The command line, `python -m chesscore`: perft, moves and threats, and its refusals.

Most cases call `main()` in-process (capturing its output); a few run the real module in a
subprocess to check the exit code and that bad input never shows a traceback.
"""

from __future__ import annotations

import subprocess
import sys

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
