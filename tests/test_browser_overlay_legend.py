"""The overlay's counts read on a phone and are explained: with "Every square" on a phone's
small squares White's and Black's badges never meet and stay inside their square, small beside
the piece; a legend beside the controls says what `2+1` and the colours mean and links to the
help page "How to read the overlays". Real Chromium against a real server; desktop and phone
screenshots go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import create_game, open_game, wait_for_board_at_rest

pytestmark = pytest.mark.browser

server = module_server("overlay-legend")

# A middlegame with batteries (queen and rook on the d-file, both sides): counts with "+1".
MIDDLEGAME = "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2N1PN2/PPQ2PPP/R2R2K1 w - - 0 11"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

# Per square with counts: the two badges' boxes, the square's box.
BADGES = """() => [...document.querySelectorAll('#threat-grid .threat-cell')].map((cell) => {
    const box = (element) => {
        const r = element.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    const shown = [...cell.querySelectorAll('.threat-count:not([hidden])')].map(box);
    return { square: cell.dataset.square, cell: box(cell), badges: shown,
             texts: [...cell.querySelectorAll('.threat-count:not([hidden])')]
                 .map((badge) => badge.textContent) };
})"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: list[float], outer: list[float]) -> bool:
    return all(
        (inner[0] >= outer[0] - 0.5, inner[1] >= outer[1] - 0.5, inner[2] <= outer[2] + 0.5)
    ) and (inner[3] <= outer[3] + 0.5)


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_every_square_counts_never_meet_and_stay_in_their_square(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, viewport: str
) -> None:
    created = create_game(server.url, opponent="friend", color="white", fen=MIDDLEGAME)
    context = browser.new_context(**(PHONE if viewport == "phone" else DESKTOP))
    try:
        page = open_game(context, server.url + created["links"]["private"])
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        wait_for_board_at_rest(page)
        squares = page.evaluate(BADGES)
        doubles = [square for square in squares if len(square["badges"]) == 2]
        assert len(doubles) >= 6  # both sides reach many squares here
        assert any("+" in text for square in squares for text in square["texts"])
        for square in squares:
            cell = square["cell"]
            area = (cell[2] - cell[0]) * (cell[3] - cell[1])
            for badge in square["badges"]:
                assert inside(badge, cell), square
                # Small beside the piece: a badge covers at most a fifth of its square.
                assert (badge[2] - badge[0]) * (badge[3] - badge[1]) <= area / 5, square
        for square in doubles:
            assert not overlap(*square["badges"]), square
        page.locator("#threat-grid").scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=screenshot_path(request, f"-{viewport}"))
    finally:
        context.close()


def test_the_legend_explains_the_counts_and_links_to_the_help_page(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(server.url, opponent="friend", color="white", fen=MIDDLEGAME)
    context = browser.new_context(**PHONE)
    try:
        page = open_game(context, server.url + created["links"]["private"])
        legend = page.locator("#overlay-legend")
        expect(legend).to_be_visible()
        expect(legend).to_contain_text("2+1")
        expect(legend).to_contain_text("x-ray")
        expect(legend).to_contain_text("White controls it")
        # Beside the controls: right after the count buttons, before the safety legend.
        density = page.locator("#overlay-density").bounding_box()
        safety = page.locator(".safety-legend").bounding_box()
        box = legend.bounding_box()
        assert density["y"] + density["height"] <= box["y"] <= safety["y"]
        legend.scroll_into_view_if_needed()
        page.screenshot(path=screenshot_path(request, "-phone-legend"))
        legend.get_by_role("link", name="How to read the overlays").click()
        page.wait_for_url("**/help/overlays")
        expect(page.get_by_role("heading", name="How to read the overlays")).to_be_visible()
        expect(page.locator("main.help")).to_contain_text("2+1")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=screenshot_path(request, "-phone-help"), full_page=True)
    finally:
        context.close()


def test_a_game_with_both_sides_threats_as_the_readme_shows_it(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The README's picture (docs/images/overlays.png is a copy of this test's screenshot): the
    calm default density with both sides' threats."""
    created = create_game(server.url, opponent="friend", color="white", fen=MIDDLEGAME)
    context = browser.new_context(viewport={"width": 1000, "height": 680})
    try:
        page = open_game(context, server.url + created["links"]["private"])
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Contested squares").click()
        wait_for_board_at_rest(page)
        counted = page.locator("#threat-grid .threat-count:not([hidden])")
        assert counted.count() > 0
        expect(page.locator("#threat-grid")).to_be_in_viewport()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
