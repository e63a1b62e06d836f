"""Preferences, the site menu and the game's quick phrases in real Chromium against a real
server (issue 36, items 2, 3 and 6): a choice on the preferences page changes the page at once
and every page after it is served with it (no flash of the default: the HTML itself carries
it); a game page with the board's colours, the dark theme, no confirmation to resign, promotion
to a queen without asking and no premoves, as chosen; the players' quick phrases seen by both
players and by no spectator; the menu on a phone folding behind its button, and on a desktop
opening by keyboard. Screenshots of the preferences page and the game with its chat, in the
dark theme, on desktop and phone, go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.game_client import api_join
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_seeks import DESKTOP, PHONE
from tests.test_browser_support import (
    click_square,
    collect_errors,
    create_game,
    move_list,
    open_game,
    play_by_clicks,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

server = module_server("browser-preferences")
DARK_PAPER = "rgb(22, 21, 18)"
SCREENS = {"desktop": DESKTOP, "phone": PHONE}


def choose(context: Any, site: str, **preferences: Any) -> None:
    """Set preferences the way the page does, in this browser (its cookie)."""
    reply = context.request.post(site + "/api/preferences", data=preferences)
    assert reply.ok, reply.text()


def html_class(page: Any) -> str:
    return str(page.evaluate("document.documentElement.className"))


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_choice_applies_at_once_and_every_page_is_served_with_it(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, screen: str
) -> None:
    context = browser.new_context(**SCREENS[screen])
    try:
        page = context.new_page()
        errors = collect_errors(page)
        page.goto(server.url + "/preferences")
        assert html_class(page) == "board-brown theme-light"
        page.get_by_label("Blue").check()
        page.get_by_label("Dark").check()
        page.get_by_label("Coordinates on the board").uncheck()
        expect(page.locator("html")).to_have_class("board-blue theme-dark coords-off")
        expect(page.locator("#preferences-status")).to_have_text("Saved.")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_PAPER
        page.screenshot(path=screenshot_path(request, f"-{screen}"), full_page=True)
        assert errors == []
        for path in ("/", "/analysis", "/train"):
            response = page.goto(server.url + path)
            # The served HTML has the classes: nothing is drawn with the default first.
            assert 'class="board-blue theme-dark coords-off"' in response.text(), path
            page.wait_for_timeout(500)  # the page's first drawing (the screenshot is looked at)
            name = path.strip("/") or "lobby"
            page.screenshot(path=screenshot_path(request, f"-{screen}-{name}"), full_page=True)
        board = page.locator("cg-board").last
        expect(board).to_be_visible()
        image = board.evaluate("(board) => getComputedStyle(board).backgroundImage")
        assert "conic-gradient" in image
        assert page.locator(".cg-wrap coords").first.is_hidden()
    finally:
        context.close()


def test_a_game_as_the_player_chose_it_with_the_players_quick_phrases(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    # White promotes at once: a7-a8 gives a queen without asking, under no confirmation.
    created = create_game(
        server.url,
        opponent="friend",
        color="white",
        fen="7k/P7/8/8/8/8/8/K7 w - - 0 1",
        clock={"minutes": 5, "increment": 3},
    )
    black_seat = api_join(server.url, created)
    white_context = browser.new_context(**DESKTOP)
    black_context = browser.new_context(**PHONE)
    watcher_context = browser.new_context(**DESKTOP)
    try:
        for context in (white_context, black_context):
            choose(context, server.url, theme="dark", board="green", auto_queen=True,
                   confirm_resign=False, premoves=False)  # fmt: skip
        white = open_game(white_context, server.url + created["links"]["private"])
        black = open_game(black_context, f"{server.url}/game/{created['game']}?seat={black_seat}")
        watcher = open_game(watcher_context, f"{server.url}/game/{created['game']}")
        expect(white.locator("#game-kind")).to_have_text("Casual · Blitz 5+3")
        for page in (white, black, watcher):
            expect(page.locator("#chat")).to_be_visible()
        expect(white.locator("#chat-title")).to_have_text("Chat")
        expect(watcher.locator("#chat-title")).to_have_text("Spectators' chat")

        white.get_by_role("button", name="Good luck").click()
        expect(black.locator("#chat-lines li")).to_have_text(["White: Good luck"])
        expect(white.locator("#chat-lines li")).to_have_text(["You: Good luck"])
        black.get_by_role("button", name="You too").click()
        expect(white.locator("#chat-lines li")).to_have_text(["You: Good luck", "Black: You too"])
        watcher.get_by_role("button", name="Hello").click()
        expect(watcher.locator("#chat-lines li")).to_have_text(["You: Hello"])
        expect(black.locator("#chat-lines li")).to_have_count(2)  # no spectator's line

        play_by_clicks(white, "a7a8")
        wait_for_ply(black, 1)
        assert move_list(white)[0].startswith("a8=Q")
        assert white.locator("#promotion").is_hidden()
        # No premoves: a piece picked up out of turn offers no squares.
        click_square(white, "a8")
        assert white.locator("cg-board square.premove-dest").count() == 0
        for page, name in ((white, "-desktop"), (black, "-phone")):
            page.screenshot(path=screenshot_path(request, name), full_page=True)
        black.locator("#resign").click()  # no confirmation asked
        expect(black.locator("#result")).to_be_visible()
        expect(black.locator("#confirm-resign")).to_have_count(0)
    finally:
        for context in (white_context, black_context, watcher_context):
            context.close()


@pytest.mark.parametrize(
    ("scheme", "paper"), [("dark", DARK_PAPER), ("light", "rgb(244, 241, 234)")]
)
def test_the_system_theme_follows_the_systems_colour_scheme(
    browser: Any, server: LiveServer, scheme: str, paper: str
) -> None:
    context = browser.new_context(**DESKTOP, color_scheme=scheme)
    try:
        choose(context, server.url, theme="system")
        page = context.new_page()
        page.goto(server.url + "/")
        assert html_class(page) == "board-brown theme-system"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == paper
    finally:
        context.close()


def test_the_chat_is_not_shown_when_turned_off(browser: Any, server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    context = browser.new_context(**DESKTOP)
    try:
        choose(context, server.url, chat=False)
        page = open_game(context, server.url + created["links"]["private"])
        page.wait_for_timeout(300)  # the join's reply has been handled (the page is connected)
        assert page.locator("#chat").is_hidden()
    finally:
        context.close()


def test_the_menu_folds_on_a_phone_and_opens_by_keyboard_on_a_desktop(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    phone = browser.new_context(**PHONE)
    desktop = browser.new_context(**DESKTOP)
    try:
        page = phone.new_page()
        page.goto(server.url + "/train")
        toggle = page.get_by_role("button", name="Menu")
        expect(page.locator("#site-menu")).to_be_hidden()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        for name in (
            "Play",
            "Puzzles",
            "Learn",
            "Watch",
            "Tools",
            "Analysis board",
            "Board editor",
        ):
            expect(page.get_by_role("link", name=name, exact=True)).to_be_visible()
        page.screenshot(path=screenshot_path(request, "-phone"))
        page.keyboard.press("Escape")
        expect(page.locator("#site-menu")).to_be_hidden()
        expect(toggle).to_be_focused()

        page = desktop.new_page()
        page.goto(server.url + "/")
        expect(page.get_by_role("button", name="Menu")).to_be_hidden()
        editor = page.get_by_role("link", name="Board editor")
        expect(editor).to_be_hidden()
        page.locator("#menu-tools").focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        expect(editor).to_be_focused()
        expect(editor).to_be_visible()
        page.keyboard.press("Enter")
        expect(page).to_have_url(server.url + "/analysis#editor")
        expect(page.locator("#editor")).to_be_visible()
    finally:
        phone.close()
        desktop.close()
