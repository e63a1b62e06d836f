"""The review core (chesscore.review): judging plies from evaluations fixed by hand (the 10/20/30
point boundaries, the mate rules, the mating ply, the stalemating ply), real short games
reviewed end to end at a small depth (the blunder found and explained, the mate and the
stalemate at the end), the evaluation pass (one searcher across the positions, cancel and
resume), the annotated PGN read back by python-chess and by our own reader, and the command
line run as a real process.

Reviews here are capped by depth, not by time, with a time budget far above what the depth
needs, so their numbers are the same on a loaded machine.
"""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import chess
import chess.pgn
import pytest

from chesscore.analysis.judgement import Evaluation, Judgement
from chesscore.review.evaluate import (
    PositionEval,
    ReviewSetting,
    evaluate_position,
    evaluate_positions,
    merge_positions,
    verify_positions,
)
from chesscore.review.judge import (
    count_judgements,
    initial_to_json,
    positions_to_verify,
    review_accuracy,
    review_plies,
    review_ply,
)
from chesscore.review.pgn import reviewed_pgn
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.pgn_import import read_games

# Depth-capped: the time budget is never what stops these searches.
SMALL = ReviewSetting(seconds=60, depth=4)
SCHOLAR = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
# Blackburne's trap: 5. Nxf7?? loses to 5...Qxg2 and mate follows.
TRAP = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2", "Rf1", "Qxe4+"]
TRAP += ["Be2", "Nf3#"]
STALEMATE_START = "k7/8/8/2Q5/8/8/8/6K1 w - - 0 1"  # 1. Qb6 stalemates
ROOT = Path(__file__).resolve().parent.parent


def play(sans: list[str], fen: str | None = None) -> tuple[Board, list[Move]]:
    start = Board.from_fen(fen) if fen else Board()
    board = start.copy()
    return start, [board.push_san(san) for san in sans]


TRAP_SETTING = ReviewSetting(seconds=60, depth=5)


@pytest.fixture(scope="module")
def trap_evals() -> list[PositionEval]:
    """Blackburne's trap evaluated at depth 5 (once for the module: the slowest review here)."""
    start, moves = play(TRAP)
    return evaluate_positions(start, moves, TRAP_SETTING)


def position(
    index: int, evaluation: Evaluation | None, line: tuple[Move, ...] = ()
) -> PositionEval:
    return PositionEval(index, evaluation, line, 10, 1000)


# -- judging from evaluations fixed by hand ------------------------------------------------


E4 = Move.from_uci("e2e4")
D4 = Move.from_uci("d2d4")


@pytest.mark.parametrize(
    ("after_cp", "expected"),
    [
        # From 0.00, White's winning chances drop 10/20/30 points at -54.5/-110.1/-168.1 cp.
        (-54, None),
        (-55, Judgement.INACCURACY),
        (-110, Judgement.INACCURACY),
        (-111, Judgement.MISTAKE),
        (-168, Judgement.MISTAKE),
        (-169, Judgement.BLUNDER),
    ],
)
def test_the_class_of_a_ply_at_the_thresholds(after_cp: int, expected: Judgement | None) -> None:
    board = Board()
    before = position(0, Evaluation(cp=0), (D4,))
    after = position(1, Evaluation(cp=after_cp))
    reviewed = review_ply(board, E4, before, after, 1)
    assert reviewed.judgement == expected
    item = reviewed.to_json()
    assert item["class"] == (expected.name.lower() if expected else None)
    assert item["nag"] == (expected.nag if expected else None)
    assert item["symbol"] == (expected.symbol if expected else None)
    assert (item["explanation"] is None) == (expected is None)


