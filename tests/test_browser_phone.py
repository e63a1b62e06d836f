"""A 375-pixel-wide phone with a touch screen: the page fits the width and a move is played by
tapping the piece and then its target square."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.test_browser_support import (
    create_game,
    move_list,
    open_game,
    server_state,
    square_center,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 375, "height": 740},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}


def tap_square(page: Any, square: str) -> None:
    box = page.locator("cg-board").bounding_box()
    x, y = square_center(page, square)
    page.tap("cg-board", position={"x": x - box["x"], "y": y - box["y"]})


def test_phone_plays_a_move_by_tapping(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(live_server.url, opponent="friend", color="white")
    context = browser.new_context(**PHONE)
    try:
        page = open_game(context, live_server.url + created["links"]["private"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        board = page.locator("cg-board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 375
        tap_square(page, "g1")
        tap_square(page, "f3")
        wait_for_ply(page, 1)
        assert move_list(page) == ["Nf3"]
        assert server_state(live_server.url, created["game"])["last_move"]["uci"] == "g1f3"
        page.screenshot(path=screenshot_path(request), full_page=True)
    finally:
        context.close()
