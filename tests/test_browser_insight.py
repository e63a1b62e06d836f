"""Threat insight on the page (issue 7) shows exactly what chesscore computes.

Each game starts from a known FEN. A player's page picks up a piece and must mark each
destination as `chesscore.analysis.see.classify_destinations` labels it; holding the piece over a
destination must show the counts of `threat_map()` of the position after that move (asked of
the server with `preview`); after a fork, a discovered attack and a pin the side panel and the
board must show exactly the facts of `chesscore.analysis.insight.describe_change` (read by
square name, through the wire form); focusing a square must give it chesscore's words
(`describe_square`); the annotated PGN must carry `[%csl`. An unassisted game (made in the
lobby) keeps the overlays from its player but not from a spectator.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from chesscore import Board, Move
from chesscore.analysis.describe import describe_square
from chesscore.analysis.insight import describe_change
from server.threats.wire import change_json
from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.safety import safety_by_name
from tests.support.server_fixture import module_server
from tests.test_browser_support import (
    WAIT_MS,
    click_square,
    create_game,
    open_game,
    play_by_clicks,
    square_center,
    wait_connected,
    wait_for_board_at_rest,
    wait_for_ply,
)
from tests.test_browser_threats import expected_overlay, read_overlay

pytestmark = pytest.mark.browser

# White's knight on g5 can fork the queen on d8 and the rook on h8 from f7, where the bishop on
# c4 keeps the king from taking it.
FORK_FEN = "3qk2r/8/8/6N1/2B5/8/8/4K3 w - - 0 1"
# 1. Bd3 uncovers the rook's attack on the queen (and pins it); 3. Ba4 pins the knight.
LINES_FEN = "4k3/4q3/2n5/8/8/8/4B3/3BR1K1 w - - 0 1"
LINES_MOVES = ("e2d3", "e7e6", "d1a4")
CHANGE_BRUSH_COLORS = {"newAttack": "#15781b", "discovered": "#003088", "fork": "#882020"}


server = module_server("insight")


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, accept_downloads=True)
    yield context
    context.close()


def safety_marks(page: Any) -> dict[str, str]:
    """square -> 'safe' / 'contested' / 'losing', read from the classes on the board's squares."""
    wait_for_board_at_rest(page)
    # chessground keeps spare square elements hidden rather than removing them.
    marks = page.locator("cg-board square[class*='safety-']").evaluate_all(
        "squares => squares.filter(s => s.style.display !== 'none')"
        "  .map(s => [s.cgKey, s.className.match(/safety-(\\w+)/)[1]])"
    )
    return dict(marks)


