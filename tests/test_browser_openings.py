"""The opening's name on the game page (issue 17): a spectator reads it under the players
during the game, a player only once the game is over; screenshots at desktop and phone widths."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import create_game, open_game, wait_for_ply

pytestmark = pytest.mark.browser

server = module_server("browser_openings")

MORPHY = "C70 Ruy Lopez: Morphy Defense"
MOVES = ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6")


def opening_line(page: Any) -> str | None:
    line = page.locator("#opening")
    return None if line.is_hidden() else str(line.inner_text()).strip()


@pytest.mark.parametrize(
    ("viewport", "suffix"),
    [({"width": 1100, "height": 850}, "-desktop"), ({"width": 390, "height": 844}, "-phone")],
)
def test_spectators_read_the_opening_and_players_after_the_game(
    browser: Any,
    server: LiveServer,
    request: pytest.FixtureRequest,
    viewport: dict[str, int],
    suffix: str,
) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game, white_seat = created["game"], created["seat"]
    black_seat = api_join(server.url, created)
    context = browser.new_context(viewport=viewport)
    try:
        watcher = open_game(context, server.url + created["links"]["watch"])
        player = open_game(context, server.url + created["links"]["private"])
        assert opening_line(watcher) is None  # nothing named at the start
        for ply, uci in enumerate(MOVES):
            api_move(server.url, game, white_seat if ply % 2 == 0 else black_seat, ply, uci)
        wait_for_ply(watcher, len(MOVES))
        wait_for_ply(player, len(MOVES))
        assert opening_line(watcher) == MORPHY
        assert opening_line(player) is None  # a hint the players do not get while they play
        watcher.screenshot(path=screenshot_path(request, suffix + "-spectator"))

        resigned = requests.post(
            f"{server.url}/api/games/{game}/actions",
            json={"action": "resign"},
            headers={"Authorization": f"Bearer {black_seat}"},
            timeout=10,
        )
        assert resigned.status_code == 200, resigned.text
        player.wait_for_function(
            "document.querySelector('#opening') && !document.querySelector('#opening').hidden"
        )
        assert opening_line(player) == MORPHY
        player.screenshot(path=screenshot_path(request, suffix + "-after-the-game"))
    finally:
        context.close()