def test_the_same_drop_is_good_for_black() -> None:
    board = Board.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    before = position(1, Evaluation(cp=0), (Move.from_uci("c7c5"),))
    after = position(2, Evaluation(cp=-300))
    assert review_ply(board, Move.from_uci("e7e5"), before, after, 2).judgement is None
    after = position(2, Evaluation(cp=300))
    assert review_ply(board, Move.from_uci("e7e5"), before, after, 2).judgement == (
        Judgement.BLUNDER
    )


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (Evaluation(cp=50), Evaluation(mate=-3), Judgement.BLUNDER),  # a mate allowed
        (Evaluation(cp=-800), Evaluation(mate=-2), Judgement.MISTAKE),  # lost already
        (Evaluation(cp=-1000), Evaluation(mate=-2), Judgement.INACCURACY),
        (Evaluation(mate=2), Evaluation(cp=300), Judgement.BLUNDER),  # a mate missed
        (Evaluation(mate=2), Evaluation(cp=800), Judgement.MISTAKE),
        (Evaluation(mate=2), Evaluation(cp=1200), Judgement.INACCURACY),
        (Evaluation(mate=2), Evaluation(mate=5), None),  # a slower mate is still a mate
        (Evaluation(mate=2), Evaluation(mate=-4), Judgement.BLUNDER),
        (Evaluation(mate=-3), Evaluation(mate=-2), None),  # mated either way
    ],
)
def test_mate_rules(before: Evaluation, after: Evaluation, expected: Judgement | None) -> None:
    reviewed = review_ply(Board(), E4, position(0, before, (D4,)), position(1, after), 1)
    assert reviewed.judgement == expected


def test_the_engines_own_best_move_is_never_marked() -> None:
    """A drop along the engine's own line is two searches disagreeing, not a bad move."""
    before = position(0, Evaluation(cp=0), (E4,))
    reviewed = review_ply(Board(), E4, before, position(1, Evaluation(cp=-400)), 1)
    assert reviewed.judgement is None and reviewed.explanation is None
    assert reviewed.best == E4 and reviewed.best_san == "e4"


def test_a_ply_that_mates_is_never_bad() -> None:
    start, moves = play(SCHOLAR)
    board = start.copy()
    for move in moves[:-1]:
        board.push(move)
    # Even with a best line that prefers another move and a poor evaluation before.
    other = board.parse_san("Qxe5+")
    before = position(6, Evaluation(cp=-200), (other,))
    reviewed = review_ply(board, moves[-1], before, position(7, None), 7)
    assert reviewed.judgement is None
    assert reviewed.accuracy == 100.0
    assert reviewed.to_json()["eval"] is None
    assert reviewed.san == "Qxf7#"


def test_a_ply_that_stalemates_counts_as_a_draw() -> None:
    start, moves = play(["Qb6"], STALEMATE_START)
    before = position(0, Evaluation(cp=900), (start.parse_san("Qc6+"),))
    reviewed = review_ply(start, moves[0], before, position(1, None), 1)
    assert reviewed.judgement == Judgement.BLUNDER  # +9.00 thrown away to 0.00
    assert reviewed.evaluation is None
    before = position(0, Evaluation(cp=0), (start.parse_san("Qc6+"),))
    assert review_ply(start, moves[0], before, position(1, None), 1).judgement is None


