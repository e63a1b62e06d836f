"""The invited friend's name: a visitor who chose "Bob" on the lobby and then opened an
invitation link plays as "Bob" on both players' boards, in the PGN's Black tag, in the lobby's
list of games in play, and after a rematch, in real Chromium against a real server. Desktop and
phone screenshots go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_seeks import DESKTOP, PHONE, open_lobby
from tests.test_browser_support import wait_connected

pytestmark = pytest.mark.browser

server = module_server("friend-name")


def test_the_invited_friend_plays_under_the_name_chosen_on_the_lobby(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    creator_context, friend_context = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    try:
        creator = open_lobby(creator_context, server, "Alice")
        creator.get_by_role("button", name="White").click()
        creator.get_by_role("button", name="Play a friend").click()
        creator.wait_for_url("**/game/*")
        wait_connected(creator)
        invite = creator.locator("#invite-link").input_value()
        assert "?invite=" in invite, invite
        game = creator.locator("main.game").get_attribute("data-game")

        friend = open_lobby(friend_context, server, "Bob")
        friend.goto(invite)
        wait_connected(friend)
        for page in (creator, friend):
            expect(page.locator("#strip-black .player-name")).to_have_text("Bob")
            expect(page.locator("#strip-white .player-name")).to_have_text("Alice")
        pgn = requests.get(f"{server.url}/api/games/{game}/pgn", timeout=10).text
        assert '[White "Alice"]' in pgn and '[Black "Bob"]' in pgn
        creator.screenshot(path=screenshot_path(request, "-desktop"))
        friend.screenshot(path=screenshot_path(request, "-phone"))

        lobby = requests.get(server.url + "/api/lobby", timeout=10).json()
        (listed,) = [entry for entry in lobby["games"] if entry["game"] == game]
        assert listed["players"]["black"]["name"] == "Bob"

        # Joining again (a reload) with another name changes nothing: the name is given once.
        friend.evaluate("localStorage.setItem('chess.name', 'Robert')")
        friend.reload()
        wait_connected(friend)
        expect(creator.locator("#strip-black .player-name")).to_have_text("Bob")
        expect(friend.locator("#strip-black .player-name")).to_have_text("Bob")
    finally:
        creator_context.close()
        friend_context.close()
