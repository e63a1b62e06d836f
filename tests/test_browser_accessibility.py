"""Accessibility of the pages: every control is a real button with an accessible name, each
move is announced in words in an aria-live region, and the flip button turns the board and
its overlay together."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import create_game, open_game, play_by_clicks, wait_for_ply

pytestmark = pytest.mark.browser

# A button's accessible name, in the order the accessible-name computation looks.
BUTTON_NAMES = """() => [...document.querySelectorAll('button')].map((button) => {
    const labelledBy = button.getAttribute('aria-labelledby');
    return (button.getAttribute('aria-label')
        || (labelledBy && document.getElementById(labelledBy)?.textContent)
        || button.textContent || button.title || '').trim();
})"""

# Elements a person can click that are not buttons, links or form fields.
CLICKABLE_NON_CONTROLS = """() => [...document.querySelectorAll('[onclick], [role=button]')]
    .filter((element) => element.tagName !== 'BUTTON').length"""


def assert_named_buttons(page: Any) -> None:
    names = page.evaluate(BUTTON_NAMES)
    assert names, "the page has no buttons"
    assert all(names), f"buttons without a name: {names}"
    assert page.evaluate(CLICKABLE_NON_CONTROLS) == 0


def test_controls_are_named_buttons_and_moves_are_announced(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(2)]
    try:
        lobby = contexts[0].new_page()
        lobby.goto(live_server.url + "/")
        assert_named_buttons(lobby)
        white = open_game(contexts[0], live_server.url + created["links"]["private"])
        black = open_game(contexts[1], live_server.url + created["links"]["invite"])
        white.get_by_role("button", name="Both").click()
        white.get_by_role("button", name="Every square").click()
        assert_named_buttons(white)
        for page in (white, black):
            assert page.locator("#announcer").get_attribute("aria-live") == "polite"

        play_by_clicks(white, "g1f3")
        wait_for_ply(black, 1)
        for page in (white, black):
            expect(page.locator("#announcer")).to_have_text("White knight from g1 to f3")
        play_by_clicks(black, "e7e5")
        wait_for_ply(white, 2)
        expect(white.locator("#announcer")).to_have_text("Black pawn from e7 to e5")
        assert_named_buttons(black)
        assert black.locator("#moves button.move").evaluate_all(
            "buttons => buttons.map(b => b.getAttribute('aria-label'))"
        ) == ["Move 1, white: Nf3", "Move 1, black: e5"]
        white.screenshot(path=screenshot_path(request))
    finally:
        for context in contexts:
            context.close()


def test_flip_turns_the_board_and_the_overlay(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        page = open_game(context, live_server.url + created["links"]["private"])
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        board = page.locator("cg-board").bounding_box()

        def corner_of(square: str) -> tuple[bool, bool]:
            """(is on the left half, is on the top half) of the board."""
            box = page.locator(f"#threat-grid [data-square='{square}']").bounding_box()
            return (
                box["x"] < board["x"] + board["width"] / 2,
                box["y"] < board["y"] + board["height"] / 2,
            )

        assert corner_of("a1") == (True, False)
        page.get_by_role("button", name="Flip the board").click()
        expect(page.locator(".cg-wrap#board")).to_have_class(re.compile(r"\borientation-black\b"))
        assert corner_of("a1") == (False, True)
        play_by_clicks(page, "e2e4")  # clicks still land on the right squares when flipped
        wait_for_ply(page, 1)
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
