"""Stockfish in the browser for the analysis board (issue 24), driven in a real Chromium.

Stockfish 19 lite runs in a Web Worker from /vendor/stockfish/ under the page's real
Content-Security-Policy; its lines reach depth 16 on the start position, on desktop and phone;
the page is cross-origin isolated and so runs the threaded build, while a page that is not
runs the single-threaded one; the number of lines follows the setting; a click on a line plays
it; the switch to the server's engine shows our engine's lines, and only then does an
`engine_start` leave the page (every Socket.IO frame the page sends is watched); a browser
without WebAssembly falls back to the server; the bar is full for the side that mates and
writes the score across it; the exported PGN keeps only evaluations Stockfish reached at depth
16 or more. Screenshots go to artifacts/.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from chesscore import Board
from tests.conftest import screenshot_path
from tests.support.engine_settings import THINK_UNTIL_STOPPED
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_analysis import (
    DESKTOP,
    PGN,
    PHONE,
    dataset,
    fen_after,
    open_analysis,
    paste,
    press,
    wait_ready,
)

pytestmark = pytest.mark.browser

server = module_server("browser_stockfish")

# Generous: the engine shares two cores with everything else the machine runs.
ENGINE_WAIT_S = 120.0
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Fool's mate: White is mated.
FOOLS_MATE = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
# White mates in two: 1. Nf6+ gxf6 2. Bxf7# (Legal's pattern; Stockfish 15.1 says mate 2).
MATE_IN_TWO = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10"
DEPTH = "Number(document.querySelector('#engine-lines').dataset.depth || 0)"
LINES = "document.querySelectorAll('#engine-lines .engine-line').length"


def poll(page: Any, expression: str, timeout: float = ENGINE_WAIT_S) -> Any:
    """Evaluate `expression` until it is truthy, at most `timeout` seconds; its value.

    Playwright's own wait_for_function compiles its predicate with eval, which the page's
    policy refuses: here the page runs under its real policy, so the test polls instead."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} s: {expression}")
        page.wait_for_timeout(100)


def engine_lines(page: Any) -> list[list[str]]:
    return [
        [san.strip() for san in line]
        for line in page.locator("#engine-lines .engine-line").evaluate_all(
            "ls => ls.map(l => [...l.querySelectorAll('.engine-move')].map(b => b.textContent))"
        )
    ]


def assert_legal(fen: str, lines: list[list[str]]) -> None:
    """Every line plays from `fen`, each move after the one before (chesscore decides)."""
    for line in lines:
        board = Board.from_fen(fen)
        for san in line:
            board.push_san(san)


def watch_frames(page: Any) -> list[str]:
    """Every WebSocket frame the page sends from now on, as text, in order."""
    sent: list[str] = []

    def on_socket(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(str(payload)))

    page.on("websocket", on_socket)
    return sent


def new_context(browser: Any, viewport: dict[str, int], **options: Any) -> Any:
    """A browser context whose analysis board thinks until stopped."""
    context = browser.new_context(viewport=viewport, **options)
    context.add_init_script(THINK_UNTIL_STOPPED)
    return context


def strict_context(browser: Any, viewport: dict[str, int]) -> Any:
    """A context under the pages' real Content-Security-Policy."""
    return new_context(browser, viewport, bypass_csp=False)


def open_strict(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url)
    poll(
        page,
        "document.querySelector('#connection')?.dataset.state === 'connected'"
        " && document.querySelector('#analysis')?.dataset.ready === 'true'",
    )
    return page


def select(page: Any, selector: str, value: str) -> None:
    page.select_option(selector, value)


