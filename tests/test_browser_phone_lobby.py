"""The lobby laid out for a phone, lichess's phone lobby the model: the ways to start a game
first, "Play the computer" on the first screen; each checkbox on its label's line; the colour
and clock choices each in one row; nothing sticking out sideways. Desktop and tablet keep their
columns. Real Chromium against a real server; screenshots go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.browser

server = module_server("phone-lobby")

VIEWPORTS = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "small-phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return dict(found)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_lobby_fits_a_phone(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, name: str
) -> None:
    options = VIEWPORTS[name]
    width, height = options["viewport"]["width"], options["viewport"]["height"]
    context = browser.new_context(**options)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        expect(page.locator("#lobby-connection")).to_have_attribute("data-state", "connected")
        page.screenshot(path=screenshot_path(request, f"-{name}"), full_page=True)
        # On a phone's first screen, without scrolling: quick pairing and both buttons (a
        # desktop has them side by side with the lists, in its second row).
        if name != "desktop":
            for selector in (".quick-pair[data-control='5+3']", "#play-friend", "#play-computer"):
                found = box(page, selector)
                assert found["y"] + found["height"] <= height, (selector, found)
        # Each checkbox on its label's line, just before it.
        for checkbox in ("#review-after", "#assisted", "#seek-assisted"):
            mark, label = box(page, checkbox), box(page, f"label[for='{checkbox[1:]}']")
            assert mark["x"] + mark["width"] <= label["x"] <= mark["x"] + mark["width"] + 16
            assert label["y"] <= mark["y"] + mark["height"] / 2 <= label["y"] + label["height"]
        # The colour and clock buttons each in one row.
        for group in (".color-choice", ".clock-choice"):
            tops = {
                round(found["y"])
                for found in page.locator(group).evaluate_all(
                    "buttons => buttons.map((b) => b.getBoundingClientRect().toJSON())"
                )
            }
            assert len(tops) == 1, (group, tops)
        # No button's words cut off: each fits its button.
        cut = page.locator(".new-game button").evaluate_all(
            "buttons => buttons.filter((b) => b.scrollWidth > b.clientWidth)"
            ".map((b) => b.textContent)"
        )
        assert cut == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # The choices still work: the computer game starts with the clock chosen.
        page.get_by_role("button", name="5 minutes plus 3 seconds").click()
        page.get_by_role("button", name="Play the computer").click()
        page.wait_for_url("**/game/*")
    finally:
        context.close()
