"""The analysis board page (/analysis, issue 17) driven in Chromium as a person uses it.

A PGN with a variation, a comment and a NAG is pasted and stepped through with the keys;
a move played on the board from an earlier node makes a variation, which is promoted, and
another is deleted; the threat overlay shows chesscore's counts on a node; the engine's lines
appear and follow the node; the exported PGN carries the variation; the shared link opens the
same tree in a new page. The editor refuses two white kings and accepts a legal position (and
one that cannot arise in a game, with the notice); a file of several games offers a list; a
finished game links to its analysis. Screenshots at desktop and phone widths go to artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from chesscore import Board, ChessError, Move
from chesscore.analysis.describe import describe_square
from chesscore.analysis.insight import describe_change
from server.threats.wire import change_json
from tests.conftest import screenshot_path
from tests.support.engine_settings import THINK_UNTIL_STOPPED
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.safety import safety_by_name
from tests.support.server_fixture import module_server
from tests.test_browser_insight import expected_lines, legend_lines, safety_marks
from tests.test_browser_support import FILES, WAIT_MS, create_game, wait_for_board_at_rest
from tests.test_browser_threats import expected_overlay, read_overlay
from tests.test_i18n_refusals import IMPOSSIBLE_CHECKS

pytestmark = pytest.mark.browser

server = module_server("browser_analysis")

# The engine shares two cores with everything else the machine runs: its first line may be
# slow to come on a loaded machine (bench/analysis_page.py measures it on a quiet one).
ENGINE_WAIT_MS = 45_000
DASH = "\N{EN DASH}"  # between the players' names, as the page writes them
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

PGN = """[Event "Analysis test"]
[White "Alice"]
[Black "Bob"]
[Result "*"]

1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 $1 {the natural move} Nc6 3. Bb5 a6 *
"""

SEVERAL_GAMES = """[Event "First"]
[White "Ann"]
[Black "Ben"]
[Result "1-0"]

1. d4 d5 2. c4 1-0

[Event "Second"]
[White "Cid"]
[Black "Dee"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[White "Eve"]
[Black "Fay"]

1. e4 *
"""


# -- helpers ---------------------------------------------------------------------------------


def open_analysis(context: Any, url: str) -> Any:
    """A new page at `url`, once connected and the facts of the node on view have come."""
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    return page


def wait_ready(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#connection')?.dataset.state === 'connected'"
        " && document.querySelector('#analysis')?.dataset.ready === 'true'",
        timeout=WAIT_MS,
    )


def dataset(page: Any, name: str) -> str:
    return str(page.evaluate(f"document.querySelector('#analysis').dataset.{name}"))


def current_san(page: Any) -> str:
    return str(page.locator("#tree .tree-move[aria-current='true']").inner_text()).strip()


def tree_moves(page: Any) -> list[tuple[str, str]]:
    """(SAN with glyphs, 'main' or 'variation') of every move in the move list, in order."""
    moves = page.locator("#tree .tree-move").evaluate_all(
        "ms => ms.map(m => [m.textContent.trim(),"
        " m.classList.contains('main') ? 'main' : 'variation'])"
    )
    return [(san, kind) for san, kind in moves]


def wait_current(page: Any, san: str) -> None:
    page.wait_for_function(
        "document.querySelector('#tree .tree-move[aria-current=\"true\"]')?.textContent"
        f" === {san!r}",
        timeout=WAIT_MS,
    )


def mainline(page: Any) -> list[str]:
    return [san for san, kind in tree_moves(page) if kind == "main"]


def wait_placement(page: Any, placement: str) -> None:
    """Wait for the editor's FEN field to show `placement` (chessground reports a change a
    moment after it, from a timer)."""
    page.wait_for_function(
        f"document.querySelector('#editor-fen').value.split(' ')[0] === {placement!r}",
        timeout=WAIT_MS,
    )


def next_frames(page: Any) -> None:
    """Let chessground handle what it defers to the next animation frames (drags, redraws)."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def press(page: Any, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)
        wait_ready(page)


