"""Two people play a whole game in the browser while a third watches.

Three browser contexts (three separate cookie jars, so three separate people) open the same
game: the creator through the private link, the friend through the invitation link, the
spectator through the watch link. The players move by clicking squares; after every move the
test checks that all three pages show the new position and the spectator's move list holds
every move so far. Then the result, the spectator's lack of controls and stepping back
through the game are checked.
"""

from __future__ import annotations

from typing import Any

import pytest

from chesscore import Board
from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import (
    board_pieces,
    create_game,
    highlighted_squares,
    move_list,
    open_game,
    pieces_of_fen,
    play_by_clicks,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

# Scholar's mate: seven plies, checkmate by a capture.
SCHOLARS_MATE = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]
SCHOLARS_MATE_SAN = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


def fens_after_each_move(moves: list[str]) -> list[str]:
    board = Board()
    fens = [board.fen()]
    for uci in moves:
        board.push_uci(uci)
        fens.append(board.fen())
    return fens


def test_two_players_play_to_checkmate_while_a_spectator_watches(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(3)]
    try:
        white = open_game(contexts[0], live_server.url + created["links"]["private"])
        black = open_game(contexts[1], live_server.url + created["links"]["invite"])
        watcher = open_game(contexts[2], live_server.url + created["links"]["watch"])
        assert [
            page.locator("main.game").get_attribute("data-role") for page in (white, black, watcher)
        ] == [
            "white",
            "black",
            "spectator",
        ]
        fens = fens_after_each_move(SCHOLARS_MATE)
        for ply, uci in enumerate(SCHOLARS_MATE, start=1):
            mover = white if ply % 2 == 1 else black
            play_by_clicks(mover, uci)
            for page in (white, black, watcher):
                wait_for_ply(page, ply)
            assert move_list(watcher) == SCHOLARS_MATE_SAN[:ply]
            assert board_pieces(watcher) == pieces_of_fen(fens[ply])
            assert board_pieces(white) == pieces_of_fen(fens[ply])
        for page in (white, black, watcher):
            page.wait_for_function("document.querySelector('#result').textContent !== ''")
            assert page.locator("#result").inner_text() == "White wins by checkmate (1-0)"
        assert (
            watcher.locator("#announcer").inner_text()
            == "White queen from h5 takes pawn on f7, checkmate. White wins by checkmate (1-0)"
        )
        for page in (white, black, watcher):
            assert highlighted_squares(page, "check") == {"e8"}
            assert highlighted_squares(page, "last-move") == {"h5", "f7"}
        white.screenshot(path=screenshot_path(request, "-white"))
        watcher.screenshot(path=screenshot_path(request, "-spectator"))

        # The spectator has no controls, and steps back through the game it watched.
        assert watcher.locator("#actions button").count() == 0
        assert watcher.locator("#typed-move").is_hidden()
        watcher.locator("#moves button.move[data-ply='3']").click()
        watcher.wait_for_function("document.querySelector('main.game').dataset.viewPly === '3'")
        assert board_pieces(watcher) == pieces_of_fen(fens[3])
        assert watcher.locator("#moves button[aria-current='true']").inner_text() == "Bc4"
        watcher.get_by_role("button", name="Previous move").click()
        assert board_pieces(watcher) == pieces_of_fen(fens[2])
        watcher.get_by_role("button", name="Latest position").click()
        assert board_pieces(watcher) == pieces_of_fen(fens[7])
    finally:
        for context in contexts:
            context.close()
