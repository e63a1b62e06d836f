"""The threat trainer's page (/train, issue 28) in Chromium, as a trainee uses it.

On the desktop: two hanging-piece drills and a checks drill answered right (the answer worked
out by python-chess from the FEN on screen, clicked or played on the board), so the streak
climbs to 3; a count answered wrong, shown square by square with the threat overlay; the
session summary counting all four, by kind. On a phone, by taps: a wrong square and the
missed ones marked, a blunder check answered with its button. Screenshots go to artifacts/.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_phone import PHONE, tap_square
from tests.test_browser_support import WAIT_MS, click_square, play_by_clicks
from tests.test_training_drills import oracle_hanging, oracle_moves

pytestmark = pytest.mark.browser

server = module_server("browser_train")

DESKTOP = {"width": 1280, "height": 800}


def wait_state(page: Any, state: str) -> None:
    page.wait_for_function(
        f"document.querySelector('main.train').dataset.state === '{state}'", timeout=WAIT_MS
    )


def open_trainer(page: Any, url: str, kind: str) -> dict[str, Any]:
    page.goto(f"{url}/train?kind={kind}")
    wait_state(page, "asking")
    return drill_on_view(page, kind)


def drill_on_view(page: Any, kind: str) -> dict[str, Any]:
    page.wait_for_function(
        f"window.trainPage?.drill()?.kind === '{kind}'"
        " && document.querySelector('main.train').dataset.state === 'asking'",
        timeout=WAIT_MS,
    )
    drill: dict[str, Any] = page.evaluate("window.trainPage.drill()")
    return drill


def choose_kind(page: Any, kind: str) -> dict[str, Any]:
    page.locator(f".train-kinds button[data-kind='{kind}']").click()
    return drill_on_view(page, kind)


def submit(page: Any) -> None:
    page.locator("#train-submit").click()
    wait_state(page, "judged")


def answer_hanging_right(page: Any, drill: dict[str, Any]) -> list[str]:
    truth = oracle_hanging(chess.Board(drill["fen"]))
    for square in truth:
        click_square(page, square)
    page.wait_for_function(
        f"document.querySelectorAll('cg-board square.train-picked').length === {len(truth)}",
        timeout=WAIT_MS,
    )
    submit(page)
    return truth


def test_right_answers_a_streak_a_wrong_one_shown_and_the_summary(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        drill = open_trainer(page, server.url, "hanging")
        assert page.locator("#train-question").inner_text() == drill["question"]
        assert "truth" not in drill and "squares" not in drill  # the answer stays on the server

        truth = answer_hanging_right(page, drill)
        assert page.locator("#train-verdict").inner_text().startswith("Right!")
        assert page.locator("cg-board square.train-right").count() == len(truth)
        assert page.locator("#train-streak").inner_text() == "1"

        page.keyboard.press("n")  # the next drill by key
        drill = drill_on_view(page, "hanging")
        answer_hanging_right(page, drill)
        assert page.locator("#train-streak").inner_text() == "2"

        drill = choose_kind(page, "checks")
        checks = oracle_moves(chess.Board(drill["fen"]), "checks")
        for uci in checks:
            play_by_clicks(page, uci)
        assert page.evaluate("window.trainPage.drill().fen") == drill["fen"]
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Right!")
        assert page.locator("#train-streak").inner_text() == "3"
        page.screenshot(path=str(screenshot_path(request, "-desktop-checks")))

        # A count of no attacker at all is always wrong: the drill's square has both sides'.
        drill = choose_kind(page, "count")
        for color in ("white", "black"):
            page.locator(f".count-key[data-color='{color}'][data-count='0']").click()
        page.locator(".exchange-key[data-exchange='even']").click()
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Not quite")
        assert page.locator("#train-streak").inner_text() == "0"
        assert page.locator("cg-board square.train-wrong").count() == 1
        assert page.locator("#threat-grid").is_visible()  # the overlay proves the answer
        counts = page.locator(f"#threat-grid .threat-cell[data-square='{drill['square']}']")
        board = chess.Board(drill["fen"])
        target = chess.parse_square(drill["square"])
        assert counts.get_attribute("data-white") == str(len(board.attackers(True, target)))
        assert counts.get_attribute("data-black") == str(len(board.attackers(False, target)))
        assert page.locator("#train-explanation").inner_text()

        summary = page.locator("#summary-line").inner_text()
        assert summary.startswith("4 drills, 3 right (75 %)"), summary
        assert "best streak 3" in summary
        kinds = page.locator("#summary-kinds tbody tr td:first-child").all_inner_texts()
        assert kinds == ["Hanging", "Checks", "Count"]
        page.screenshot(path=str(screenshot_path(request, "-desktop")))

        # The progress is the browser's: after a reload the history graph has today's drills.
        page.reload()
        wait_state(page, "asking")
        days = page.evaluate("JSON.parse(localStorage.getItem('chess.train.v1')).days")
        assert [entry["done"] for entry in days.values()] == [4]
    finally:
        context.close()


def test_a_phone_taps_a_wrong_square_and_sees_the_missed_ones(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        drill = open_trainer(page, server.url, "hanging")
        board = chess.Board(drill["fen"])
        truth = oracle_hanging(board)
        king = chess.square_name(board.king(board.turn) or 0)  # a king never hangs
        tap_square(page, king)
        page.wait_for_function(
            "document.querySelectorAll('cg-board square.train-picked').length === 1",
            timeout=WAIT_MS,
        )
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Not quite")
        assert page.locator("cg-board square.train-wrong").count() == 1
        assert page.locator("cg-board square.train-missed").count() == len(truth)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, "the page fits the phone's width"
        page.screenshot(path=str(screenshot_path(request, "-phone")), full_page=True)

        drill = choose_kind(page, "blunder")
        assert drill["move"] and drill["after"]
        page.locator("#answer-safe").tap()
        wait_state(page, "judged")
        assert page.locator("#train-explanation").inner_text()
        page.screenshot(path=str(screenshot_path(request, "-phone-blunder")), full_page=True)
    finally:
        context.close()


def test_the_page_works_under_the_content_security_policy(browser: Any, server: LiveServer) -> None:
    """No inline script, Chart.js from /vendor/: with the policy applied, a drill is shown and
    answered and the graph drawn without an error (Playwright's locators only)."""
    context = browser.new_context(viewport=DESKTOP, bypass_csp=False)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server.url}/train?kind=pins")
        page.locator("main.train[data-state='asking']").wait_for(timeout=WAIT_MS)
        page.locator("#train-submit").click()
        page.locator("main.train[data-state='judged']").wait_for(timeout=WAIT_MS)
        assert page.locator("#train-explanation").inner_text()
        assert errors == []
    finally:
        context.close()