def board_square(page: Any, board: str, square: str) -> tuple[float, float]:
    """The screen point of `square` on the board `board` ('#board' or '#editor-board')."""
    box = page.locator(f"{board} cg-board").bounding_box()
    white_down = "orientation-white" in (page.locator(board).get_attribute("class") or "")
    file, rank = FILES.index(square[0]), int(square[1]) - 1
    column, row = (file, 7 - rank) if white_down else (7 - file, rank)
    size = box["width"] / 8
    return box["x"] + (column + 0.5) * size, box["y"] + (row + 0.5) * size


def play(page: Any, uci: str) -> None:
    """Play `uci` on the analysis board by clicking its two squares."""
    page.mouse.click(*board_square(page, "#board", uci[:2]))
    page.mouse.click(*board_square(page, "#board", uci[2:4]))


def fen_after(*moves: str) -> str:
    board = Board()
    for san in moves:
        board.push_san(san)
    return board.fen()


def paste(page: Any, text: str) -> None:
    page.evaluate("document.querySelector('#sources').open = true")
    page.fill("#source-text", text)
    page.click("#source-load")


def analyse_typed(page: Any, fen: str) -> None:
    """Type `fen` into the open board editor's FEN field and ask for its analysis."""
    page.fill("#editor-fen", fen)
    page.locator("#editor-fen").dispatch_event("change")
    page.click("#editor-analyse")


def engine_lines(page: Any) -> list[list[str]]:
    """The SAN moves of each engine line on screen."""
    return [
        [san.strip() for san in line]
        for line in page.locator("#engine-lines .engine-line").evaluate_all(
            "ls => ls.map(l => [...l.querySelectorAll('.engine-move')].map(b => b.textContent))"
        )
    ]


def wait_engine_lines_for(page: Any, fen: str) -> list[list[str]]:
    """Wait for engine lines on screen for the node whose FEN is `fen`; their moves must be
    legal there, each after the one before."""
    page.wait_for_function(
        f"document.querySelector('#analysis').dataset.fen === {fen!r}"
        " && document.querySelectorAll('#engine-lines .engine-line').length > 0",
        timeout=ENGINE_WAIT_MS,
    )
    lines = engine_lines(page)
    for line in lines:
        board = Board.from_fen(fen)
        for san in line:
            board.push_san(san)  # raises on an illegal move
    return lines


def wait_depth(page: Any, depth: int) -> None:
    """Wait for the engine's lines on screen to reach `depth`."""
    page.wait_for_function(
        f"Number(document.querySelector('#engine-lines').dataset.depth || 0) >= {depth}",
        timeout=ENGINE_WAIT_MS,
    )


# -- tests -------------------------------------------------------------------------------------


