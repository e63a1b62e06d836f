"""The skeleton end to end: Chromium opens the lobby and a new game, and the board shows the
start position (32 pieces) on both, drawn by chessground from the server's FEN on the game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import create_game, open_game

pytestmark = pytest.mark.browser


def test_page_shows_the_start_position(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context()
    try:
        lobby = context.new_page()
        lobby.goto(live_server.url + "/")
        lobby.wait_for_function("document.querySelectorAll('cg-board piece').length === 32")
        lobby.screenshot(path=screenshot_path(request, "-lobby"))

        created = create_game(live_server.url, opponent="friend", color="white")
        page = open_game(context, live_server.url + created["links"]["watch"])
        page.wait_for_function("document.querySelectorAll('cg-board piece').length === 32")
        assert page.locator("cg-board piece.white").count() == 16
        assert page.locator("cg-board piece.black").count() == 16
        assert page.locator("cg-board piece.white.king").count() == 1
        assert page.locator("#connection").inner_text() == "Connected"
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
