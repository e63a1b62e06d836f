"""The server dies mid-game (kill -9) and comes back: the page reconnects by itself, shows the
connection state meanwhile, and the game goes on from the same position.

The opponent plays through the HTTP API with the seat token the invitation gave it, so the
page's only link to the game is its own Socket.IO connection.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.test_browser_support import (
    create_game,
    move_list,
    open_game,
    play_by_clicks,
    server_state,
    wait_connected,
    wait_for_ply,
)

pytestmark = pytest.mark.browser


def test_page_reconnects_after_a_server_restart(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    game = created["game"]
    black_seat = api_join(live_server.url, created)
    context = browser.new_context()
    try:
        page = open_game(context, live_server.url + created["links"]["private"])
        play_by_clicks(page, "e2e4")
        wait_for_ply(page, 1)

        live_server.kill()
        page.wait_for_function(
            "document.querySelector('#connection').dataset.state === 'reconnecting'"
        )
        assert page.locator("#connection").inner_text() == "Connection lost: reconnecting…"
        page.screenshot(path=screenshot_path(request, "-down"))
        live_server.start()
        wait_connected(page)

        api_move(live_server.url, game, black_seat, 1, "e7e5")
        wait_for_ply(page, 2)
        play_by_clicks(page, "g1f3")
        wait_for_ply(page, 3)
        assert move_list(page) == ["e4", "e5", "Nf3"]
        state = server_state(live_server.url, game)
        assert [move["san"] for move in state["moves"]] == ["e4", "e5", "Nf3"]
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
