"""The side panel's game actions between two people in two browsers: typed moves, a draw
offer declined, a takeback accepted, resignation with its confirmation, and a rematch that
takes both pages to the new game with the colours swapped."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import create_game, move_list, open_game, wait_for_ply

pytestmark = pytest.mark.browser


def type_move(page: Any, text: str) -> None:
    page.get_by_label("Type a move").fill(text)
    page.get_by_role("button", name="Play", exact=True).click()


def click(page: Any, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def test_offers_takeback_resignation_and_rematch(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(2)]
    try:
        white = open_game(contexts[0], live_server.url + created["links"]["private"])
        black = open_game(contexts[1], live_server.url + created["links"]["invite"])
        expect(white.get_by_role("button", name="Abort game")).to_be_visible()
        type_move(white, "e4")
        wait_for_ply(black, 1)
        type_move(black, "e7e5")
        wait_for_ply(white, 2)
        expect(white.get_by_role("button", name="Abort game")).to_have_count(0)

        assert white.locator("#strip-white .player-name").inner_text() == "White"
        assert white.locator("#strip-black .player-name").inner_text() == "Black"
        expect(white.locator("#strip-white .you")).to_be_visible()
        expect(white.locator("#strip-black .you")).to_be_hidden()
        click(white, "Offer a draw")
        expect(white.get_by_role("button", name="Draw offered…")).to_be_disabled()
        expect(black.locator("#offers")).to_have_text("White offers a draw")
        expect(black.locator("#announcer")).to_have_text("White offers a draw")
        click(black, "Decline draw")
        expect(white.get_by_role("button", name="Offer a draw")).to_be_visible()

        click(white, "Ask for a takeback")
        click(black, "Accept takeback")
        wait_for_ply(white, 0)
        wait_for_ply(black, 0)
        assert move_list(white) == move_list(black) == []

        type_move(white, "d4")
        wait_for_ply(black, 1)
        click(black, "Resign")
        click(black, "No, play on")
        click(black, "Resign")
        expect(black.locator(".confirm-question")).to_have_text("Resign this game?")
        black.screenshot(path=screenshot_path(request, "-confirm"))
        click(black, "Yes, resign")
        for page in (white, black):
            expect(page.locator("#result")).to_have_text("White wins by resignation (1-0)")
        white.screenshot(path=screenshot_path(request, "-resigned"))

        click(white, "Offer a rematch")
        click(black, "Accept rematch")
        for page, role in ((white, "black"), (black, "white")):
            page.wait_for_function(
                f"document.querySelector('main.game')?.dataset.role === '{role}'"
                f" && document.querySelector('main.game').dataset.game !== '{created['game']}'",
            )
        expect(white.locator("#role")).to_have_text("You play black")
        white.screenshot(path=screenshot_path(request))
    finally:
        for context in contexts:
            context.close()


def test_claim_a_threefold_repetition(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """After the knights go out and back twice, black may claim: the button shows and works."""
    created = create_game(live_server.url, opponent="friend", color="white")
    contexts = [browser.new_context(viewport={"width": 1100, "height": 850}) for _ in range(2)]
    try:
        white = open_game(contexts[0], live_server.url + created["links"]["private"])
        black = open_game(contexts[1], live_server.url + created["links"]["invite"])
        moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]
        for ply, san in enumerate(moves, start=1):
            type_move(white if ply % 2 == 1 else black, san)
            wait_for_ply(black, ply)
            wait_for_ply(white, ply)
        expect(white.get_by_role("button", name="Claim a draw")).to_have_count(0)
        click(black, "Claim a draw")
        for page in (white, black):
            expect(page.locator("#result")).to_have_text("Draw by threefold repetition (1/2-1/2)")
        black.screenshot(path=screenshot_path(request))
    finally:
        for context in contexts:
            context.close()