def test_the_wire_item_names_squares() -> None:
    board = Board.from_fen("7k/4q3/8/6B1/8/8/2N5/K7 w - - 0 1")
    move = board.parse_san("Nd4")
    after_board = board.copy()
    after_board.push(move)
    before = position(0, Evaluation(cp=880), (board.parse_san("Bxe7"),))
    after = position(1, Evaluation(cp=-300), (after_board.parse_san("Qxg5"),))
    item = review_ply(board, move, before, after, 1).to_json()
    assert item == {
        "ply": 1,
        "color": "white",
        "san": "Nd4",
        "uci": "c2d4",
        "fen": "7k/4q3/8/6B1/3N4/8/8/K7 b - - 1 1",
        "eval": {"cp": -300},
        "best": {"uci": "g5e7", "san": "Bxe7"},
        "line": ["Bxe7"],
        "class": "blunder",
        "symbol": "??",
        "nag": 4,
        "accuracy": item["accuracy"],
        "explanation": {
            "text": "Nd4?? loses a bishop: it leaves the bishop on g5 attacked by the queen on e7 "
            "and defended by nothing (Qxg5). Better was Bxe7, taking the queen on e7 for nothing "
            "(+8.8).",
            "words": item["explanation"]["words"],
            "names_best": True,
            "kinds": ["hanging", "free_piece_missed", "material_missed"],
            "squares": item["explanation"]["squares"],
            "arrows": item["explanation"]["arrows"],
            "claims": item["explanation"]["claims"],
        },
    }
    # What the text says, as data: the bishop lost in the line Nd4 Qxg5, the queen won by Bxe7.
    claims = [
        (c["kind"], c["color"], c["line"], c["pieces"]) for c in item["explanation"]["claims"]
    ]
    assert claims == [
        ("material", "white", ["c2d4", "e7g5"], ["bishop"]),
        ("capture", "white", ["c2d4", "e7g5"], []),
        ("material", "black", ["g5e7"], ["queen"]),
        ("capture", "black", ["g5e7"], []),
    ]
    assert 0 <= item["accuracy"] < 10
    assert set(item["explanation"]["squares"]) >= {"g5", "e7"}
    assert {"from": "e7", "to": "g5", "role": "move"} in item["explanation"]["arrows"]


def test_counts_per_side(trap_evals: list[PositionEval]) -> None:
    start, moves = play(TRAP)
    counts = count_judgements(review_plies(start, moves, trap_evals))
    assert set(counts) == {"white", "black"}
    assert list(counts["white"]) == ["inaccuracy", "mistake", "blunder"]
    assert counts["white"]["blunder"] >= 1


# -- whole games at a small depth ------------------------------------------------------------


def test_a_real_game_with_a_blunder_is_found_and_explained(
    trap_evals: list[PositionEval],
) -> None:
    start, moves = play(TRAP)
    evals = trap_evals
    assert [e.index for e in evals] == list(range(len(moves) + 1))
    plies = review_plies(start, moves, evals)
    by_san = {p.san: p for p in plies}
    blunder = by_san["Nxf7"]
    assert blunder.judgement == Judgement.BLUNDER
    assert blunder.best_san == "Bxf7+"
    assert blunder.explanation is not None
    assert blunder.explanation.text == (
        "Nxf7?? loses a rook: it leaves the pawn on g2 attacked by the queen on g5 and defended "
        "by nothing (Qxg2 d3 Qxh1+). Better was Bxf7+, which wins a pawn: Bxf7+ Ke7 Bxg8 Rxg8 "
        "(+1.2)."
    )
    # The mating ply at the end: no evaluation, never bad, full accuracy.
    last = plies[-1]
    assert last.san == "Nf3#" and last.evaluation is None and last.judgement is None
    assert last.accuracy == 100.0
    assert evals[-1].evaluation is None and evals[-1].line == ()
    # The mate in 1 before it was seen as one.
    assert evals[-2].evaluation == Evaluation(mate=-1)
    white, black = review_accuracy(evals, start, moves)
    assert white is not None and black is not None and white < black


def test_scholars_mate_allows_mate_in_one() -> None:
    start, moves = play(SCHOLAR)
    evals = evaluate_positions(start, moves, SMALL)
    plies = review_plies(start, moves, evals)
    nf6 = plies[5]
    assert nf6.san == "Nf6" and nf6.judgement == Judgement.BLUNDER
    assert nf6.evaluation == Evaluation(mate=1)
    assert nf6.explanation is not None
    assert nf6.explanation.text.startswith("Nf6?? walks into mate in 1: Qxf7#.")
    assert nf6.explanation.kinds[0].value == "mate_allowed"
    assert plies[-1].judgement is None and plies[-1].evaluation is None


def test_a_game_ending_in_stalemate() -> None:
    start, moves = play(["Qb6"], STALEMATE_START)
    evals = evaluate_positions(start, moves, SMALL)
    assert evals[1].evaluation is None and evals[1].line == () and evals[1].depth == 0
    (ply,) = review_plies(start, moves, evals)
    assert ply.judgement == Judgement.BLUNDER  # a won game given away
    assert review_accuracy(evals, start, moves)[1] is None  # Black made no move
    assert initial_to_json(start, evals[0])["best"]["san"] != "Qb6"


