"""The lobby: a game in two clicks, the invitation and watch links with copy buttons, the
browser's own games listed to come back to, clocks from the lobby, and a bad FEN refused with
the server's message. Copy buttons are checked through the real clipboard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import collect_errors, wait_connected

pytestmark = pytest.mark.browser


server = module_server("lobby")


def clipboard_context(browser: Any, server: LiveServer) -> Any:
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    return context


def read_clipboard(page: Any) -> str:
    return str(page.evaluate("navigator.clipboard.readText()"))


def test_friend_game_in_two_clicks_with_invitation(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    creator = clipboard_context(browser, server)
    friend = browser.new_context()
    try:
        page = creator.new_page()
        page.goto(server.url + "/")
        page.get_by_role("button", name="White").click()
        page.get_by_role("button", name="Play a friend").click()
        page.wait_for_url("**/game/*")
        wait_connected(page)
        assert page.locator("#role").inner_text() == "You play white"
        invite_row = page.locator("#invite-row")
        expect(invite_row).to_be_visible()
        expect(page.locator("#strip-black .player-name")).to_have_text("Waiting for a player…")
        page.get_by_role("button", name="Copy invitation link").click()
        invite = read_clipboard(page)
        assert "?invite=" in invite
        page.get_by_role("button", name="Copy watch link").click()
        game = page.locator("main.game").get_attribute("data-game")
        assert read_clipboard(page) == f"{server.url}/game/{game}"
        page.screenshot(path=screenshot_path(request, "-invite"))

        guest = friend.new_page()
        guest.goto(invite)
        wait_connected(guest)
        assert guest.locator("#role").inner_text() == "You play black"
        expect(invite_row).to_be_hidden()  # the friend's seat is taken

        errors = collect_errors(page)
        page.get_by_role("link", name="Chess").click()
        expect(page.locator("#my-games a")).to_have_count(1)
        assert page.locator("#my-games a").get_attribute("href") == f"/game/{game}"
        assert errors == []  # a visitor's lobby asks for no account's games (no 401 logged)
        page.screenshot(path=screenshot_path(request))
    finally:
        creator.close()
        friend.close()


def test_computer_game_with_clock_and_start_position(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    context = clipboard_context(browser, server)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.get_by_role("button", name="Black").click()
        page.get_by_role("button", name="5 minutes plus 3 seconds").click()
        page.get_by_label("Start position (FEN, optional)").fill(fen)
        page.get_by_role("button", name="Play the computer").click()
        page.wait_for_url("**/game/*")
        wait_connected(page)
        assert page.locator("#role").inner_text() == "You play black"
        expect(page.locator("#strip-white .player-name")).to_have_text("Computer (level 1)")
        expect(page.locator("#strip-black .you")).to_be_visible()
        expect(page.locator("#clock-black")).to_be_visible()
        page.wait_for_function("document.querySelector('main.game').dataset.ply === '1'")
        # Clocks start once both sides have moved: the computer's first move has not used any.
        assert page.locator("#clock-black").inner_text() == "5:00"
        assert page.locator("#clock-white").inner_text() in ("5:00", "5:03")
        page.get_by_role("button", name="Copy FEN").click()
        assert read_clipboard(page) == page.locator("main.game").get_attribute("data-fen")
        with page.expect_download() as download:
            page.get_by_role("button", name="Download PGN").click()
        pgn = Path(download.value.path()).read_text(encoding="utf-8")
        assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in pgn
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_a_bad_start_position_is_refused_with_the_servers_message(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.get_by_label("Start position (FEN, optional)").fill("not a fen")
        page.get_by_role("button", name="Play a friend").click()
        error = page.locator("#lobby-error")
        expect(error).to_contain_text("The game was not created:")
        expect(error).to_contain_text("not a fen")
        assert page.url == server.url + "/"
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
