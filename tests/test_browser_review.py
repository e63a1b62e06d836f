"""The review page (/review/<id>, issue 18) driven in Chromium as a player uses it.

A game finished through the API (1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#) is opened on the
game page, whose "Request a computer analysis" leads to the review; once the engine is done,
the blunder's point on the graph is clicked (at the place Chart.js drew it), and its
explanation and the squares and arrows it names are on screen; "learn from your mistakes"
gives its hints and accepts the best move, and its progress outlives a reload. A longer game
sent from the analysis board is watched while it is reviewed (the progress bar) on a phone;
a computer game created with "Review the game when it ends" shows its review link as soon as
it ends; the page draws its graph under the real Content-Security-Policy. Screenshots at
desktop and phone widths go to artifacts/.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import requests

from chesscore import Board, Move
from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_accessibility import assert_named_buttons
from tests.test_browser_support import (
    WAIT_MS,
    board_pieces,
    collect_errors,
    create_game,
    open_game,
    pieces_of_fen,
    play_by_clicks,
    wait_for_board_at_rest,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

# Stockfish (the npm lite build under Node) at a node budget: the verdicts (Nf6?? a blunder)
# are the same however loaded the machine is.
server = module_server("browser_review", {"CHESS_STOCKFISH": "", "CHESS_REVIEW_NODES": "100000"})
ENGINE_WORDS = "Judged by Stockfish 19 lite, 100k nodes a position"
# Our engine at a time budget (0.75 s a position, deeper than it can reach): a review of 33-46
# positions runs half a minute or more on any machine, so the page opened at once sees it
# running; a node budget cannot promise both that and an end, as a loaded machine slows every
# node (1,000,000 nodes a position took over 7 minutes at load 10).
timed_server = module_server(
    "browser_review_timed",
    {"CHESS_STOCKFISH": "none", "CHESS_REVIEW_SECONDS": "0.75", "CHESS_REVIEW_DEPTH": "40"},
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Every position of a game is searched by the engine in the pool, behind the live games and
# beside whatever else the two cores are running: a review takes a while on a loaded machine.
REVIEW_WAIT_MS = 420_000  # generous: a loaded machine gives Stockfish a fraction of a core

NONE_SHOWN = "\N{EN DASH}"  # an accuracy not known, or of a phase without a move

BLUNDER_GAME = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
BLUNDER_PLY = 6  # 3... Nf6??, which allows 4. Qxf7#

# Morphy - Duke Karl / Count Isouard, Paris 1858 (the "Opera game"): 33 plies.
OPERA_GAME = """[Event "Paris opera"]
[White "Paul Morphy"]
[Black "Duke Karl and Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6
9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+
Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"""

# Anderssen - Kieseritzky, London 1851 (the "Immortal game"): 45 plies.
IMMORTAL_GAME = """[Event "London"]
[White "Adolf Anderssen"]
[Black "Lionel Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5
9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5
17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0
"""

ROLE_BRUSHES = {
    "move": "adviceMove",
    "attack": "adviceAttack",
    "defence": "adviceDefence",
    "pin": "advicePin",
}


# -- helpers ---------------------------------------------------------------------------------


def finish_game(url: str, moves: list[str]) -> dict[str, Any]:
    """A friend game between two API seats, played to its end; the creation reply (White's)."""
    created = create_game(url, opponent="friend", color="white")
    seats = {"white": created["seat"], "black": api_join(url, created)}
    for ply, uci in enumerate(moves):
        api_move(url, created["game"], seats["white" if ply % 2 == 0 else "black"], ply, uci)
    return created


def review_json(url: str, review_id: str) -> dict[str, Any]:
    response = requests.get(f"{url}/api/reviews/{review_id}", timeout=10)
    assert response.status_code == 200, response.text
    return dict(response.json())


def dataset(page: Any, name: str) -> str:
    return str(page.evaluate(f"document.querySelector('#review').dataset.{name}"))


def wait_done(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#review')?.dataset.status === 'done'", timeout=REVIEW_WAIT_MS
    )


def review_id_of(page: Any) -> str:
    return str(page.locator("#review").get_attribute("data-review-id"))


def click_graph_point(page: Any, ply: int) -> None:
    """Click ply `ply`'s point where Chart.js drew it on the canvas."""
    point = page.evaluate(f"window.reviewGraph.point({ply})")
    assert point is not None, f"no point for ply {ply} on the graph"
    page.mouse.click(point["x"], point["y"])
    page.wait_for_function(
        f"document.querySelector('#review').dataset.ply === '{ply}'", timeout=WAIT_MS
    )


def drawn_shapes(page: Any) -> set[tuple[str, str, str]]:
    """(orig, dest or '', brush) of each shape chessground drew on the board (its cgHash
    attribute lists them: width, height, ..., orig, dest, brush)."""
    wait_for_board_at_rest(page)
    hashes = page.locator("#board svg.cg-shapes g[cgHash]").evaluate_all(
        "gs => gs.map((g) => g.getAttribute('cgHash'))"
    )
    found = set()
    for text in hashes:
        parts = [part for part in text.split(",") if part]
        squares = [part for part in parts if len(part) == 2 and part[0] in "abcdefgh"]
        brush = next(part for part in parts if part.startswith("advice") or part == "green")
        found.add((squares[0], squares[1] if len(squares) > 1 else "", brush))
    return found


def expected_shapes(ply: dict[str, Any]) -> set[tuple[str, str, str]]:
    """The shapes of ply `ply`'s explanation: a circle per square, an arrow per pair of
    squares (the first role named), the best move's arrow in its own colour."""
    explanation = ply["explanation"]
    shapes = {(square, "", "adviceSquare") for square in explanation["squares"]}
    seen = set()
    for arrow in explanation["arrows"]:
        pair = (arrow["from"], arrow["to"])
        if pair in seen:
            continue
        seen.add(pair)
        best = arrow["role"] == "move" and arrow["from"] + arrow["to"] == ply["best"]["uci"][:4]
        shapes.add((*pair, "adviceBest" if best else ROLE_BRUSHES[arrow["role"]]))
    return shapes


def no_overflow(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# -- tests -------------------------------------------------------------------------------------


def test_review_a_blunder_from_the_game_page_and_solve_its_puzzle(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = finish_game(server.url, BLUNDER_GAME)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = open_game(context, server.url + created["links"]["private"])
        wait_for_ply(page, len(BLUNDER_GAME))
        button = page.locator("#request-review")
        button.wait_for(state="visible", timeout=WAIT_MS)
        assert button.inner_text() == "Request a computer analysis"
        button.click()
        page.wait_for_url("**/review/*", timeout=WAIT_MS)
        review_id = review_id_of(page)
        # The moves and the progress are on screen before the engine has finished.
        page.wait_for_function(
            "document.querySelectorAll('#moves button.review-move').length === 7", timeout=WAIT_MS
        )
        wait_done(page)
        review = review_json(server.url, review_id)
        assert review["status"] == "done" and review["source"] == {"game": created["game"]}
        blunder = review["plies"][BLUNDER_PLY - 1]
        assert (blunder["san"], blunder["class"], blunder["symbol"]) == ("Nf6", "blunder", "??")
        assert page.locator("#review-progress").is_hidden()
        assert page.locator("#review-engine").inner_text() == ENGINE_WORDS
        assert_named_buttons(page)

        # The marks in the move list and the counts per player are the review's.
        marked = page.locator("#moves button.review-move[data-class]").evaluate_all(
            "bs => bs.map((b) => [b.dataset.ply, b.dataset.class, b.textContent])"
        )
        assert marked == [
            [str(p["ply"]), p["class"], p["san"] + p["symbol"]]
            for p in review["plies"]
            if p["class"]
        ]
        for color in ("white", "black"):
            card = page.locator(f".player-card[data-color='{color}']")
            for name, count in review["counts"][color].items():
                assert card.locator(f"li[data-class='{name}'] .count").inner_text() == str(count)
            assert (
                card.locator(".accuracy").inner_text()
                == f"{round(review['accuracy'][color])}% accuracy"
            )

        # The blunder's point on the graph: its explanation, "Best was", its overlay.
        click_graph_point(page, BLUNDER_PLY)
        assert page.locator("#moves [aria-current='true']").get_attribute("data-ply") == "6"
        assert page.locator("#advice-head").inner_text().startswith("3… Nf6?? Blunder")
        explanation = blunder["explanation"]
        assert explanation and explanation["text"]
        assert page.locator("#advice-text").inner_text() == explanation["text"]
        best_words = page.locator("#advice").inner_text()
        assert blunder["best"]["san"] in best_words
        assert drawn_shapes(page) == expected_shapes(blunder)
        assert len(expected_shapes(blunder)) > 0
        page.screenshot(path=screenshot_path(request, "-desktop"))

        # Arrow keys step through the moves as on the analysis board.
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelector('#review').dataset.ply === '7'")
        page.keyboard.press("Home")
        page.wait_for_function("document.querySelector('#review').dataset.ply === '0'")
        assert drawn_shapes(page) == set()

        # Learn from Black's mistakes (this browser played White: its own come first).
        learn = page.locator("#learn button")
        assert learn.first.inner_text().startswith("Learn from your mistakes")
        page.locator("#learn button[data-color='black']").click()
        solve_first_puzzle(page, review, request)

        # The progress is the browser's: it is still there after a reload.
        page.reload()
        wait_done(page)
        page.locator("#learn button[data-color='black']").click()
        solved = len(
            [
                p
                for p in review["plies"]
                if p["color"] == "black" and p["class"] in ("mistake", "blunder")
            ]
        )
        page.wait_for_function(
            "document.querySelector('#puzzle-progress').textContent.startsWith('1 of')",
            timeout=WAIT_MS,
        )
        assert page.locator("#puzzle-progress").inner_text().startswith(f"1 of {solved} solved")
    finally:
        context.close()


def solve_first_puzzle(page: Any, review: dict[str, Any], request: pytest.FixtureRequest) -> None:
    """The puzzle on screen: a wrong move goes back, the hints show, the best move is accepted."""
    puzzle = page.locator("#puzzle")
    puzzle.wait_for(state="visible", timeout=WAIT_MS)
    page.wait_for_function("document.querySelector('#puzzle').dataset.ready === 'true'")
    item = review["plies"][int(str(puzzle.get_attribute("data-ply"))) - 1]
    assert item["color"] == "black" and item["class"] in ("mistake", "blunder")
    assert page.locator("#puzzle-prompt").inner_text() == "Find a better move for Black"
    assert "orientation-black" in (page.locator("#board").get_attribute("class") or "")
    # The position before the mistake: the one after the ply before it.
    assert board_pieces(page) == pieces_of_fen(review["plies"][item["ply"] - 2]["fen"])

    # Hint 1: the threat overlay of the position; hint 2: the piece to move.
    page.click("#puzzle-hint")
    page.wait_for_function("document.querySelector('#puzzle').dataset.hints === '1'")
    assert page.locator("#threat-grid").is_visible()
    page.click("#puzzle-hint")
    page.wait_for_function("document.querySelector('#puzzle').dataset.hints === '2'")
    best = item["best"]["uci"]
    # chessground draws the marked square on its next frame, after the data attribute is set.
    page.wait_for_function("document.querySelectorAll('#board square.review-hint').length === 1")
    hint_square = page.locator("#board square.review-hint").evaluate("s => s.cgKey")
    assert hint_square == best[:2]
    page.screenshot(path=screenshot_path(request, "-puzzle"))

    # The move played in the game is not better than itself: refused, the piece goes back.
    play_by_clicks(page, item["uci"])
    page.wait_for_function(
        "document.querySelector('#puzzle').dataset.result === 'wrong'", timeout=WAIT_MS
    )
    assert page.locator("#puzzle-prompt").inner_text().startswith("Try again")

    play_by_clicks(page, best)
    page.wait_for_function(
        "document.querySelector('#puzzle').dataset.result === 'solved'", timeout=WAIT_MS
    )
    assert page.locator("#puzzle-prompt").inner_text() == "Good move!"
    after = Board.from_fen(review["plies"][item["ply"] - 2]["fen"])
    after.push(Move.from_uci(best))
    page.wait_for_function(
        f"document.querySelector('#puzzle').dataset.fen === {after.fen()!r}", timeout=WAIT_MS
    )
    assert board_pieces(page) == pieces_of_fen(after.fen())
    assert item["explanation"]["text"] in page.locator("#puzzle-text").inner_text()
    assert page.locator("#puzzle-progress").inner_text().startswith("1 of")
    page.screenshot(path=screenshot_path(request, "-solved"))


def test_a_game_from_the_analysis_board_reviewed_on_a_phone(
    browser: Any, timed_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The progress bar from the first second, the graph and marks filling in as the pushes
    come, and at the end a phone layout with nothing sticking out sideways."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(timed_server.url + "/analysis")
        page.wait_for_function(
            "document.querySelector('#analysis')?.dataset.ready === 'true'", timeout=WAIT_MS
        )
        page.evaluate("document.querySelector('#sources').open = true")
        page.fill("#source-text", OPERA_GAME)
        page.click("#source-load")
        page.wait_for_function(
            "document.querySelectorAll('#tree .tree-move').length === 33", timeout=WAIT_MS
        )
        page.click("#review-game")
        page.wait_for_url("**/review/*", timeout=WAIT_MS)
        page.wait_for_function(
            "document.querySelectorAll('#moves button.review-move').length === 33", timeout=WAIT_MS
        )
        assert dataset(page, "status") in ("queued", "running")
        # Above the board: seen without scrolling.
        progress = page.locator("#review-progress").bounding_box()
        assert progress is not None and progress["y"] < page.locator("#board").bounding_box()["y"]
        page.screenshot(path=screenshot_path(request, "-phone-running"), full_page=True)
        wait_done(page)
        review = review_json(timed_server.url, review_id_of(page))
        assert review["source"] == {"pgn": True}
        assert review["headers"]["White"] == "Paul Morphy"
        assert page.locator("#graph").get_attribute("data-points") == "34"
        assert page.locator("#open-analysis").is_visible()  # the moves go to the board as PGN
        page.locator("#moves button.review-move").last.click()
        page.wait_for_function("document.querySelector('#review').dataset.ply === '33'")
        wait_for_board_at_rest(page)
        no_overflow(page, PHONE["width"])
        board = page.locator("#board").bounding_box()
        assert board["width"] > 0.9 * PHONE["width"]
        page.screenshot(path=screenshot_path(request, "-phone"), full_page=True)

        # Export PGN: the reviewed PGN with [%eval] comes from the server.
        with page.expect_download() as download:
            page.click("#export-pgn")
        text = Path(download.value.path()).read_text(encoding="utf-8")
        assert "[%eval" in text and "Rd8#" in text
    finally:
        context.close()


def test_a_running_review_on_the_desktop(
    browser: Any, timed_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """A review asked for over the API and opened at once: the progress bar, then the graph."""
    response = requests.post(
        timed_server.url + "/api/reviews", json={"pgn": IMMORTAL_GAME}, timeout=10
    )
    assert response.status_code in (200, 201), response.text
    review_id = response.json()["id"]
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{timed_server.url}/review/{review_id}")
        page.wait_for_function(
            "['queued', 'running', 'done']"
            ".includes(document.querySelector('#review').dataset.status)",
            timeout=WAIT_MS,
        )
        # 46 positions at 0.75 s each: the page is there long before the engine is done.
        assert dataset(page, "status") in ("queued", "running")
        assert page.locator("#review-progress").is_visible()
        page.screenshot(path=screenshot_path(request, "-running"))
        # The pushes fill the graph and the marks while the review runs.
        page.wait_for_function(
            "document.querySelector('#review').dataset.status === 'running'"
            " && Number(document.querySelector('#graph').dataset.points) > 2"
            " && Number(document.querySelector('#graph').dataset.points) < 46",
            timeout=REVIEW_WAIT_MS,
        )
        fill = page.locator("#progress-fill").evaluate("(bar) => parseFloat(bar.style.width)")
        assert 0 < fill < 100
        page.screenshot(path=screenshot_path(request, "-filling"))
        wait_done(page)
        assert page.locator("#review-progress").is_hidden()
        assert page.locator("#graph").get_attribute("data-points") == "46"
        no_overflow(page, DESKTOP["width"])
        page.screenshot(path=screenshot_path(request, "-done"))
    finally:
        context.close()


def test_the_accuracy_by_phase_and_so_far_while_stepping(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The opera game reviewed: each side's accuracy in the opening, the middlegame (from
    ply 18, when a side's pieces have left its first rank) and the endgame (the last ply) in
    a table, and the accuracy so far under the players, changing as one steps."""
    response = requests.post(server.url + "/api/reviews", json={"pgn": OPERA_GAME}, timeout=60)
    assert response.status_code in (200, 201), response.text
    review_id = response.json()["id"]
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/review/{review_id}")
        wait_done(page)
        review = review_json(server.url, review_id)
        assert review["phases"] == {"middlegame": 18, "endgame": 33}
        assert review["phase_accuracy"]["black"]["endgame"] is None  # White mated at once
        table = page.locator("#phases table.phase-table")
        assert table.is_visible()
        for color in ("white", "black"):
            for phase, value in review["phase_accuracy"][color].items():
                shown = NONE_SHOWN if value is None else f"{math.floor(value + 0.5)}%"
                cell = table.locator(f"tr[data-color='{color}'] td[data-phase='{phase}']")
                assert cell.inner_text() == shown, (color, phase)

        so_far = page.locator("#accuracy-so-far")
        assert dataset(page, "ply") == "0" and so_far.is_hidden()  # no move made yet
        seen = []
        for ply in range(1, len(review["plies"]) + 1):
            page.locator("#step-next").click()
            page.wait_for_function(
                f"document.querySelector('#review').dataset.ply === '{ply}'", timeout=WAIT_MS
            )
            expected = review["accuracy_so_far"][ply - 1]
            shown = so_far.evaluate("(p) => [p.dataset.white, p.dataset.black, p.textContent]")
            for side, text in zip(("white", "black"), shown[:2], strict=True):
                value = expected[side]
                assert (float(text) if text else None) == value, (ply, side)
            seen.append(shown[2])
            if ply == 1:
                white = math.floor(expected["white"] + 0.5)
                assert shown[2] == f"Accuracy so far: White {white}%, Black {NONE_SHOWN}"
        assert len(set(seen)) > 3, seen  # it moves with the game
        assert review["accuracy_so_far"][-1] == review["accuracy"]
        page.screenshot(path=screenshot_path(request, "-phases"))
    finally:
        context.close()


def test_a_computer_game_marked_for_review_links_to_it_when_it_ends(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.locator(".color-choice[data-color='white']").click()
        page.select_option("#level", "1")
        page.check("#review-after")
        page.click("#play-computer")
        page.wait_for_url("**/game/*", timeout=WAIT_MS)
        page.wait_for_function(
            "document.querySelector('#connection')?.dataset.state === 'connected'"
            " && document.querySelector('main.game')?.dataset.ply === '0'",
            timeout=WAIT_MS,
        )
        play_by_clicks(page, "e2e4")
        wait_for_ply(page, 2)
        page.click("#resign")
        page.click("#confirm-resign")
        link = page.locator("#review-link")
        link.wait_for(state="visible", timeout=WAIT_MS)
        assert page.locator("#request-review").is_hidden()
        page.screenshot(path=screenshot_path(request, "-game"))
        link.click()
        page.wait_for_url("**/review/*", timeout=WAIT_MS)
        wait_done(page)
        assert page.locator("#open-analysis").is_visible()

        # The choice is remembered for the next game.
        page.goto(server.url + "/")
        assert page.locator("#review-after").is_checked()
    finally:
        context.close()


def test_the_graph_is_drawn_under_the_content_security_policy(
    browser: Any, server: LiveServer
) -> None:
    """Chart.js comes from /vendor/ with its bare import made an address: no import map, no
    inline script, so the page works with the policy applied (Playwright's locators only)."""
    created = finish_game(server.url, BLUNDER_GAME)
    reply = requests.post(server.url + "/api/reviews", json={"game": created["game"]}, timeout=10)
    assert reply.status_code in (200, 201), reply.text
    module = requests.get(server.url + "/vendor/chart.js/chart.js", timeout=10)
    assert module.status_code == 200 and "'@kurkle/color'" not in module.text
    assert "/vendor/kurkle-color/color.esm.js" in module.text
    context = browser.new_context(viewport=DESKTOP, bypass_csp=False)
    try:
        page = context.new_page()
        errors = collect_errors(page)
        page.goto(f"{server.url}/review/{reply.json()['id']}")
        page.locator("#review[data-status='done']").wait_for(
            state="attached", timeout=REVIEW_WAIT_MS
        )
        page.locator("#graph[data-points='8']").wait_for(state="attached", timeout=WAIT_MS)
        assert page.locator("#moves button.review-move").count() == len(BLUNDER_GAME)
        assert errors == []
    finally:
        context.close()
