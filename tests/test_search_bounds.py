"""Every search obeys its time bound on the positions that used to run away (issue 26, point 2):
nine queens a side, 127 legal moves, where depth 1 alone (its quiescence search) ran for
minutes. The game search, the multi-PV analysis and a review's one-ply evaluation each come back
on their own clock, with a legal answer, long before a watchdog (a cancel set after a generous
bound) would have to stop them: the order of the two events is asserted, never a duration."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import chess
import pytest

from chesscore import Board
from chesscore.engine.analyse import analyse
from chesscore.engine.search import Searcher, SearchLimits
from chesscore.review.evaluate import ReviewSetting, evaluate_position

# Legal (python-chess says so below), White to move, 127 legal moves; the mirror, Black to move.
NINE_QUEENS = "kq6/qq1qqQ2/Q6Q/Q7/4Q3/1q6/1Q3qQQ/2qq2QK w - - 0 1"
NINE_QUEENS_BLACK = "kq3q2/qq1q3Q/6q1/q5Q1/2q3Q1/1Q6/1Q4QQ/q3Q1QK b - - 0 1"
WATCHDOG_SECONDS = 120.0  # a cancel that only a runaway search would ever see


@pytest.fixture
def watchdog() -> Iterator[threading.Event]:
    """A cancel signal set after WATCHDOG_SECONDS: a search that obeys its clock never sees it."""
    cancel = threading.Event()
    timer = threading.Timer(WATCHDOG_SECONDS, cancel.set)
    timer.start()
    yield cancel
    timer.cancel()


@pytest.mark.parametrize("fen", [NINE_QUEENS, NINE_QUEENS_BLACK])
def test_the_positions_are_legal_and_wide(fen: str) -> None:
    board = chess.Board(fen)
    assert board.is_valid(), board.status()
    assert len(list(board.legal_moves)) >= 110
    assert len(list(chess.Board(NINE_QUEENS).legal_moves)) >= 120


@pytest.mark.parametrize("fen", [NINE_QUEENS, NINE_QUEENS_BLACK])
def test_the_game_search_answers_on_its_clock(fen: str, watchdog: threading.Event) -> None:
    info = Searcher(watchdog).search(Board.from_fen(fen), SearchLimits(depth=8, movetime=0.3))
    assert not watchdog.is_set()
    assert (
        info.move is not None
        and chess.Move.from_uci(info.move.uci()) in chess.Board(fen).legal_moves
    )


@pytest.mark.parametrize("fen", [NINE_QUEENS, NINE_QUEENS_BLACK])
def test_the_analysis_gives_lines_on_its_clock(fen: str, watchdog: threading.Event) -> None:
    updates = []
    result = analyse(
        Board.from_fen(fen), SearchLimits(depth=20, movetime=0.5), 3, updates.append, watchdog
    )
    assert not watchdog.is_set(), "the analysis ran until the watchdog cancelled it"
    assert result.done and len(result.lines) == 3
    assert [update.done for update in updates][-1] is True and len(updates) >= 2
    legal = chess.Board(fen).legal_moves
    assert all(chess.Move.from_uci(line.moves[0].uci()) in legal for line in result.lines)


def test_a_one_ply_review_evaluates_on_its_clock(watchdog: threading.Event) -> None:
    board = Board.from_fen(NINE_QUEENS)
    result = evaluate_position(board, ReviewSetting(seconds=0.3, depth=1), Searcher(watchdog))
    assert not watchdog.is_set(), "the review's position ran until the watchdog cancelled it"
    assert result.evaluation is not None and result.depth == 1
    assert chess.Move.from_uci(result.line[0].uci()) in chess.Board(NINE_QUEENS).legal_moves


def test_a_cancel_still_ends_depth_one_with_nothing() -> None:
    cancel = threading.Event()
    cancel.set()
    result = analyse(Board.from_fen(NINE_QUEENS), SearchLimits(depth=5), 3, cancel=cancel)
    assert result.done and result.lines == () and result.depth == 0


def test_a_node_budget_cuts_depth_one_too() -> None:
    result = analyse(Board.from_fen(NINE_QUEENS), SearchLimits(depth=5, nodes=2000), 2)
    assert result.done and result.depth == 1 and len(result.lines) == 2