# -- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_stockfish_in_a_worker_reaches_depth_16_on_the_start_position(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, viewport: dict[str, int]
) -> None:
    """Under the real policy, isolated, the threaded build: three legal lines at depth 16+,
    the engine named, the bar and the head showing the score; nothing asks the server."""
    context = strict_context(browser, viewport)
    try:
        requested: list[str] = []
        context.on("request", lambda asked: requested.append(asked.url))
        page = context.new_page()
        sent = watch_frames(page)
        violations: list[str] = []
        page.on("console", lambda message: violations.append(message.text))
        page.goto(server.url + "/analysis")
        assert page.evaluate("crossOriginIsolated") is True
        poll(page, f"{DEPTH} >= 16 && {LINES} === 3")
        lines = engine_lines(page)
        assert len(lines) == 3 and all(len(line) >= 4 for line in lines)
        assert_legal(START, lines)
        assert page.locator("#engine-lines").get_attribute("data-engine") == "stockfish"
        name = page.locator("#engine-name").inner_text()
        assert re.fullmatch(r"Stockfish 19 lite, WebAssembly, \d+ threads?", name), name
        loaded = [url.removeprefix(server.url).split("#")[0] for url in requested]
        assert "/vendor/stockfish/stockfish-19-lite.js" in loaded  # the threaded build
        assert "/vendor/stockfish/stockfish-19-lite.wasm" in loaded
        assert "/vendor/stockfish/stockfish-19-lite-single.wasm" not in loaded
        status = page.locator("#engine-status").inner_text()
        assert re.match(r"Depth \d+ · [\d.]+[kM]? nodes/s · [\d.]+ s", status), status
        assert page.locator("#eval-bar").get_attribute("data-score") != ""
        assert page.locator("#engine-score").inner_text().startswith(("+", "-", "0"))
        assert not [text for text in violations if "Content Security Policy" in text]
        assert not [frame for frame in sent if "engine_start" in frame]
        page.screenshot(path=screenshot_path(request), full_page=True)
    finally:
        context.close()


