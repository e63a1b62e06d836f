"""On a phone every board's overlay layers lie exactly on its squares: the analysis board and
the review page take chessground's rendered board size as the game page does (its own test is
in test_browser_gamepage.py), and the board editor's spare-piece trays sit one above and one
below its board, as wide as it. Real Chromium against a real server; phone screenshots go to
artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_analysis import PGN, open_analysis, paste, press
from tests.test_browser_support import WAIT_MS, misplaced_layers, wait_for_board_at_rest

pytestmark = pytest.mark.browser

# A slow review, so the page is looked at while the engine works: nothing waits for its end.
server = module_server("alignment", {"CHESS_REVIEW_SECONDS": "60", "CHESS_REVIEW_DEPTH": "3"})

# 390 px wide at 2 device pixels per CSS pixel: the analysis frame (beside the eval bar) is
# 346.8 px, chessground draws 344 (8 whole device pixels a square): a layer sized to the frame
# sticks out by 2.8 px.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def test_the_analysis_boards_layers_lie_on_its_squares(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, PGN)
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 9")
        press(page, "End")
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        wait_for_board_at_rest(page)
        assert page.locator("#threat-grid .threat-cell").count() == 64
        assert misplaced_layers(page) == []
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=screenshot_path(request, "-phone"))
    finally:
        context.close()


def test_the_review_boards_layers_lie_on_its_squares(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    posted = requests.post(f"{server.url}/api/reviews", json={"pgn": PGN}, timeout=30)
    assert posted.status_code in (200, 201), posted.text
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/review/{posted.json()['id']}")
        page.wait_for_function(
            "document.querySelectorAll('#moves button.review-move').length > 0", timeout=WAIT_MS
        )
        wait_for_board_at_rest(page)
        assert page.locator("#square-focus").is_visible()  # the layer always shown
        assert misplaced_layers(page) == []
        page.screenshot(path=screenshot_path(request, "-phone"))
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_editors_trays_sit_above_and_below_its_board(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, viewport: str
) -> None:
    """Black's spare pieces above the board, White's below (the board seen from White), as
    lichess's editor has them and the editor's help says; each tray as wide as the board."""
    options = PHONE if viewport == "phone" else {"viewport": {"width": 1280, "height": 900}}
    context = browser.new_context(**options)
    try:
        page = open_analysis(context, server.url + "/analysis")
        page.click("#open-editor")
        wait_for_board_at_rest(page)
        board = page.locator("#editor-board").bounding_box()
        black = page.locator("#spares-black").bounding_box()
        white = page.locator("#spares-white").bounding_box()
        assert black["y"] + black["height"] <= board["y"] + 1
        assert white["y"] >= board["y"] + board["height"] - 1
        for tray in (black, white):
            assert abs(tray["x"] - board["x"]) <= 1 and abs(tray["width"] - board["width"]) <= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= options["viewport"]["width"]
        page.screenshot(path=screenshot_path(request, f"-{viewport}"))
    finally:
        context.close()