def test_a_position_drawn_on_the_board_is_zero() -> None:
    board = Board.from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1")  # insufficient material
    result = evaluate_position(board, SMALL)
    assert result.evaluation == Evaluation(cp=0) and result.line


def test_a_game_ended_by_threefold_repetition_ends_at_zero() -> None:
    queen_up = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"
    shuffle = ["Qd2", "Ke7", "Qd1", "Ke8"] * 2  # the start position for the third time
    start, moves = play(shuffle, queen_up)
    evals = evaluate_positions(start, moves, SMALL)
    assert evals[-1].evaluation == Evaluation(cp=0) and evals[-1].line
    # Played on, the same position is not the game's end: the engine's number stands.
    start, moves = play([*shuffle, "Qd2"], queen_up)
    evals = evaluate_positions(start, moves, SMALL)
    assert evals[8].evaluation is not None and evals[8].evaluation.capped_cp() > 500


# -- the evaluation pass: one searcher, cancel, resume -----------------------------------


def test_one_searcher_across_the_positions_reuses_its_table(
    trap_evals: list[PositionEval],
) -> None:
    """The same depths with one searcher cost fewer nodes than with a new one per position:
    what one position's search stored answers much of the next's."""
    start, moves = play(TRAP)
    setting, shared = TRAP_SETTING, trap_evals
    board = start.copy()
    fresh = []
    for index, move in enumerate([*moves, None]):
        fresh.append(evaluate_position(board, setting, None, index))
        if move is not None:
            board.push(move)
    assert [e.depth for e in shared] == [e.depth for e in fresh]
    assert sum(e.nodes for e in shared) < 0.9 * sum(e.nodes for e in fresh)


def test_cancel_between_positions_and_resume() -> None:
    start, moves = play(SCHOLAR)
    cancel = threading.Event()
    seen: list[int] = []

    def on_position(result: PositionEval) -> None:
        seen.append(result.index)
        if result.index == 2:
            cancel.set()

    first = evaluate_positions(start, moves, SMALL, on_position, cancel)
    assert [e.index for e in first] == [0, 1, 2] == seen
    rest = evaluate_positions(start, moves, SMALL, first=3)
    assert [e.index for e in rest] == [3, 4, 5, 6, 7]
    whole = evaluate_positions(start, moves, SMALL)
    assert [e.evaluation for e in whole][3:] == [e.evaluation for e in rest]


class CountdownSignal:
    """Raised once it has been looked at `count` times: a cancel in the middle of a search."""

    def __init__(self, count: int) -> None:
        self.count = count

    def is_set(self) -> bool:
        self.count -= 1
        return self.count < 0


def test_a_search_cut_by_cancel_is_not_reported() -> None:
    start, moves = play(TRAP)
    deep = ReviewSetting(seconds=60, depth=30)
    evals = evaluate_positions(start, moves, deep, cancel=CountdownSignal(4))
    assert len(evals) < 2
    assert all(e.depth > 0 for e in evals)


# -- the second look ---------------------------------------------------------------------


def test_positions_to_verify_are_those_around_big_drops() -> None:
    start, moves = play(["e4", "e5", "Nf3", "Nc6"])
    line = {index: (move,) for index, move in enumerate(moves)}
    cps = [0, -120, -100, -100, 60]  # drops: 1: 21.9 points, 2: none, 3: none, 4: 29.7
    evals = [position(i, Evaluation(cp=cp), line.get(i + 5, ())) for i, cp in enumerate(cps)]
    assert positions_to_verify(start, moves, evals) == [0, 1, 3, 4]
    assert positions_to_verify(start, moves, evals, points=25) == [3, 4]
    # The engine's own best move is not looked at again; a missing position is skipped.
    evals[3] = position(3, Evaluation(cp=-100), (moves[3],))
    assert positions_to_verify(start, moves, evals) == [0, 1]
    assert positions_to_verify(start, moves, evals[:2]) == [0, 1]
    # A mate rule's mark counts whatever the points.
    evals[1] = position(1, Evaluation(mate=-5), (moves[1],))
    assert positions_to_verify(start, moves, evals[:2], points=99) == [0, 1]