def test_a_page_not_isolated_runs_the_single_threaded_build(
    browser: Any, server: LiveServer
) -> None:
    """The lobby page sends no COOP/COEP: the module picks the one-thread build, which runs."""
    context = new_context(browser, DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        assert page.evaluate("crossOriginIsolated") is False
        found = page.evaluate(
            """async () => {
                const module = '/static/js/analysis/stockfish.js';
                const { chooseBuild, startStockfish } = await import(module);
                const infos = [];
                const done = new Promise((resolve) => {
                    const engine = startStockfish({
                        onInfo: (search, info) => infos.push(info),
                        onDone: () => resolve(),
                        onError: (message) => resolve(message),
                    });
                    engine.ready.then(() => engine.search({
                        fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
                        moves: ['e2e4'], multipv: 1, movetime: null,
                    }));
                    engine.ready.then(() => setTimeout(() => engine.stop(), 1500));
                });
                const failure = await done;
                const depth = Math.max(...infos.map((i) => i.depth));
                return { build: chooseBuild(), failure, depth };
            }"""
        )
        assert found["failure"] is None
        assert found["build"]["url"] == "/vendor/stockfish/stockfish-19-lite-single.js"
        assert found["build"]["name"] == "Stockfish 19 lite, WebAssembly, 1 thread"
        assert found["depth"] >= 5
    finally:
        context.close()


def test_lines_setting_click_and_the_switch_to_the_servers_engine(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """One and five lines as chosen (kept across a reload); a click on a line's second move
    plays the line; the server's engine, when chosen, gives our lines through engine_start,
    which never left the page before."""
    context = new_context(browser, DESKTOP)
    try:
        page = context.new_page()
        sent = watch_frames(page)
        page.goto(server.url + "/analysis")
        wait_ready(page)
        poll(page, f"{LINES} === 3")
        select(page, "#engine-multipv", "5")
        poll(page, f"{LINES} === 5 && {DEPTH} >= 10")
        assert_legal(START, engine_lines(page))
        select(page, "#engine-multipv", "1")
        poll(page, f"{LINES} === 1 && {DEPTH} >= 8")
        page.reload()
        wait_ready(page)
        assert page.locator("#engine-multipv").input_value() == "1"
        poll(page, f"{LINES} === 1 && {DEPTH} >= 8")
        select(page, "#engine-multipv", "3")
        poll(page, f"{LINES} === 3 && {DEPTH} >= 8")

        # A click on a line's second move plays its first two moves.
        first = page.evaluate(
            """() => {
                const moves = [...document.querySelectorAll('#engine-lines .engine-line')][0]
                    .querySelectorAll('.engine-move');
                moves[1].click();
                return [moves[0].textContent, moves[1].textContent];
            }"""
        )
        page.wait_for_function("document.querySelector('#analysis').dataset.ply === '2'")
        wait_ready(page)
        assert dataset(page, "fen") == fen_after(*first)
        assert not [frame for frame in sent if "engine_start" in frame]

        select(page, "#engine-source", "server")
        poll(page, "document.querySelector('#engine-lines').dataset.engine === 'server'")
        poll(page, f"{LINES} >= 1")
        assert page.locator("#engine-name").inner_text() == "Our engine, on the server"
        assert_legal(fen_after(*first), engine_lines(page))
        assert [frame for frame in sent if "engine_start" in frame]
        page.screenshot(path=screenshot_path(request))
        # The choice is kept: back to Stockfish for the other tests' pages of this context.
        select(page, "#engine-source", "browser")
        poll(page, "document.querySelector('#engine-lines').dataset.engine === 'stockfish'")
    finally:
        context.close()


def test_a_browser_without_webassembly_falls_back_to_the_servers_engine(
    browser: Any, server: LiveServer
) -> None:
    context = new_context(browser, DESKTOP)
    context.add_init_script("delete globalThis.WebAssembly;")
    try:
        page = open_analysis(context, server.url + "/analysis")
        poll(page, f"{LINES} >= 1")
        assert page.locator("#engine-lines").get_attribute("data-engine") == "server"
        assert page.locator("#engine-source").input_value() == "server"
        assert page.locator("#engine-source option[value='browser']").is_disabled()
    finally:
        context.close()


@pytest.mark.parametrize(
    ("fen", "share", "text"),
    [(FOOLS_MATE, "0%", "0-1"), (MATE_IN_TWO, "100%", "#2")],
    ids=["mated", "mate-in-two"],
)
def test_the_bar_is_full_for_the_side_that_mates(
    browser: Any,
    server: LiveServer,
    request: pytest.FixtureRequest,
    fen: str,
    share: str,
    text: str,
) -> None:
    context = new_context(browser, DESKTOP)
    try:
        page = open_analysis(context, f"{server.url}/analysis?fen={fen}")
        poll(page, f"document.querySelector('#eval-bar').dataset.score === {text!r}")
        assert page.locator("#eval-fill").evaluate("(fill) => fill.style.height") == share
        assert page.locator("#eval-text").inner_text() == text
        assert page.locator("#engine-score").inner_text() == text
        # Legible: written across the bar, not turned on its side, and not tiny.
        style = page.locator("#eval-text").evaluate(
            "(t) => [getComputedStyle(t).writingMode, parseFloat(getComputedStyle(t).fontSize)]"
        )
        assert style[0] == "horizontal-tb" and style[1] >= 11
        # The fill grows in 0.4 s: the screenshot shows it once it has.
        full = "0px" if share == "0%" else f"{bar_inner_height(page)}px"
        poll(page, f"getComputedStyle(document.querySelector('#eval-fill')).height === {full!r}")
        text_box = page.locator("#eval-text").bounding_box()
        bar_box = page.locator("#eval-bar").bounding_box()
        assert text_box["width"] <= bar_box["width"]
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def bar_inner_height(page: Any) -> int:
    return int(page.locator("#eval-bar").evaluate("(bar) => bar.clientHeight"))


def exported_pgn(page: Any) -> str:
    page.evaluate("document.querySelector('#pgn-text').value = ''")
    page.click("#copy-pgn")
    page.wait_for_function("document.querySelector('#pgn-text').value !== ''")
    return str(page.locator("#pgn-text").input_value())


EVALUATED_MOVE = r"([A-Za-z][A-Za-z0-9+#=]*)\s+(?:\$\d+\s+)?\{[^}]*\[%eval ([^\]]+)\]"


def evaluations(pgn: str) -> dict[str, str]:
    """SAN of a move -> the [%eval] in its comment, for the moves that carry one."""
    return dict(re.findall(EVALUATED_MOVE, pgn))


def test_the_exported_pgn_keeps_only_evaluations_at_depth_16(
    browser: Any, server: LiveServer
) -> None:
    """The node looked at until Stockfish reached depth 16 carries its score, no other node
    one; our server's engine's lines (depth 4-6, the short looks the old page kept) never."""
    context = new_context(browser, DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, PGN)
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 9")
        # Straight to Nc6 (a click on it in the move list): no other node is looked at.
        page.locator("#tree .tree-move", has_text="Nc6").click()
        wait_ready(page)
        poll(page, f"{DEPTH} >= 16")
        found = evaluations(exported_pgn(page))
        assert list(found) == ["Nc6"], found
        assert re.fullmatch(r"[-+]?\d+\.\d+|#-?\d+", found["Nc6"]), found

        select(page, "#engine-source", "server")
        press(page, "ArrowRight")
        poll(page, "document.querySelector('#engine-lines').dataset.engine === 'server'")
        poll(page, f"{LINES} >= 1")
        assert dataset(page, "ply") == "5"
        assert list(evaluations(exported_pgn(page))) == ["Nc6"]
        select(page, "#engine-source", "browser")
    finally:
        context.close()