def test_paste_step_branch_promote_delete_export_and_share(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, PGN)
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 9")
        wait_ready(page)
        assert tree_moves(page) == [
            ("e4", "main"),
            ("e5", "main"),
            ("c5", "variation"),
            ("Nf3", "variation"),
            ("d6", "variation"),
            ("Nf3!", "main"),
            ("Nc6", "main"),
            ("Bb5", "main"),
            ("a6", "main"),
        ]
        assert "the natural move" in page.locator("#tree .tree-comment").inner_text()
        assert page.locator("#game-title").inner_text() == f"Alice {DASH} Bob"

        # Keys: → ← along the line, Home/End, ↓ at a fork picks the variation → follows.
        press(page, "ArrowRight", "ArrowRight", "ArrowRight")
        assert (current_san(page), dataset(page, "ply")) == ("Nf3!", "3")
        assert dataset(page, "fen") == fen_after("e4", "e5", "Nf3")
        press(page, "ArrowLeft")
        assert current_san(page) == "e5"
        press(page, "End")
        assert current_san(page) == "a6"
        press(page, "Home")
        assert dataset(page, "ply") == "0"
        press(page, "ArrowRight", "ArrowDown", "ArrowRight")
        assert current_san(page) == "c5"
        assert dataset(page, "fen") == fen_after("e4", "c5")
        press(page, "ArrowRight")
        assert current_san(page) == "Nf3"
        press(page, "Shift+ArrowLeft")  # out of the variation, to where it branches
        assert current_san(page) == "e4"

        # A move from an earlier node makes a variation; promoted, it becomes the main line.
        press(page, "ArrowRight")
        assert current_san(page) == "e5"
        play(page, "f1c4")
        wait_current(page, "Bc4")
        wait_ready(page)
        assert ("Bc4", "variation") in tree_moves(page)
        assert dataset(page, "fen") == fen_after("e4", "e5", "Bc4")
        page.click("#promote-variation")
        assert mainline(page) == ["e4", "e5", "Bc4"]
        assert ("Nf3!", "variation") in tree_moves(page)
        # Following an existing move does not add one.
        press(page, "ArrowLeft")
        play(page, "f1c4")
        wait_current(page, "Bc4")
        assert len(tree_moves(page)) == 10

        # Delete the 1... c5 variation (from its menu, opened by a right click).
        page.locator("#tree .tree-move.variation", has_text="c5").click(button="right")
        page.locator("#tree-menu [data-action='delete']").click()
        wait_ready(page)
        kept = ["e4", "e5", "Bc4", "Nf3!", "Nc6", "Bb5", "a6"]
        assert [san for san, _ in tree_moves(page)] == kept
        assert current_san(page) == "Bc4"  # the menu acts on its move; the view stays

        # The threat overlay on this node shows chesscore's counts.
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        assert page.locator("#threat-grid").is_visible()
        overlay = expected_overlay(fen_after("e4", "e5", "Bc4"), ("white", "black"))
        assert read_overlay(page) == overlay

        page.screenshot(path=screenshot_path(request, "-desktop"))

        # Export: the PGN carries the variation and the comment.
        page.click("#copy-pgn")
        page.wait_for_function("document.querySelector('#pgn-text').value.length > 0")
        pgn = page.locator("#pgn-text").input_value()
        assert "3. Bc4" not in pgn  # Bc4 is move 2
        assert "2. Bc4" in pgn and "(2. Nf3" in pgn and "the natural move" in pgn
        assert "$1" in pgn or "Nf3!" in pgn

        # With the threat annotations: [%csl] and [%cal] in the comments.
        page.check("#export-annotations")
        page.click("#copy-pgn")
        page.wait_for_function("document.querySelector('#pgn-text').value.includes('[%csl')")
        page.uncheck("#export-annotations")

        # Share: the link opens the same tree in a new page.
        page.click("#share")
        page.wait_for_function("document.querySelector('#share-link').value.includes('/analysis/')")
        link = page.locator("#share-link").input_value()
        reopened = open_analysis(context, link)
        count = len(tree_moves(page))
        reopened.wait_for_function(
            f"document.querySelectorAll('#tree .tree-move').length === {count}"
        )
        assert tree_moves(reopened) == tree_moves(page)
    finally:
        context.close()