def test_verify_positions_keeps_the_deeper_numbers() -> None:
    start, moves = play(TRAP)
    shallow = ReviewSetting(seconds=60, depth=3)
    evals = evaluate_positions(start, moves, shallow)
    again = positions_to_verify(start, moves, evals)
    assert again and again == sorted(again)
    seen: list[int] = []
    verified = verify_positions(
        start, moves, evals, again, ReviewSetting(seconds=60, depth=5),
        lambda result: seen.append(result.index),
    )  # fmt: skip
    assert [e.index for e in verified] == again == seen
    assert all(e.depth >= evals[e.index].depth for e in verified)
    assert any(e.depth == 5 for e in verified)
    merged = merge_positions(evals, verified)
    assert [e.index for e in merged] == list(range(len(moves) + 1))
    assert all(merged[e.index] == e for e in verified)
    # A first-pass number deeper than the second look's is kept.
    deep = [e if e.index != again[0] else PositionEval(e.index, e.evaluation, e.line, 40, 1)
            for e in evals]  # fmt: skip
    kept = verify_positions(start, moves, deep, again[:1], shallow)
    assert kept == [deep[again[0]]]
    with pytest.raises(ValueError, match="positions must be 0 to 14"):
        verify_positions(start, moves, evals, [3, 15], shallow)
    cancel = threading.Event()
    cancel.set()
    assert verify_positions(start, moves, evals, again, shallow, cancel=cancel) == []


def test_bad_arguments() -> None:
    start, moves = play(SCHOLAR)
    with pytest.raises(ValueError, match="first must be 0 to 7"):
        evaluate_positions(start, moves, SMALL, first=8)
    with pytest.raises(ValueError, match="illegal move e2e4"):
        evaluate_positions(start, [E4, E4], SMALL)
    with pytest.raises(ValueError, match="seconds"):
        ReviewSetting(seconds=0)
    with pytest.raises(ValueError, match="depth"):
        ReviewSetting(depth=0)
    assert ReviewSetting().to_json() == {"seconds": 0.5, "depth": 12}


# -- the annotated PGN -------------------------------------------------------------------


@pytest.fixture(scope="module")
def trap_pgn(trap_evals: list[PositionEval]) -> str:
    start, moves = play(TRAP)
    evals = trap_evals
    plies = review_plies(start, moves, evals)
    accuracy = review_accuracy(evals, start, moves)
    headers = {"White": "Anne", "Black": "Bob", "Result": "0-1"}
    return reviewed_pgn(headers, start, plies, accuracy)


def test_the_pgn_is_read_back_by_python_chess(trap_pgn: str) -> None:
    game = chess.pgn.read_game(io.StringIO(trap_pgn))
    assert game is not None and not game.errors
    assert game.headers["White"] == "Anne" and game.headers["Annotator"] == "chesscore review"
    assert game.comment.startswith("Accuracy: White ")
    nodes = list(game.mainline())
    assert [node.san() for node in nodes] == TRAP
    nxf7 = nodes[8]
    assert nxf7.nags == {chess.pgn.NAG_BLUNDER}
    assert nxf7.comment.startswith("Nxf7?? loses a rook: it leaves the pawn on g2")
    score = nxf7.eval()
    assert score is not None and score.white().score() == -362
    # Every move has its evaluation but the mating one; a mate is written as one.
    assert all(node.eval() is not None for node in nodes[:-1]) and nodes[-1].eval() is None
    mate_in_one = nodes[-2].eval()
    assert mate_in_one is not None and mate_in_one.white().mate() == -1
    # Each mark is its explanation's: "Be2?" with $2, "Nxf7??" with $4; unmarked moves have none.
    symbols = {chess.pgn.NAG_DUBIOUS_MOVE: "?!", chess.pgn.NAG_MISTAKE: "?", 4: "??"}
    for node in nodes:
        expected = {
            nag for nag, mark in symbols.items() if node.comment.startswith(f"{node.san()}{mark} ")
        }
        assert node.nags == expected


