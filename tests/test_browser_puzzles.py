"""The puzzles' page (/puzzles, issue 35) in Chromium, as a solver uses it.

On the desktop: a puzzle solved move by move (the opponent's setting-up move and replies
played by the page), the rating shown after it; a puzzle failed by a legal wrong move, which
says so, shows the threat overlay of the position with the solution's arrow and the sentence
naming the solution's move, and lets the solution be played through with the arrow keys; the
two hints (the overlay, then the piece to move); a streak that grows with a solved puzzle and
ends with a miss; a storm whose counter counts a solved puzzle and which ends when its clock
runs out. On a phone, by taps, a puzzle solved and one failed. Screenshots of a failed and a
solved puzzle on both go to artifacts/.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_phone import PHONE, tap_square
from tests.test_browser_support import (
    WAIT_MS,
    click_square,
    collect_errors,
    misplaced_layers,
    wait_for_board_at_rest,
)

pytestmark = pytest.mark.browser

server = module_server("browser_puzzles")

DESKTOP = {"width": 1280, "height": 800}


def wait_state(page: Any, state: str, step: int | None = None) -> None:
    at_step = "" if step is None else f" && window.puzzlesPage.step() === {step}"
    page.wait_for_function(
        f"document.querySelector('main.puzzles').dataset.state === '{state}'{at_step}",
        timeout=WAIT_MS,
    )


def puzzle_on_view(page: Any) -> dict[str, Any]:
    wait_state(page, "playing", 0)
    puzzle: dict[str, Any] = page.evaluate("window.puzzlesPage.puzzle()")
    return puzzle


def play(page: Any, uci: str, tap: bool) -> None:
    wait_for_board_at_rest(page)
    for square in (uci[:2], uci[2:4]):
        (tap_square if tap else click_square)(page, square)


def solve(page: Any, tap: bool = False) -> dict[str, Any]:
    """Play the solver's moves of the puzzle on view, each after the page's reply."""
    puzzle = puzzle_on_view(page)
    moves = puzzle["moves"]
    for step in range(len(moves) // 2):
        wait_state(page, "playing", step)
        play(page, moves[2 * step + 1], tap)
    wait_state(page, "solved")
    return puzzle


def fail(page: Any, tap: bool = False) -> tuple[dict[str, Any], str]:
    """Play a legal move that is not the solution's; the puzzle and the move."""
    puzzle = puzzle_on_view(page)
    lesson = page.evaluate("window.puzzlesPage.lesson()")
    answer = puzzle["moves"][1][:4]
    wrong = next(
        origin + target
        for origin, targets in sorted(lesson["dests"].items())
        for target in targets
        if origin + target != answer
    )
    play(page, wrong, tap)
    wait_state(page, "failed")
    return puzzle, wrong


def next_puzzle(page: Any, previous: str) -> None:
    page.locator("#puzzle-next").click()
    page.wait_for_function(
        f"window.puzzlesPage.puzzle()?.id !== '{previous}'"
        " && document.querySelector('main.puzzles').dataset.state === 'playing'",
        timeout=WAIT_MS,
    )


def check_failed(page: Any, wrong: str) -> None:
    lesson = page.evaluate("window.puzzlesPage.lesson()")
    tried = next(san for san, uci in lesson["sans"].items() if uci[:4] == wrong)
    assert f"Wrong: {tried} is not the move" in page.locator("#puzzle-prompt").inner_text()
    sentence = page.locator("#puzzle-sentence").inner_text()
    assert lesson["san"] in sentence and lesson["sentence"] in sentence
    assert page.locator("#threat-grid").is_visible()  # the missed threats' overlay
    arrows = page.locator("svg.cg-shapes g[cgHash*='green'], svg.cg-shapes line").count()
    assert arrows >= 1  # the solution's arrow, with the overlay's marks


