"""A game against the random computer in the browser: the player moves by clicking, the
computer answers through the server, ten moves each.

The test picks each of its moves with chesscore from the FEN the page shows: a move after
which no reply of the computer ends the game and, whatever it replies, the test has a move of
that kind again. Looking one move deep only (no mate in one) was not enough: a random game
reached a position where every move allowed mate (Qh4+ against an opened king), about 4 in
10,000 such games; looking two deep, each of 16 of those games had a way out a move earlier.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from chesscore import Board, Move
from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import (
    board_pieces,
    create_game,
    move_list,
    open_game,
    pieces_of_fen,
    play_by_clicks,
    server_state,
    start_server,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

MOVES = 10


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = start_server(tmp_path_factory.mktemp("computer"), env={"CHESS_COMPUTER_DELAY": "0.05"})
    yield live
    live.stop()


def lasts(board: Board, depth: int) -> bool:
    """After the test's move: the game goes on whatever the computer replies, and (at depth 2)
    after every reply the test has a move that lasts at depth 1."""
    if board.outcome() is not None:
        return False
    for reply in board.legal_moves():
        board.push(reply)
        goes_on = board.outcome() is None and (
            depth == 1 or any(lasts_after(board, move, depth - 1) for move in board.legal_moves())
        )
        board.pop()
        if not goes_on:
            return False
    return True


def lasts_after(board: Board, move: Move, depth: int) -> bool:
    board.push(move)
    try:
        return lasts(board, depth)
    finally:
        board.pop()


def choose_move(fen: str, rng: random.Random) -> str:
    """A random move that lasts two moves deep, or else one move deep."""
    board = Board.from_fen(fen)
    moves = board.legal_moves()
    rng.shuffle(moves)
    for depth in (2, 1):
        for move in moves:
            if lasts_after(board, move, depth):
                return move.uci()
    raise AssertionError(f"no move in {fen} keeps the game going")


def test_ten_moves_against_the_random_computer(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(server.url, opponent="computer", color="white", level=1)
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    rng = random.Random(6)
    try:
        page = open_game(context, server.url + created["links"]["private"])
        for number in range(MOVES):
            fen = page.locator("main.game").get_attribute("data-fen")
            play_by_clicks(page, choose_move(fen, rng))
            wait_for_ply(page, 2 * number + 2)  # the computer has answered
        assert len(move_list(page)) == 2 * MOVES
        state = server_state(server.url, created["game"])
        assert state["ply"] == 2 * MOVES
        assert board_pieces(page) == pieces_of_fen(state["fen"])
        assert page.locator("#turn").inner_text() == "White to move (your move)"
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
