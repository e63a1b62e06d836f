"""The threat overlay shows exactly what chesscore's threat map says.

For known positions (a pin, a check, hanging pieces) the test opens the game, turns the
overlay on and reads every square's numbers back from the page; they must equal the number of
white and black attackers that `chesscore.make_threat_map(Board.from_fen(fen))` lists (with its
x-ray attackers after a '+'), the marked squares must be its hanging pieces, and two arrows
(pinner -> pinned -> target) must be drawn for each pin line and one for each check. The
overlay modes and stepping back to an earlier position are checked the same way.
"""

from __future__ import annotations

from typing import Any

import pytest

from chesscore import SQUARES, Board, square_name
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import make_xray_map
from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import (
    board_pieces,
    create_game,
    open_game,
    pieces_of_fen,
    play_by_clicks,
    wait_for_ply,
)

pytestmark = pytest.mark.browser

POSITIONS = {
    # Black's queen on h4 pins f2 to the white king (absolute) and h2 to the rook h1 (relative);
    # white's bishop on c4 eyes f7.
    "pin": "rnb1kbnr/pppp1ppp/8/4p3/2B1P2q/3P4/PPP2PPP/RNBQK1NR w KQkq - 1 4",
    # White is in check from the bishop on b4, which nothing defends.
    "check": "r1bqk1nr/pppp1ppp/2n5/4p3/1b1PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 4",
    # Rooks, knights and a queen on crossing lines: counts above one, an undefended knight.
    "crowded": "3rk3/8/2n5/3R4/3N4/8/3Q4/4K3 w - - 0 1",
}


server = module_server("threats")


def read_overlay(page: Any) -> dict[str, tuple[str, str]]:
    """square -> (white number shown, black number shown); '' where no number is shown."""
    cells = page.evaluate(
        """() => {
            const shown = (count) => (count.hidden ? '' : count.textContent);
            return [...document.querySelectorAll('#threat-grid .threat-cell')].map((cell) => [
                cell.dataset.square,
                shown(cell.querySelector('.threat-count.white')),
                shown(cell.querySelector('.threat-count.black')),
            ]);
        }"""
    )
    return {square: (white, black) for square, white, black in cells}


def expected_overlay(
    fen: str, colors: tuple[str, ...], with_xrays: bool = True
) -> dict[str, tuple[str, str]]:
    """What each square should show: the direct attackers of chesscore's threat map, and after
    a '+' the x-ray attackers of its x-ray map (left out where the page has none, a preview)."""
    board = Board.from_fen(fen)
    attackers = make_threat_map(board).attackers
    xrays = make_xray_map(board)
    shown = {}
    for sq in SQUARES:
        counts = []
        for color, name in enumerate(("white", "black")):
            number = len(attackers[color][sq])
            behind = len(xrays.of(color, sq)) if with_xrays else 0
            text = f"{number}+{behind}" if behind else str(number)
            counts.append(text if name in colors and number + behind > 0 else "")
        shown[square_name(sq)] = (counts[0], counts[1])
    return shown


def marked_hanging(page: Any) -> set[str]:
    return set(
        page.locator("#threat-grid .threat-cell.hanging").evaluate_all(
            "cells => cells.map(c => c.dataset.square)"
        )
    )


@pytest.mark.parametrize("name", POSITIONS)
def test_overlay_counts_match_chesscore(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, name: str
) -> None:
    fen = POSITIONS[name]
    threats = make_threat_map(Board.from_fen(fen))
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        page = open_game(context, server.url + created["links"]["watch"])  # a spectator
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        overlay = read_overlay(page)
        assert len(overlay) == 64
        assert overlay == expected_overlay(fen, ("white", "black"))
        assert marked_hanging(page) == {square_name(sq) for sq in threats.hanging}
        arrows = page.locator(".cg-wrap svg.cg-shapes line").count()
        pin_lines = make_xray_map(Board.from_fen(fen)).pins
        assert arrows == 2 * len(pin_lines) + len(threats.checkers)
        for absolute, stroke, dashed in ((True, "#d4a000", False), (False, "#d4a001", True)):
            lines = page.locator(f".cg-wrap svg.cg-shapes line[stroke='{stroke}']")
            assert lines.count() == 2 * sum(pin.absolute == absolute for pin in pin_lines)
            dashes = lines.evaluate_all("ls => ls.map(l => getComputedStyle(l).strokeDasharray)")
            assert all((dash != "none") == dashed for dash in dashes)
        page.screenshot(path=screenshot_path(request))

        # A spectator's modes are named by colour.
        page.get_by_role("button", name="White's threats").click()
        assert read_overlay(page) == expected_overlay(fen, ("white",))
        page.get_by_role("button", name="Black's threats").click()
        assert read_overlay(page) == expected_overlay(fen, ("black",))
        page.get_by_role("button", name="Off").click()
        assert page.locator("#threat-grid").is_hidden()
    finally:
        context.close()


def test_overlay_follows_the_game_and_earlier_positions(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """After a move the overlay shows the new position; stepping back shows the old one's."""
    fen = POSITIONS["pin"]
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        page = open_game(context, server.url + created["links"]["private"])
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        play_by_clicks(page, "c4f7")
        wait_for_ply(page, 1)
        board = Board.from_fen(fen)
        board.push_uci("c4f7")
        assert read_overlay(page) == expected_overlay(board.fen(), ("white", "black"))
        page.get_by_role("button", name="Previous move").click()
        assert read_overlay(page) == expected_overlay(fen, ("white", "black"))
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()


def test_positions_from_before_the_page_opened_come_from_the_server(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """A spectator who arrives after three moves steps back to each of them: board and overlay."""
    created = create_game(server.url, opponent="friend", color="white")
    game, white_seat = created["game"], created["seat"]
    black_seat = api_join(server.url, created)
    board = Board()
    fens = [board.fen()]
    for ply, uci in enumerate(["e2e4", "d7d5", "f1b5"]):
        api_move(server.url, game, white_seat if ply % 2 == 0 else black_seat, ply, uci)
        board.push_uci(uci)
        fens.append(board.fen())
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    try:
        page = open_game(context, server.url + created["links"]["watch"])
        page.get_by_role("button", name="Both").click()
        page.get_by_role("button", name="Every square").click()
        for ply in (2, 1, 0):
            page.get_by_role("button", name="Previous move").click()
            page.wait_for_function(
                f"document.querySelector('main.game').dataset.viewPly === '{ply}'"
            )
            assert board_pieces(page) == pieces_of_fen(fens[ply])
            assert read_overlay(page) == expected_overlay(fens[ply], ("white", "black"))
        page.get_by_role("button", name="Next move").click()
        page.wait_for_function("document.querySelector('main.game').dataset.viewPly === '1'")
        assert page.locator("#moves button[aria-current='true']").inner_text() == "e4"
        page.screenshot(path=screenshot_path(request))
    finally:
        context.close()