def legend_lines(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#change-legend li").all_inner_texts()]


def arrows_by_color(page: Any, color: str) -> int:
    return int(page.locator(f".cg-wrap svg.cg-shapes line[stroke='{color}']").count())


def expected_lines(change: dict[str, Any]) -> list[str]:
    """The legend the page must write for a change shown with both colours, in its order."""
    discovered = {(a["from"], a["to"]) for a in change["discovered"]}
    lines = [
        f"New attack: {a['from']} on {a['to']}"
        for a in change["new_attacks"]
        if (a["from"], a["to"]) not in discovered
    ]
    lines += [f"Discovered attack: {a['from']} on {a['to']}" for a in change["discovered"]]
    lines += [f"Fork: {f['from']} attacks {' and '.join(f['targets'])}" for f in change["forks"]]
    lines += [
        f"Pin created: {p['pinner']} pins {p['pinned']} to {p['target']}"
        for p in change["pins_created"]
    ]
    lines += [
        f"Pin released: {p['pinner']} no longer pins {p['pinned']}" for p in change["pins_released"]
    ]
    lines += [f"Now hanging: {square}" for square in change["became_hanging"]]
    lines += [f"No longer hanging: {square}" for square in change["no_longer_hanging"]]
    return lines


def test_safety_preview_fork_describe_and_annotated_pgn(
    context: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(server.url, opponent="friend", color="white", fen=FORK_FEN)
    page = open_game(context, server.url + created["links"]["private"])
    page.get_by_role("button", name="Both").click()
    page.get_by_role("button", name="Every square").click()
    board = Board.from_fen(FORK_FEN)

    click_square(page, "g5")
    assert safety_marks(page) == safety_by_name(board)["g5"]
    click_square(page, "a1")  # an empty square: the knight is put down, its marks go
    assert safety_marks(page) == {}

    # Hold the knight over f7, then over e6: the overlay shows each position after the move.
    page.mouse.move(*square_center(page, "g5"))
    page.mouse.down()
    for target in ("f7", "e6"):
        page.mouse.move(*square_center(page, target), steps=6)
        page.wait_for_function(
            f"document.querySelector('main.game').dataset.preview === 'g5{target}'",
            timeout=WAIT_MS,
        )
        after = board.copy()
        after.push(Move.from_uci(f"g5{target}"))
        assert read_overlay(page) == expected_overlay(after.fen(), ("white", "black"), False)
        if target == "f7":
            page.screenshot(path=screenshot_path(request, "-preview"))
    page.mouse.move(*square_center(page, "g5"), steps=6)
    page.mouse.up()
    page.wait_for_function("document.querySelector('main.game').dataset.preview === ''")
    assert read_overlay(page) == expected_overlay(FORK_FEN, ("white", "black"))

    play_by_clicks(page, "g5f7")
    wait_for_ply(page, 1)
    change = change_json(describe_change(board, Move.from_uci("g5f7")))
    board.push(Move.from_uci("g5f7"))
    assert legend_lines(page) == expected_lines(change)
    targets = sum(len(fork["targets"]) for fork in change["forks"])
    assert targets == 2 and arrows_by_color(page, CHANGE_BRUSH_COLORS["fork"]) == targets
    wait_for_board_at_rest(page)  # the knight drawn on f7, not on its way there
    page.screenshot(path=screenshot_path(request, "-fork"))

    # Focus d8, then the arrow keys move the focus (white at the bottom): up is off the board.
    page.locator(".square-cell[data-square='d8']").focus()
    for key, square in (("", "d8"), ("ArrowUp", "d8"), ("ArrowDown", "d7"), ("ArrowRight", "e7")):
        if key:
            page.keyboard.press(key)
        page.wait_for_function(
            f"document.activeElement.dataset.square === '{square}'"
            " && document.activeElement.dataset.description !== undefined",
            timeout=WAIT_MS,
        )
        assert page.locator("#square-description").inner_text() == describe_square(board, square)

    with page.expect_download() as download:
        page.get_by_role("button", name="Download annotated PGN").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "[%csl" in text and '[Annotator "chesscore threat map"]' in text
    expected = requests.get(
        f"{server.url}/api/games/{created['game']}/pgn?annotated=1", timeout=10
    ).text
    assert text == expected


def test_discovered_attack_and_pins_as_they_happen(
    context: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """A spectator sees each move's change; pin lines are drawn pinner -> pinned -> target."""
    created = create_game(server.url, opponent="friend", color="white", fen=LINES_FEN)
    game, seats = created["game"], {"white": created["seat"]}
    seats["black"] = api_join(server.url, created)
    page = open_game(context, server.url + created["links"]["watch"])
    page.get_by_role("button", name="Both").click()
    page.get_by_role("button", name="Every square").click()
    board = Board.from_fen(LINES_FEN)
    for ply, uci in enumerate(LINES_MOVES):
        api_move(server.url, game, seats["white" if ply % 2 == 0 else "black"], ply, uci)
        change = change_json(describe_change(board, Move.from_uci(uci)))
        board.push(Move.from_uci(uci))
        wait_for_ply(page, ply + 1)
        assert legend_lines(page) == expected_lines(change)
        discovered = len(change["discovered"])
        assert arrows_by_color(page, CHANGE_BRUSH_COLORS["discovered"]) == discovered
        if ply == 0:
            assert discovered == 1 and change["pins_created"]
    # Both pins are absolute (to the king): two solid lines each, pinner -> pinned -> target.
    assert page.locator(".cg-wrap svg.cg-shapes line[stroke='#d4a000']").count() == 4
    page.screenshot(path=screenshot_path(request))


def test_unassisted_game_hides_overlays_from_players_not_spectators(
    context: Any, browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    page = context.new_page()
    page.goto(server.url + "/")
    page.get_by_label("Allow threat overlays for the players").uncheck()
    page.get_by_role("button", name="White").click()
    page.get_by_role("button", name="Play a friend").click()
    wait_connected(page)
    assert "Unassisted game" in page.locator("#assisted").inner_text()
    for name in ("Off", "My threats", "Opponent's threats", "Both"):
        assert page.get_by_role("button", name=name, exact=True).is_disabled()
    assert "unassisted" in page.locator("#overlay-note").inner_text()
    assert page.locator("#threat-grid").is_hidden()
    click_square(page, "g1")  # a piece picked up in an unassisted game gets no safety marks
    assert safety_marks(page) == {}

    spectator_context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        spectator = open_game(spectator_context, page.url)
        assert "Unassisted game" in spectator.locator("#assisted").inner_text()
        spectator.get_by_role("button", name="Both").click()
        spectator.get_by_role("button", name="Every square").click()
        assert read_overlay(spectator) == expected_overlay(Board().fen(), ("white", "black"))
        spectator.screenshot(path=screenshot_path(request, "-spectator"))
    finally:
        spectator_context.close()
    page.screenshot(path=screenshot_path(request, "-player"))
