"""The lobby's TV leaves a game gone quiet (its players closed the tab, the game still "in
play") for a livelier one, in real Chromium against a real server whose quiet time is short
(CHESS_TV_QUIET_AFTER). Desktop and phone screenshots go to artifacts/."""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_seeks import DESKTOP, PHONE, open_lobby, start_game

pytestmark = pytest.mark.browser

QUIET_AFTER = 2.0
server = module_server("tv", {"CHESS_TV_QUIET_AFTER": str(QUIET_AFTER)})


def wait_until_quiet(server: LiveServer, game: str, bound: float = 60.0) -> None:
    """Wait until the lobby lists `game` as quiet (readiness, with a generous bound)."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        listed = requests.get(server.url + "/api/lobby", timeout=10).json()["games"]
        if any(entry["game"] == game and entry["quiet"] for entry in listed):
            return
        time.sleep(0.25)
    raise AssertionError(f"game {game} was not listed as quiet within {bound} s")


def test_the_tv_leaves_a_quiet_game_for_one_where_moves_are_made(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    abandoned, abandoned_players = start_game(server, ("Gone", "Away"))
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    clients = list(abandoned_players.values())
    try:
        assert abandoned_players["white"].move(abandoned, 0, "e2e4")["ok"]
        pages = [open_lobby(context, server) for context in contexts]
        for page in pages:
            expect(page.locator("#tv")).to_have_attribute("data-game", abandoned)
        for client in abandoned_players.values():
            client.close()  # the tabs closed; the game stays in play
        live, live_players = start_game(server, ("Tal", "Petrosian"))
        clients += list(live_players.values())
        wait_until_quiet(server, abandoned)
        assert live_players["white"].move(live, 0, "d2d4")["ok"]
        for page in pages:
            expect(page.locator("#tv")).to_have_attribute("data-game", live, timeout=15_000)
            expect(page.locator("#tv")).to_have_attribute("data-ply", "1")
            # The quiet game is still listed: it is in play, only nobody moves in it.
            expect(page.locator(f"#watch-list li[data-game='{abandoned}']")).to_have_count(1)
        pages[0].screenshot(path=screenshot_path(request, "-desktop"))
        pages[1].screenshot(path=screenshot_path(request, "-phone"), full_page=True)
    finally:
        for client in clients:
            client.close()
        for context in contexts:
            context.close()
