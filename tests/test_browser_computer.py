"""A game against the random computer in the browser: the player moves by clicking, the
computer answers through the server, ten moves each.

The test picks each of its moves with chesscore from the FEN the page shows, avoiding a move
after which the computer could mate at once, so the game is certain to last ten moves
whatever the random computer plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from chesscore import Board
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


def allows_mate_in_one(board: Board) -> bool:
    for reply in board.legal_moves():
        board.push(reply)
        mated = board.is_checkmate()
        board.pop()
        if mated:
            return True
    return False


def choose_move(fen: str, rng: random.Random) -> str:
    """A legal move that neither ends the game nor lets the opponent mate next move."""
    board = Board.from_fen(fen)
    moves = board.legal_moves()
    rng.shuffle(moves)
    for move in moves:
        board.push(move)
        safe = board.outcome() is None and not allows_mate_in_one(board)
        board.pop()
        if safe:
            return move.uci()
    raise AssertionError(f"no safe move in {fen}")


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
