"""The small things a lichess player reaches for, in real Chromium against a real server
(issue 36, items 4 and 7): the lobby shows the signed-in player's ratings, greys a challenge
whose rating range leaves the player out (its Join off, the reason beside it) and remembers the
Rated ticks; deleting an account asks first; a spectator of a game already reviewed is offered
"View the review"; the review of an imported PGN opens in the analysis board. Screenshots of
the lobby in the dark theme, desktop and phone, go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.game_client import WAIT_SECONDS
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_accounts import PASSWORD, sign_up
from tests.test_browser_review import OPERA_GAME, finish_game
from tests.test_browser_seeks import DESKTOP, PHONE
from tests.test_browser_support import open_game
from tests.test_server_ratings import Player

pytestmark = pytest.mark.browser

server = module_server(
    "browser-home-trips",
    {"CHESS_TRUSTED_PROXIES": "1", "CHESS_SIGNUP_BURST": "1000", "CHESS_STOCKFISH": "none"},
)
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]


def new_name(tag: str) -> str:
    import secrets

    return f"{tag}{secrets.token_hex(4)}"


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_lobby_shows_the_players_ratings_and_greys_a_challenge_out_of_range(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, screen: str
) -> None:
    context = browser.new_context(**(DESKTOP if screen == "desktop" else PHONE))
    owner, other = Player(server.url), Player(server.url)  # a seek each: one replaces another
    try:
        page = context.new_page()
        sign_up(page, server.url, new_name("lobby"))
        context.request.post(server.url + "/api/preferences", data={"theme": "dark"})
        high = owner.lobby.call(
            "seek", {"control": "5+3", "rated": True, "rating_range": [1600, 2000]}
        )
        low = other.lobby.call(
            "seek", {"control": "3+2", "rated": True, "rating_range": [1400, 1600]}
        )
        assert high["ok"] and low["ok"], (high, low)
        page.goto(server.url + "/")
        ratings = page.locator("#my-ratings .my-rating")
        expect(ratings).to_have_count(4)
        expect(page.locator("#my-ratings [data-speed='blitz']")).to_contain_text("Blitz 1500?")
        barred = page.locator(f"#seek-list tr[data-seek='{high['seek']['id']}']")
        expect(barred).to_have_class("out-of-range")
        expect(barred.get_by_role("button")).to_be_disabled()
        expect(barred).to_contain_text("For ratings 1600\u20132000: yours is 1500")
        open_row = page.locator(f"#seek-list tr[data-seek='{low['seek']['id']}']")
        expect(open_row.get_by_role("button")).to_be_enabled()
        expect(page.locator(".seek-table th").nth(0)).to_have_text("Player")
        page.screenshot(path=screenshot_path(request, f"-{screen}"), full_page=True)

        # The Rated ticks are remembered by the browser.
        page.locator("#pair-rated").check()
        page.locator("#seek-rated").check()
        page.reload()
        expect(page.locator("#pair-rated")).to_be_checked()
        expect(page.locator("#seek-rated")).to_be_checked()
        expect(page.locator("#seek-assisted")).to_be_disabled()  # as a rated tick does
        page.locator("#pair-rated").uncheck()
        page.reload()
        expect(page.locator("#pair-rated")).not_to_be_checked()
    finally:
        owner.close()
        other.close()
        context.close()


@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_deleting_the_account_asks_first(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, screen: str
) -> None:
    context = browser.new_context(**(DESKTOP if screen == "desktop" else PHONE))
    name = new_name("gone")
    try:
        page = context.new_page()
        sign_up(page, server.url, name)
        context.request.post(server.url + "/api/preferences", data={"theme": "dark"})
        page.goto(server.url + "/account")
        expect(page.locator("#preferences-form input[name='theme'][value='dark']")).to_be_checked()
        page.locator("#delete-password").fill(PASSWORD)
        page.get_by_role("button", name="Delete my account").click()
        question = page.get_by_role("alertdialog")
        expect(question).to_contain_text(f"Delete the account {name} for good?")
        page.screenshot(path=screenshot_path(request, f"-{screen}"), full_page=True)
        page.get_by_role("button", name="No, keep it").click()
        expect(question).to_be_hidden()
        assert context.request.get(server.url + "/api/account").ok  # nothing was sent
        page.get_by_role("button", name="Delete my account").click()
        page.locator("#delete-password").fill("not my password")
        page.get_by_role("button", name="Yes, delete it").click()
        expect(page.locator("#delete-error")).to_have_text("the password is wrong")
        page.locator("#delete-password").fill(PASSWORD)
        page.get_by_role("button", name="Delete my account").click()
        page.get_by_role("button", name="Yes, delete it").click()
        expect(page).to_have_url(server.url + "/")
        assert context.request.get(server.url + "/api/account").status == 401
    finally:
        context.close()


def test_a_spectator_of_a_reviewed_game_is_offered_the_review(
    browser: Any, server: LiveServer
) -> None:
    created = finish_game(server.url, FOOLS_MATE)
    asked = requests.post(
        server.url + "/api/reviews", json={"game": created["game"]}, timeout=WAIT_SECONDS
    )
    assert asked.status_code in (200, 201), asked.text
    context = browser.new_context(**DESKTOP)
    try:
        page = open_game(context, f"{server.url}/game/{created['game']}")
        link = page.get_by_role("link", name="View the review")
        expect(link).to_be_visible()
        expect(page.locator("#request-review")).to_be_hidden()
        assert link.get_attribute("href") == f"/review/{asked.json()['id']}"
        # A finished game nobody reviewed still offers to ask for one.
        other = finish_game(server.url, FOOLS_MATE)
        page = open_game(context, f"{server.url}/game/{other['game']}")
        expect(page.locator("#request-review")).to_be_visible()
        expect(page.locator("#review-link")).to_be_hidden()
    finally:
        context.close()


def test_the_review_of_an_imported_pgn_opens_in_the_analysis_board(
    browser: Any, server: LiveServer
) -> None:
    asked = requests.post(
        server.url + "/api/reviews", json={"pgn": OPERA_GAME}, timeout=WAIT_SECONDS
    )
    assert asked.status_code in (200, 201), asked.text
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/review/{asked.json()['id']}")
        page.get_by_role("link", name="Open in analysis board").click()
        page.wait_for_url("**/analysis/*")
        page.wait_for_function(
            "document.querySelectorAll('#tree .tree-move').length === 33", timeout=60_000
        )
        expect(page.locator("#tree")).to_contain_text("Rd8#")
    finally:
        context.close()
