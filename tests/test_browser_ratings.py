"""Rated play in real Chromium against a real server: two signed-in players tick "Rated" on
the lobby, are paired through quick pairing, play to mate, and each page shows both new
ratings with the change beside the names (+241 / -242, shown with a minus sign; expected from
the published formula in tests/support/glicko_oracle.py); the lobby lists a rated seek with
its owner's rating and range. Desktop and phone screenshots go to artifacts/."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.glicko_oracle import lichess_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_seeks import DESKTOP, PHONE, open_lobby
from tests.test_browser_support import play_by_clicks, wait_connected, wait_for_ply

pytestmark = pytest.mark.browser

# Two players in one browser on one machine: the check that keeps one person's two accounts
# from playing each other rated is off here (tests/test_server_fair_play.py tests it).
server = module_server(
    "browser-ratings", {"CHESS_SIGNUP_BURST": "1000", "CHESS_RATED_APART_SECONDS": "0"}
)

FOOLS_MATE = ("f2f3", "e7e5", "g2g4", "d8h4")
NEW = (1500.0, 500.0, 0.09, None)


def sign_up(context: Any, server: LiveServer) -> str:
    """A new account signed in in `context` (its session cookie set there); its name."""
    name = f"Player{secrets.token_hex(3)}"
    response = context.request.post(
        server.url + "/api/account/signup",
        data={"name": name, "password": "correct horse battery"},
        headers={"Origin": server.url},
    )
    assert response.status == 201, response.text()
    return name


def shown_change(color: str) -> tuple[str, str]:
    """The rating and change a page shows for `color` after black mates two new players."""
    rating = lichess_game(NEW, NEW, 1.0 if color == "black" else 0.0, 0.0)[0]
    diff = int(rating) - 1500
    return f"{int(rating)}?", f"+{diff}" if diff > 0 else f"\u2212{-diff}"


def test_a_rated_game_shows_both_rating_changes_at_its_end(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    contexts = {"desktop": browser.new_context(**DESKTOP), "phone": browser.new_context(**PHONE)}
    try:
        names = {kind: sign_up(context, server) for kind, context in contexts.items()}
        pages = {kind: open_lobby(context, server) for kind, context in contexts.items()}
        for page in pages.values():
            page.locator("#pair-rated").check()
        pages["desktop"].get_by_role("button", name="Quick pairing 1 min + 0 s").click()
        expect(pages["desktop"].locator("#pair-status")).to_have_text(
            "Waiting for an opponent at 1+0 (rated)…"
        )
        pages["phone"].get_by_role("button", name="Quick pairing 1 min + 0 s").click()
        by_color = {}
        for page in pages.values():
            page.wait_for_url("**/game/*")
            wait_connected(page)
            by_color[page.locator("#role").inner_text().split()[-1]] = page
        for page in pages.values():
            for color in ("white", "black"):
                expect(page.locator(f"#strip-{color} .player-rating")).to_have_text("1500?")
        for ply, uci in enumerate(FOOLS_MATE):
            page = by_color["white" if ply % 2 == 0 else "black"]
            wait_for_ply(page, ply)
            play_by_clicks(page, uci)
        for page in pages.values():
            for color in ("white", "black"):
                rating, diff = shown_change(color)
                strip = page.locator(f"#strip-{color}")
                expect(strip.locator(".rating-diff")).to_have_text(diff)
                expect(strip.locator(".rating-value")).to_have_text(rating)
        assert (
            names["desktop"]
            in pages["desktop"].locator(".strip").all_inner_texts()[0]
            + (pages["desktop"].locator(".strip").all_inner_texts()[1])
        )
        pages["desktop"].screenshot(path=screenshot_path(request, "-desktop"))
        pages["phone"].screenshot(path=screenshot_path(request, "-phone"), full_page=True)
    finally:
        for context in contexts.values():
            context.close()


def test_the_lobby_lists_a_rated_seek_with_its_rating_and_range(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    owner_context, phone_context = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    try:
        owner = sign_up(owner_context, server)
        sign_up(phone_context, server)
        page = open_lobby(owner_context, server)
        phone = open_lobby(phone_context, server)
        page.locator("#seek-control").select_option("")  # "No clock"...
        page.locator("#seek-rated").check()  # ...is not for a rated game: back to the default
        expect(page.locator("#seek-control")).to_have_value("5+3")
        expect(page.locator('#seek-control option[value=""]')).to_be_disabled()
        page.get_by_label("Opponent's rating").fill("1200")
        page.get_by_label("highest").fill("1800")
        page.get_by_role("button", name="Create challenge").click()
        row = phone.locator("#seek-list tr", has_text=owner)
        expect(row.locator(".seek-rating")).to_have_text("1500?")
        expect(row).to_contain_text("Rated · 1200\u20131800")
        expect(row).not_to_contain_text("unassisted")  # "Rated" says it
        page.screenshot(path=screenshot_path(request, "-desktop"), full_page=True)
        phone.screenshot(path=screenshot_path(request, "-phone"), full_page=True)
    finally:
        owner_context.close()
        phone_context.close()