def test_solve_fail_replay_and_hints_on_the_desktop(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        errors = collect_errors(page)
        page.goto(f"{server.url}/puzzles")
        page.wait_for_function(
            "document.querySelector('#puzzle-theme').options.length > 5", timeout=WAIT_MS
        )
        solved = solve(page)
        page.wait_for_function(
            "document.querySelector('#puzzle-rating').textContent.includes('Rating')",
            timeout=WAIT_MS,
        )
        page.wait_for_function("!document.querySelector('#dashboard').hidden", timeout=WAIT_MS)
        assert page.locator("#puzzle-prompt").inner_text() == "Solved!"
        wait_for_board_at_rest(page)
        page.screenshot(path=screenshot_path(request, "_solved"))

        next_puzzle(page, solved["id"])
        failed, wrong = fail(page)
        check_failed(page, wrong)
        assert misplaced_layers(page) == []
        wait_for_board_at_rest(page)
        page.screenshot(path=screenshot_path(request, "_failed"))
        # The solution played through: the start, then each move by the arrow keys.
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "document.querySelector('#puzzle-prompt').textContent.startsWith('Move 2 of')",
            timeout=WAIT_MS,
        )
        assert not page.locator("#replay-back").is_disabled()

        next_puzzle(page, failed["id"])
        page.locator("#puzzle-hint").click()
        assert page.locator("#threat-grid").is_visible()
        assert "threats" in page.locator("#puzzle-prompt").inner_text()
        page.keyboard.press("h")
        piece = page.evaluate("window.puzzlesPage.lesson().piece")
        page.wait_for_function(
            "[...document.querySelectorAll('cg-board square.puzzle-hint')]"
            ".some((square) => square.style.display !== 'none')",
            timeout=WAIT_MS,
        )
        assert piece in page.locator("#puzzle-prompt").inner_text()
        assert errors == []
    finally:
        context.close()


def test_streak_and_storm(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/puzzles")
        puzzle_on_view(page)
        page.locator(".puzzle-modes button[data-mode='streak']").click()
        page.wait_for_function("window.puzzlesPage.mode() === 'streak'", timeout=WAIT_MS)
        first = solve(page)
        page.wait_for_function(
            f"window.puzzlesPage.puzzle().id !== '{first['id']}'", timeout=WAIT_MS
        )
        assert page.locator("#puzzle-counter").inner_text() == "Streak 1"
        fail(page)
        assert "Streak over: 1" in page.locator("#puzzle-counter").inner_text()

        page.locator(".puzzle-modes button[data-mode='storm']").click()
        page.wait_for_function("window.puzzlesPage.mode() === 'storm'", timeout=WAIT_MS)
        assert page.locator("#puzzle-clock").is_visible()
        assert page.locator("#puzzle-clock").inner_text() in {"3:00", "2:59", "2:58"}
        solve(page)
        page.wait_for_function(
            "document.querySelector('#puzzle-counter').textContent === 'Solved 1'",
            timeout=WAIT_MS,
        )
        page.evaluate("window.puzzlesPage.storm.finish()")
        wait_state(page, "over")
        assert "1 puzzle solved in 3 minutes" in page.locator("#puzzle-prompt").inner_text()
    finally:
        context.close()


def test_solve_and_fail_by_taps_on_a_phone(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/puzzles")
        solved = solve(page, tap=True)
        wait_for_board_at_rest(page)
        page.screenshot(path=screenshot_path(request, "_solved"))
        next_puzzle(page, solved["id"])
        _, wrong = fail(page, tap=True)
        check_failed(page, wrong)
        assert misplaced_layers(page) == []
        wait_for_board_at_rest(page)
        page.screenshot(path=screenshot_path(request, "_failed"), full_page=True)
    finally:
        context.close()


def test_keyboard_typed_moves_and_the_squares_words(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/puzzles")
        puzzle = puzzle_on_view(page)
        lesson = page.evaluate("window.puzzlesPage.lesson()")
        origin = puzzle["moves"][1][:2]
        page.locator(f"#square-focus button[data-square='{origin}']").focus()
        page.wait_for_function(
            f"document.querySelector('#square-description').textContent.startsWith('{origin}, ')",
            timeout=WAIT_MS,
        )
        assert lesson["pieces"][origin] in page.locator("#square-description").inner_text()
        page.locator("#typed-move-input").fill("Zz9")
        page.keyboard.press("Enter")
        assert "not a legal move" in page.locator("#puzzle-error").inner_text()
        moves = puzzle["moves"]
        for step in range(len(moves) // 2):
            wait_state(page, "playing", step)
            san = page.evaluate(f"window.puzzlesPage.lesson().line[{2 * step + 1}].san")
            page.locator("#typed-move-input").fill(san)
            page.keyboard.press("Enter")
        wait_state(page, "solved")
        page.wait_for_function(
            "document.querySelector('#puzzle-announcer').textContent === 'Solved!'",
            timeout=WAIT_MS,
        )
    finally:
        context.close()
