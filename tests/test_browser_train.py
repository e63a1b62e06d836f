"""The threat trainer's page (/train, issue 28) in Chromium, as a trainee uses it.

On the desktop: two hanging-piece drills and a checks drill answered right (the answer worked
out by python-chess from the FEN on screen, clicked or played on the board), so the streak
climbs to 3; a count answered wrong, shown square by square with the threat overlay; the
session summary counting all four, by kind. On a phone, by taps: a wrong square and the
missed ones marked, a blunder check answered with its button, a count and who wins the
exchange worked out by python-chess and a brute-force exchange. A pins drill on both: each
pinned piece clicked or tapped, then the piece it is pinned to; on the phone one target named
wrongly, and the pin lines drawn green (named), orange (missed) and red (wrong).
Screenshots go to artifacts/.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import chess
import pytest

from chesscore import Board
from chesscore.rules.squares import square_name
from chesscore.training.material import hanging_gains
from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_phone import PHONE, tap_square
from tests.test_browser_support import (
    WAIT_MS,
    click_square,
    collect_errors,
    misplaced_layers,
    play_by_clicks,
    wait_for_board_at_rest,
)
from tests.test_training_drills import exchange_value, oracle_moves, oracle_pin_pairs

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


def hanging_truth(fen: str) -> list[str]:
    """The hanging pieces as the trainer judges them (chesscore.training.material): this file
    tests the page, so it answers by the trainer's own rule. Where that rule and the
    python-chess oracle part (a recapture by a piece the exchange itself pins, on 1 of the
    1,718 positions of the shipped games), tests/test_training_material.py is the place that
    holds them to each other."""
    found = hanging_gains(Board.from_fen(fen))
    return [] if found is None else sorted(square_name(square) for square in found)


def marked(page: Any, mark: str) -> int:
    """How many squares chessground shows with class `mark`: it hides a square it no longer
    needs (display: none) and keeps it for reuse, so a hidden one is not counted."""
    count: int = page.locator(f"cg-board square.{mark}:visible").count()
    return count


def wait_marked(page: Any, mark: str, count: int) -> None:
    page.wait_for_function(
        f"[...document.querySelectorAll('cg-board square.{mark}')]"
        f".filter((square) => square.style.display !== 'none').length === {count}",
        timeout=WAIT_MS,
    )


def answer_hanging_right(page: Any, drill: dict[str, Any]) -> list[str]:
    truth = hanging_truth(drill["fen"])
    wait_for_board_at_rest(page)  # the new drill's pieces drawn where the clicks go
    for square in truth:
        click_square(page, square)
    wait_marked(page, "train-picked", len(truth))
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
        assert marked(page, "train-right") == len(truth)
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
        if drill["asks_exchange"]:
            page.locator(".exchange-key[data-winner='even']").click()
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Not quite")
        assert page.locator("#train-streak").inner_text() == "0"
        assert marked(page, "train-wrong") == 1
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
        truth = hanging_truth(drill["fen"])
        king = chess.square_name(board.king(board.turn) or 0)  # a king never hangs
        tap_square(page, king)
        wait_marked(page, "train-picked", 1)
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Not quite")
        assert marked(page, "train-wrong") == 1
        assert marked(page, "train-missed") == len(truth)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, "the page fits the phone's width"
        wait_for_board_at_rest(page)
        assert page.locator("#threat-grid .threat-cell").count() == 64  # the overlay shown
        assert misplaced_layers(page) == []
        seen = drill["turn"]
        for _ in range(40):  # the board turned round: a drill of the other side to move
            before = drill["id"]
            page.locator(".train-kinds button[data-kind='hanging']").click()
            page.wait_for_function(
                f"window.trainPage.drill().id !== '{before}'"
                " && document.querySelector('main.train').dataset.state === 'asking'",
                timeout=WAIT_MS,
            )
            drill = page.evaluate("window.trainPage.drill()")
            if drill["turn"] != seen:
                break
        assert drill["turn"] != seen, "forty drills, all with one side to move"
        submit(page)
        wait_for_board_at_rest(page)
        assert misplaced_layers(page) == []
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
    try:
        page = context.new_page()
        errors = collect_errors(page)
        page.goto(f"{server.url}/train?kind=pins")
        page.locator("main.train[data-state='asking']").wait_for(timeout=WAIT_MS)
        page.locator("#train-submit").click()
        page.locator("main.train[data-state='judged']").wait_for(timeout=WAIT_MS)
        assert page.locator("#train-explanation").inner_text()
        assert errors == []
    finally:
        context.close()


COLOURS = {"right": "#15781b", "missed": "#e69f00", "wrong": "#d0312d"}  # marks.js's brushes


def pins_drill_on_view(page: Any, drill: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """The first drill from `drill` on with a pinned piece, the ones before answered "none"."""
    for _ in range(15):
        pairs = oracle_pin_pairs(chess.Board(drill["fen"]))
        if pairs:
            return drill, pairs
        submit(page)
        assert page.locator("#train-verdict").inner_text().startswith("Right!")
        page.keyboard.press("n")
        drill = drill_on_view(page, "pins")
    pytest.fail("no pinned piece in 15 pins drills")


def arrows(page: Any, how: str) -> int:
    count: int = page.locator(f"svg.cg-shapes line[stroke='{COLOURS[how]}']").count()
    return count


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_pins_name_the_piece_each_is_pinned_to(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, device: str
) -> None:
    phone = device == "phone"
    context = browser.new_context(**PHONE) if phone else browser.new_context(viewport=DESKTOP)
    pick = tap_square if phone else click_square
    try:
        page = context.new_page()
        drill, pairs = pins_drill_on_view(page, open_trainer(page, server.url, "pins"))
        board = chess.Board(drill["fen"])
        # On the phone the last pin's target is named wrongly: a piece it is not pinned to.
        named = list(pairs)
        if phone:
            pinned, target = named[-1]
            decoy = next(
                chess.square_name(sq) for sq in board.piece_map()
                if chess.square_name(sq) not in (pinned, target)
                and (pinned, chess.square_name(sq)) not in pairs
            )  # fmt: skip
            named[-1] = (pinned, decoy)
        pick(page, named[0][0])
        wait_marked(page, "train-choosing", 1)
        page.locator("#train-submit").click()  # a pinned piece without its target is no answer
        assert "pinned to" in page.locator("#train-error").inner_text()
        assert page.locator("main.train").get_attribute("data-state") == "asking"
        for index, (pinned, target) in enumerate(named):
            if index:
                pick(page, pinned)
            pick(page, target)
        said = page.locator("#train-picked").inner_text()
        assert all(f"{pinned} → " in said for pinned, _ in named), said
        if not phone:
            page.screenshot(path=str(screenshot_path(request, "-asking")))
        submit(page)
        verdict = page.evaluate("window.trainPage.verdict()")
        assert verdict["targets"] == [list(pair) for pair in pairs]
        pinned_squares = {pinned for pinned, _ in pairs}
        assert marked(page, "train-right") == len(pinned_squares)
        if phone:
            said = page.locator("#train-verdict").inner_text()
            assert said.startswith("Not quite"), said
            missed, wrong = pairs[-1], named[-1]
            assert f"Missed: {missed[0]} → {missed[1]}. Wrong: {wrong[0]} → {wrong[1]}." in said
            assert verdict["wrong_targets"] == [list(named[-1])]
            assert verdict["missed_targets"] == [list(pairs[-1])]
            assert arrows(page, "wrong") == 1 and arrows(page, "missed") == 2  # pinner, target
        else:
            assert page.locator("#train-verdict").inner_text().startswith("Right!")
            assert arrows(page, "right") == 2 * len(pairs) and arrows(page, "wrong") == 0
        assert "pins the" in page.locator("#train-explanation").inner_text()
        full = {"full_page": True} if phone else {}
        page.screenshot(path=str(screenshot_path(request, f"-{device}")), **full)
    finally:
        context.close()


def test_a_phone_counts_and_names_who_wins_the_exchange(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        drill = open_trainer(page, server.url, "count")
        for _ in range(10):  # a count that asks who wins the exchange (most do)
            if drill["asks_exchange"]:
                break
            assert page.locator("#train-exchange").is_hidden()
            choose_kind(page, "hanging")
            drill = choose_kind(page, "count")
        assert drill["asks_exchange"], "ten count drills without a piece to take"
        board = chess.Board(drill["fen"])
        square = chess.parse_square(drill["square"])
        for color, side in (("white", chess.WHITE), ("black", chess.BLACK)):
            count = len(board.attackers(side, square))
            page.locator(f".count-key[data-color='{color}'][data-count='{count}']").tap()
        best = max(exchange_value(board, m) for m in board.legal_moves if m.to_square == square)
        mover, other = ("white", "black") if board.turn else ("black", "white")
        winner = mover if best > 0 else other if best < 0 else "even"
        page.locator(f".exchange-key[data-winner='{winner}']").tap()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        keys = page.locator(".count-key[data-color='black']")
        boxes = [keys.nth(n).bounding_box() for n in range(keys.count())]
        assert all(box["width"] >= 34 and box["height"] >= 40 for box in boxes), boxes
        # No two keys overlap (a button's own minimum width once pushed them over each other).
        assert all(a["x"] + a["width"] <= b["x"] for a, b in pairwise(boxes))
        assert boxes[-1]["x"] + boxes[-1]["width"] <= 375
        page.screenshot(path=str(screenshot_path(request, "-asking")), full_page=True)
        submit(page)
        said = page.locator("#train-verdict").inner_text()
        assert said.startswith("Right!"), said
        expected = "the exchange is even" if winner == "even" else f"{winner.title()} wins"
        assert expected in said, said
        page.screenshot(path=str(screenshot_path(request, "-judged")), full_page=True)
    finally:
        context.close()