def test_the_pgn_is_read_back_by_our_reader(trap_pgn: str) -> None:
    (game,) = read_games(trap_pgn)
    assert [node.san for node in game.moves] == TRAP
    assert game.moves[8].nags == (4,) and game.moves[8].evaluation == "-3.62"
    assert "Better was Bxf7+" in game.moves[8].comment
    assert game.comment.startswith("Accuracy: White ")


def test_the_pgn_names_the_best_move_when_the_explanation_does_not() -> None:
    board = Board()
    before = position(0, Evaluation(cp=0), (D4,))
    ply = review_ply(board, E4, before, position(1, Evaluation(cp=-200)), 1)
    assert ply.explanation is not None
    ply = type(ply)(**{**ply.__dict__, "explanation": None})
    text = reviewed_pgn({}, board, [ply], (10.0, None))
    assert "1. e4 $4 { Blunder. Best: d4. [%eval -2.00] }" in text
    assert "{ Accuracy: White 10.0%. }" in text


# -- the command line ----------------------------------------------------------------------


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chesscore", "review", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_cli_prints_the_annotated_pgn_and_progress(tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text(
        '[White "A"]\n\n1. d4 d5 *\n\n[White "Anne"]\n[Black "Bob"]\n[Result "1-0"]\n\n'
        "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
    )
    result = run_cli(str(path), "--game", "2", "--seconds", "5", "--depth", "3")
    assert result.returncode == 0, result.stderr
    game = chess.pgn.read_game(io.StringIO(result.stdout))
    assert game is not None and game.headers["White"] == "Anne"
    assert [node.san() for node in game.mainline()] == SCHOLAR
    assert chess.pgn.NAG_BLUNDER in list(game.mainline())[5].nags
    lines = result.stderr.splitlines()
    # Not a terminal: plain progress lines (the first at once, the last always), no \r.
    assert lines[0] == "1/8 positions" and "8/8 positions" in lines and "\r" not in result.stderr
    assert lines[-1].startswith("White ") and "Black " in lines[-1]
    assert "1 blunder" in lines[-1] and "8 positions (" in lines[-1]


def test_cli_progress_on_a_terminal_is_one_line_redrawn(tmp_path: Path) -> None:
    path = tmp_path / "scholar.pgn"
    path.write_text("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
    main, other = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "chesscore", "review", str(path), "--depth", "3"],
        stdout=subprocess.PIPE,
        stderr=other,
        cwd=ROOT,
    ) as process:
        os.close(other)
        stdout, _ = process.communicate(timeout=60)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal's other end is closed: all was read
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(main)
    assert process.returncode == 0
    assert b"1. e4" in stdout
    shown = b"".join(chunks).decode()
    assert "\r[" in shown and "] 8/8 positions" in shown
    first_line = shown.split("\r\n")[0]  # the terminal writes each newline as \r\n
    assert first_line.count("\r") == 8  # one redraw per position, on one line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.pgn"], "error: cannot read 'missing.pgn'"),
        (["BAD"], "error: "),
        (["--depth", "0", "x.pgn"], "expected a whole number >= 1"),
        (["--seconds", "-1", "x.pgn"], "expected a number of seconds above 0"),
    ],
)
def test_cli_bad_input_exits_2(args: list[str], message: str, tmp_path: Path) -> None:
    (tmp_path / "BAD").write_text("1. e4 e5 2. Ke3 *\n")
    result = subprocess.run(
        [sys.executable, "-m", "chesscore", "review", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_cli_bad_pgn_says_where(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text("1. e4 e5 2. Ke3 *\n")
    result = run_cli(str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "Ke3" in result.stderr
    game_two = run_cli(str(path), "--game", "3")
    assert game_two.returncode == 2