def test_every_node_has_the_game_pages_overlays(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """On a node of a position given by `?fen=`: the safety marks of a piece picked up, the
    preview of the position after a move while the piece is held over its square, what the
    last move changed, a square in words, and the last move in words for screen readers."""
    fork = "3qk2r/8/8/6N1/8/8/8/4K3 w - - 0 1"
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis?fen=" + fork.replace(" ", "%20"))
        assert dataset(page, "fen") == fork
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        board = Board.from_fen(fork)
        page.mouse.click(*board_square(page, "#board", "g5"))
        assert safety_marks(page) == safety_by_name(board)["g5"]
        page.mouse.click(*board_square(page, "#board", "a1"))
        # The marks go once chessground has settled the click (the page waits for it too).
        page.wait_for_function(
            "![...document.querySelectorAll(\"#board square[class*='safety-']\")]"
            ".some((s) => s.style.display !== 'none')",
            timeout=WAIT_MS,
        )
        assert safety_marks(page) == {}

        page.mouse.move(*board_square(page, "#board", "g5"))
        page.mouse.down()
        page.mouse.move(*board_square(page, "#board", "e6"), steps=6)
        page.wait_for_function(
            "document.querySelector('#analysis').dataset.preview === 'g5e6'", timeout=WAIT_MS
        )
        after = board.copy()
        after.push(Move.from_uci("g5e6"))
        assert read_overlay(page) == expected_overlay(after.fen(), ("white", "black"), False)
        page.mouse.move(*board_square(page, "#board", "g5"), steps=6)
        page.mouse.up()
        page.wait_for_function("document.querySelector('#analysis').dataset.preview === ''")

        play(page, "g5f7")
        page.wait_for_function("document.querySelector('#analysis').dataset.ply === '1'")
        wait_ready(page)
        change = change_json(describe_change(board, Move.from_uci("g5f7")))
        board.push(Move.from_uci("g5f7"))
        assert legend_lines(page) == expected_lines(change)
        page.wait_for_function("document.querySelector('#announcer').textContent.length > 0")
        assert "knight" in page.locator("#announcer").inner_text().lower()
        page.screenshot(path=screenshot_path(request, "-fork"))

        page.locator(".square-cell[data-square='d8']").focus()
        page.wait_for_function(
            "document.activeElement.dataset.description !== undefined", timeout=WAIT_MS
        )
        assert page.locator("#square-description").inner_text() == describe_square(board, "d8")
        page.keyboard.press("ArrowDown")  # the squares' own keys: the node on view stays
        page.wait_for_function("document.activeElement.dataset.square === 'd7'")
        assert dataset(page, "ply") == "1"
    finally:
        context.close()


def test_engine_lines_appear_and_follow_the_node(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """Lines for the node on view, legal there, three of them; a new node gets its own; the
    switch turned off clears them; a click on a line's move plays the line up to it."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(THINK_UNTIL_STOPPED)  # depth 16 whatever the machine's load
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, PGN)
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 9")
        press(page, "ArrowRight", "ArrowRight")
        toggle = page.locator("#engine-toggle")
        if not toggle.is_checked():
            toggle.check()
        wait_engine_lines_for(page, fen_after("e4", "e5"))
        wait_depth(page, 16)
        press(page, "ArrowRight")
        lines = wait_engine_lines_for(page, fen_after("e4", "e5", "Nf3"))
        assert len(lines) == 3
        assert page.locator("#eval-bar").get_attribute("data-score") != ""
        wait_depth(page, 16)
        page.screenshot(path=screenshot_path(request, "-desktop"))

        # The nodes Stockfish analysed to depth 16 carry its evaluation in the exported PGN.
        page.click("#copy-pgn")
        page.wait_for_function(
            "document.querySelector('#pgn-text').value.includes('[%eval')",
            timeout=ENGINE_WAIT_MS,
        )
        pgn = page.locator("#pgn-text").input_value()
        assert re.search(r"e5 \{[^}]*\[%eval [-#0-9.]+\]", pgn), pgn
        assert re.search(r"Nf3 \$1\s+\{[^}]*\[%eval [-#0-9.]+\]", pgn), pgn

        # Lines are redrawn as they deepen: the moves are read and clicked in one go.
        page.wait_for_function(
            "[...document.querySelectorAll('#engine-lines .engine-line')]"
            ".some(l => l.querySelectorAll('.engine-move').length >= 2)",
            timeout=ENGINE_WAIT_MS,
        )
        first = page.evaluate(
            """() => {
                const line = [...document.querySelectorAll('#engine-lines .engine-line')]
                    .find((l) => l.querySelectorAll('.engine-move').length >= 2);
                const moves = [...line.querySelectorAll('.engine-move')].slice(0, 2);
                moves[1].click();
                return moves.map((b) => b.textContent);
            }"""
        )
        page.wait_for_function("document.querySelector('#analysis').dataset.ply === '5'")
        wait_ready(page)
        assert dataset(page, "fen") == fen_after("e4", "e5", "Nf3", *first)

        # The tab hidden: the job stops (and says so); shown again: it starts again.
        set_hidden = """(hidden) => {
            Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
        page.evaluate(set_hidden, True)
        assert page.locator("#engine-status").inner_text() == "Paused while the tab is hidden"
        page.evaluate("performance.clearMeasures('engine-first-line')")
        page.evaluate(set_hidden, False)
        page.wait_for_function(
            "performance.getEntriesByName('engine-first-line').length === 1",
            timeout=ENGINE_WAIT_MS,
        )

        # A key held down: only the node it stops at is asked about, nothing is refused.
        press(page, "Home")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        wait_ready(page)
        assert dataset(page, "ply") == "6" and current_san(page) == "a6"
        wait_engine_lines_for(page, fen_after("e4", "e5", "Nf3", "Nc6", "Bb5", "a6"))
        assert page.locator("#move-error").inner_text() == ""

        toggle.uncheck()
        assert page.locator("#engine-lines .engine-line").count() == 0
        assert page.locator("#eval-bar").is_hidden()
        press(page, "ArrowLeft")
        page.wait_for_timeout(500)
        assert page.locator("#engine-lines .engine-line").count() == 0
    finally:
        context.close()


def test_phone_layout(browser: Any, server: LiveServer, request: pytest.FixtureRequest) -> None:
    """On a phone the board takes the width with the eval bar beside it, the engine and the
    moves below it."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, PGN)
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 9")
        press(page, "End")
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        wait_for_board_at_rest(page)
        board = page.locator("#board").bounding_box()
        bar = page.locator("#eval-bar").bounding_box()
        engine = page.locator(".engine").bounding_box()
        tree = page.locator("#tree").bounding_box()
        assert board["width"] > 0.85 * PHONE["width"]
        assert bar["x"] + bar["width"] <= board["x"] and abs(bar["y"] - board["y"]) < 2
        assert board["y"] + board["height"] < engine["y"] < tree["y"]
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]  # nothing sticks out sideways
        page.screenshot(path=screenshot_path(request, "-phone"), full_page=True)
    finally:
        context.close()


def test_editor_refuses_two_white_kings_and_accepts_a_legal_position(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    with pytest.raises(ChessError):
        Board.from_fen(IMPOSSIBLE_CHECKS)
    Board.from_fen(IMPOSSIBLE_CHECKS, allow_impossible_checks=True)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis")
        page.click("#open-editor")
        assert page.locator("#editor").is_visible()
        # A second white king, put on a3 from the spare pieces.
        page.click(".spare[data-piece='white king']")
        page.mouse.click(*board_square(page, "#editor-board", "a3"))
        fen = page.locator("#editor-fen").input_value()
        assert fen.startswith("rnbqkbnr/pppppppp/8/8/8/K7/PPPPPPPP/RNBQKBNR w KQkq")
        page.click("#editor-analyse")
        page.wait_for_function("document.querySelector('#editor-error').textContent.length > 0")
        assert "Not accepted" in page.locator("#editor-error").inner_text()
        page.screenshot(path=screenshot_path(request, "-refused"))
        assert page.locator("#editor").is_visible()

        # Removed again, with Black to move: accepted, and the analysis shows it.
        page.click("#editor-trash")
        page.mouse.click(*board_square(page, "#editor-board", "a3"))
        # A black queen dragged on from the spares to d4, then dragged off the board again.
        spare = page.locator(".spare[data-piece='black queen']").bounding_box()
        page.mouse.move(spare["x"] + spare["width"] / 2, spare["y"] + spare["height"] / 2)
        page.mouse.down()
        page.mouse.move(*board_square(page, "#editor-board", "d4"), steps=8)
        page.mouse.up()
        wait_placement(page, "rnbqkbnr/pppppppp/8/8/3q4/8/PPPPPPPP/RNBQKBNR")
        next_frames(page)
        page.mouse.move(*board_square(page, "#editor-board", "d4"))
        page.mouse.down()
        page.mouse.move(*board_square(page, "#editor-board", "d1"), steps=8)
        page.mouse.move(spare["x"] + 700, spare["y"] + 300, steps=8)
        next_frames(page)
        page.mouse.up()
        wait_placement(page, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
        page.select_option("#editor-turn", "b")
        page.click("#editor-analyse")
        page.wait_for_function("!document.querySelector('#analysis-view').hidden")
        wait_ready(page)
        expected = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
        assert dataset(page, "fen") == expected
        assert page.locator("#position-status").inner_text() == "Black to move"
        assert page.locator("#notice").is_hidden()

        # A FEN typed in: impossible checks, legal moves: accepted with the notice.
        page.click("#open-editor")
        analyse_typed(page, IMPOSSIBLE_CHECKS)
        page.wait_for_function("!document.querySelector('#analysis-view').hidden")
        wait_ready(page)
        assert dataset(page, "fen") == IMPOSSIBLE_CHECKS
        assert "cannot arise in a game" in page.locator("#notice").inner_text()
        page.screenshot(path=screenshot_path(request, "-accepted"))
    finally:
        context.close()


def test_a_bad_fen_in_the_address_is_refused_with_the_servers_words(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/analysis?fen=" + "8/8/8/8/8/8/8/8%20w%20-%20-%200%201")
        page.wait_for_function("document.querySelector('#source-error').textContent.length > 0")
        assert page.locator("#source-error").is_visible()
        assert "king" in page.locator("#source-error").inner_text()
    finally:
        context.close()


def test_a_file_of_several_games_offers_a_list_and_a_bad_one_names_the_line(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    games = tmp_path / "games.pgn"
    games.write_text(SEVERAL_GAMES)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis")
        page.locator("#sources summary").click()
        page.set_input_files("#source-file", str(games))
        page.wait_for_selector("#source-list .choose-game")
        choices = page.locator("#source-list .choose-game").all_inner_texts()
        assert len(choices) == 3
        assert f"Ann {DASH} Ben 1-0" in choices[0] and f"Cid {DASH} Dee 0-1" in choices[1]
        assert choices[2] == f"Eve {DASH} Fay, 1 ply"  # no result known: no "*" shown
        page.screenshot(path=screenshot_path(request, "-list"))
        page.locator("#source-list .choose-game").nth(1).click()
        page.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 4")
        assert mainline(page) == ["f3", "e5", "g4", "Qh4#"]
        press(page, "End")
        assert page.locator("#position-status").inner_text() == "Checkmate: Black wins"
        assert page.locator("#source-list").is_hidden()

        paste(page, '[Event "x"]\n\n1. e4 e5 2. Nf9 *\n')
        page.wait_for_function("document.querySelector('#source-error').textContent.length > 0")
        assert "Nf9" in page.locator("#source-error").inner_text()
        assert mainline(page) == ["f3", "e5", "g4", "Qh4#"]  # the tree on view stays
    finally:
        context.close()


def test_a_game_links_to_its_analysis(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """A spectator has the link during the game; it opens the game's moves on the board."""
    created = create_game(server.url, opponent="friend", color="white")
    black_seat = api_join(server.url, created)
    for ply, uci in enumerate(("e2e4", "e7e5", "g1f3")):
        api_move(server.url, created["game"], (created["seat"], black_seat)[ply % 2], ply, uci)
    context = browser.new_context(viewport=DESKTOP)
    try:
        watcher = context.new_page()
        watcher.goto(server.url + created["links"]["watch"])
        link = watcher.locator("#analyse-link")
        link.wait_for(state="visible", timeout=WAIT_MS)
        link.click()
        watcher.wait_for_url(f"**/analysis/{created['game']}")
        wait_ready(watcher)
        watcher.wait_for_function("document.querySelectorAll('#tree .tree-move').length === 3")
        assert mainline(watcher) == ["e4", "e5", "Nf3"]
        assert current_san(watcher) == "Nf3"  # a game opens where it stands
        player = context.new_page()
        player.goto(server.url + created["links"]["private"])
        player.wait_for_function("document.querySelector('main.game')?.dataset.ply === '3'")
        assert player.locator("#analyse-link").is_hidden()  # no analysis of one's own game
    finally:
        context.close()


def test_the_lobby_links_to_the_analysis_board(browser: Any, server: LiveServer) -> None:
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        page.get_by_role("link", name="Analysis board").click()
        page.wait_for_url("**/analysis")
        wait_ready(page)
        assert dataset(page, "fen") == Board().fen()
    finally:
        context.close()
