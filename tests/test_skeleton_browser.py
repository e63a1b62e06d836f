"""The skeleton end to end: Chromium opens the page and the board shows the start position."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.browser


def test_page_shows_the_start_position(
    browser: Any, live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    page = browser.new_page()
    try:
        page.goto(live_server.url + "/")
        page.wait_for_function("document.querySelectorAll('cg-board piece').length === 32")
        assert page.locator("cg-board piece.white").count() == 16
        assert page.locator("cg-board piece.black").count() == 16
        assert page.locator("cg-board piece.white.king").count() == 1
        assert page.locator("#connection").inner_text() == "connected"
        page.screenshot(path=screenshot_path(request))
    finally:
        page.close()
