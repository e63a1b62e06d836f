"""The game page as a lichess player expects it (issue 19): player strips with names, clocks,
material and presence; premoves; sounds and their mute switch; the layout at desktop, tablet
and phone widths (screenshots in artifacts/); and the defects the issue lists, each checked:
overlay layers aligned with the board on a phone, "Copied" clearing, spectators' labels, a
move tried while looking at history, typed moves in a player's words, readable coordinates
and the calm overlay density."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from chesscore import Board, square_name
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import make_xray_map
from tests.conftest import screenshot_path
from tests.support.game_client import api_join, api_move
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import (
    click_square,
    create_game,
    misplaced_layers,
    move_list,
    open_game,
    play_by_clicks,
    server_state,
    square_center,
    wait_for_ply,
)
from tests.test_browser_threats import read_overlay

pytestmark = pytest.mark.browser

server = module_server("gamepage")

DESKTOP = {"viewport": {"width": 1366, "height": 768}}
TABLET = {"viewport": {"width": 820, "height": 1180}, "has_touch": True}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 3,
}
# Records which sound each play() was for, instead of playing it.
SOUND_SPY = """
window.__sounds = [];
HTMLMediaElement.prototype.play = function () {
  window.__sounds.push(this.dataset.sound);
  return Promise.resolve();
};
"""


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """Make contexts with `make(**options)`; all are closed after the test."""
    made: list[Any] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(**(options or DESKTOP))
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def friend_game(url: str, **body: Any) -> tuple[dict[str, Any], str]:
    """A game against a friend, white's creation and black's seat token."""
    created = create_game(url, opponent="friend", color="white", **body)
    return created, api_join(url, created)


def sounds(page: Any) -> list[str]:
    return list(page.evaluate("window.__sounds"))


def test_layouts_strips_and_clocks(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """Desktop: the move list beside the board; tablet and phone: one column; everywhere both
    strips (name, clock) in view while playing."""
    created = create_game(
        server.url, opponent="computer", color="white", level=1, clock={"minutes": 5}
    )
    for name, options in (("desktop", DESKTOP), ("tablet", TABLET), ("phone", PHONE)):
        page = open_game(contexts(**options), server.url + created["links"]["private"])
        if name == "desktop":
            play_by_clicks(page, "e2e4")
            wait_for_ply(page, 2)
            play_by_clicks(page, "d2d4")
            wait_for_ply(page, 4)
        height = options["viewport"]["height"]
        board = page.locator("cg-board").bounding_box()
        for color in ("white", "black"):
            strip = page.locator(f"#strip-{color}").bounding_box()
            assert strip["y"] >= 0 and strip["y"] + strip["height"] <= height, (name, color)
            expect(page.locator(f"#clock-{color}")).to_be_visible()
        top = page.locator("#strip-black").bounding_box()
        bottom = page.locator("#strip-white").bounding_box()
        assert top["y"] + top["height"] <= board["y"] + 1 <= bottom["y"] + 1
        assert page.locator("#strip-black .player-name").inner_text() == "Computer (level 1)"
        assert page.locator("#strip-white .player-name").inner_text() == "White"
        expect(page.locator("#strip-white .you")).to_be_visible()
        moves = page.locator(".move-box").bounding_box()
        if name == "desktop":
            assert moves["x"] >= board["x"] + board["width"]  # beside the board
            assert board["width"] >= 0.75 * (height - 2 * top["height"] - 50)
        else:
            assert moves["y"] >= board["y"] + board["height"]  # under it
            assert board["width"] >= options["viewport"]["width"] - 24
        assert page.evaluate("document.documentElement.scrollWidth") <= options["viewport"]["width"]
        page.screenshot(path=screenshot_path(request, f"-{name}"))


def test_phone_overlay_layers_take_the_boards_size(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    page = open_game(contexts(**PHONE), server.url + created["links"]["private"])
    page.get_by_role("button", name="Both").click()
    page.get_by_role("button", name="Every square").click()
    misplaced = misplaced_layers(page)
    assert misplaced == []
    assert page.locator("#threat-grid .threat-cell").count() == 64
    page.evaluate("window.scrollTo(0, 0)")  # the buttons' clicks scrolled the panel into view
    page.screenshot(path=screenshot_path(request))


def test_premoves_played_dropped_and_cancelled(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created, black_seat = friend_game(server.url)
    game = created["game"]
    white = open_game(contexts(), server.url + created["links"]["private"])
    # chessground keeps spare square elements, hidden: only the visible ones are drawn.
    premove = white.locator("cg-board square.current-premove:visible")
    root = white.locator("main.game")
    play_by_clicks(white, "e2e4")
    wait_for_ply(white, 1)

    # Not legal once black has moved (the pawn is blocked): dropped, and said so.
    play_by_clicks(white, "e4e5")
    expect(premove).to_have_count(2)
    expect(root).to_have_attribute("data-premove", "e4e5")  # the server holds it
    api_move(server.url, game, black_seat, 1, "e7e5")
    wait_for_ply(white, 2)
    expect(white.locator("#move-error")).to_contain_text(
        "Premove e4e5 not played: it is not legal in the new position"
    )
    expect(premove).to_have_count(0)

    # Legal on its turn: the server plays it the moment black has moved.
    play_by_clicks(white, "g1f3")
    wait_for_ply(white, 3)
    play_by_clicks(white, "f1c4")
    expect(premove).to_have_count(2)
    expect(root).to_have_attribute("data-premove", "f1c4")
    white.screenshot(path=screenshot_path(request, "-queued"))
    api_move(server.url, game, black_seat, 3, "b8c6")
    wait_for_ply(white, 5)
    assert move_list(white) == ["e4", "e5", "Nf3", "Nc6", "Bc4"]
    expect(premove).to_have_count(0)

    # Cancelled by a click elsewhere: not played.
    play_by_clicks(white, "d2d3")
    expect(root).to_have_attribute("data-premove", "d2d3")
    click_square(white, "h5")
    expect(premove).to_have_count(0)
    expect(root).to_have_attribute("data-premove", "")  # the server forgot it
    play_by_clicks(white, "d2d4")  # and by a right-click, as on lichess
    expect(root).to_have_attribute("data-premove", "d2d4")
    x, y = square_center(white, "a6")
    white.mouse.click(x, y, button="right")
    expect(premove).to_have_count(0)
    expect(root).to_have_attribute("data-premove", "")
    api_move(server.url, game, black_seat, 5, "g8f6")
    wait_for_ply(white, 6)
    white.wait_for_timeout(300)
    assert server_state(server.url, game)["ply"] == 6
    white.screenshot(path=screenshot_path(request))


def test_sounds_play_and_mute(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created, black_seat = friend_game(server.url)
    white_context, black_context = contexts(), contexts()
    for context in (white_context, black_context):
        context.add_init_script(SOUND_SPY)
    white = open_game(white_context, server.url + created["links"]["private"])
    black = open_game(black_context, f"{server.url}/game/{created['game']}?seat={black_seat}")
    play_by_clicks(white, "e2e4")
    wait_for_ply(black, 1)
    play_by_clicks(black, "d7d5")
    wait_for_ply(white, 2)
    play_by_clicks(white, "e4d5")
    wait_for_ply(black, 3)
    assert sounds(white) == sounds(black) == ["move", "move", "capture"]

    black.get_by_role("button", name="Sound").click()  # mute, remembered by the browser
    expect(black.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "false")
    black.reload()
    expect(black.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "false")
    black.wait_for_function("document.querySelector('main.game').dataset.ply === '3'")
    play_by_clicks(black, "e7e6")
    wait_for_ply(white, 4)
    play_by_clicks(white, "f1b5")
    wait_for_ply(black, 5)
    assert sounds(white)[-2:] == ["move", "check"]
    black.wait_for_timeout(200)
    assert sounds(black) == []  # muted (the reload emptied its record)
    black.get_by_role("button", name="Sound").click()
    black.get_by_role("button", name="Resign").click()
    black.get_by_role("button", name="Yes, resign").click()
    white.wait_for_function("window.__sounds.at(-1) === 'end'")
    black.wait_for_function("window.__sounds.at(-1) === 'end'")
    white.screenshot(path=screenshot_path(request))


def test_low_time_sounds_on_the_players_own_clock(contexts: Any, server: LiveServer) -> None:
    created, black_seat = friend_game(server.url, clock={"minutes": 0.1})  # 6 s each
    context = contexts()
    context.add_init_script(SOUND_SPY)
    white = open_game(context, server.url + created["links"]["private"])
    play_by_clicks(white, "e2e4")
    wait_for_ply(white, 1)
    api_move(server.url, created["game"], black_seat, 1, "e7e5")
    wait_for_ply(white, 2)  # white's clock runs now: low under 5 s
    white.wait_for_function("window.__sounds.includes('lowtime')")
    expect(white.locator("#clock-white")).to_have_class(re.compile(r"\blow\b"))
    white.wait_for_function("window.__sounds.at(-1) === 'end'")
    heard = sounds(white)
    assert heard.index("lowtime") < heard.index("end"), heard  # the warning came first


def test_spectators_see_colours_and_names(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    created, _ = friend_game(server.url)
    white = open_game(contexts(), server.url + created["links"]["private"])
    spectator = open_game(contexts(), server.url + created["links"]["watch"])
    for name in ("White's threats", "Black's threats"):
        expect(spectator.get_by_role("button", name=name)).to_be_visible()
    expect(spectator.get_by_role("button", name="My threats")).to_have_count(0)
    assert spectator.locator("#strip-white .player-name").inner_text() == "White"
    assert spectator.locator("#strip-black .player-name").inner_text() == "Black"
    expect(spectator.locator(".strip .you:visible")).to_have_count(0)
    # White is here; black took the seat over HTTP and never connected.
    expect(spectator.locator("#strip-white .presence")).to_have_attribute("data-connected", "true")
    expect(spectator.locator("#strip-black .presence")).to_have_attribute("data-connected", "false")
    white.close()
    expect(spectator.locator("#strip-white .presence")).to_have_attribute("data-connected", "false")
    # Strips follow the board: flipped, White's is on top.
    assert spectator.locator("#strip-white").get_attribute("data-position") == "bottom"
    spectator.get_by_role("button", name="Flip the board").click()
    expect(spectator.locator("#strip-white")).to_have_attribute("data-position", "top")
    board = spectator.locator("cg-board").bounding_box()
    assert spectator.locator("#strip-white").bounding_box()["y"] < board["y"]
    spectator.get_by_role("button", name="White's threats").click()
    spectator.evaluate("window.scrollTo(0, 0)")
    spectator.screenshot(path=screenshot_path(request))


def test_a_move_tried_in_history_goes_back_to_the_game(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The choice: touching the board while looking at an earlier position jumps back to the
    present, says so, and the same touch picks the piece up."""
    created, black_seat = friend_game(server.url)
    white = open_game(contexts(), server.url + created["links"]["private"])
    play_by_clicks(white, "e2e4")
    wait_for_ply(white, 1)
    api_move(server.url, created["game"], black_seat, 1, "e7e5")
    wait_for_ply(white, 2)
    white.get_by_role("button", name="First position").click()
    expect(white.locator("main.game")).to_have_attribute("data-view-ply", "0")
    expect(white.locator("#history-note")).to_contain_text("Touch the board")
    click_square(white, "g1")
    expect(white.locator("main.game")).to_have_attribute("data-view-ply", "2")
    expect(white.locator("#move-error")).to_contain_text("Back to the game")
    click_square(white, "f3")
    wait_for_ply(white, 3)
    assert move_list(white) == ["e4", "e5", "Nf3"]
    white.screenshot(path=screenshot_path(request))


def test_typed_moves_in_a_players_words(contexts: Any, server: LiveServer) -> None:
    fen = "rnbqkbnr/ppp1pppp/8/8/2p5/1P2K3/P1PPPPPP/RNBQ1BNR w kq - 0 1"
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    page = open_game(contexts(), server.url + created["links"]["private"])
    page.get_by_label("Type a move").fill("Kd4")
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page.locator("#move-error")).to_have_text(
        "Kd4 is not legal here: the king would be in check"
    )
    page.get_by_label("Type a move").fill("bc4")  # a lowercase pawn capture, as on lichess
    page.get_by_role("button", name="Play", exact=True).click()
    wait_for_ply(page, 1)
    assert move_list(page) == ["bxc4"]


def test_copied_clears_after_a_few_seconds(browser: Any, server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    context = browser.new_context(**DESKTOP)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    try:
        page = open_game(context, server.url + created["links"]["private"])
        page.get_by_role("button", name="Copy FEN").click()
        expect(page.locator("#link-feedback")).to_contain_text("Copied: rnbqkbnr")
        expect(page.locator("#link-feedback")).to_have_text("")
    finally:
        context.close()


def test_coordinates_are_readable(contexts: Any, server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    for options in (DESKTOP, PHONE):
        page = open_game(contexts(**options), server.url + created["links"]["private"])
        styles = page.locator(".cg-wrap coords coord").evaluate_all(
            "coords => coords.map((c) => { const s = getComputedStyle(c);"
            " return [parseFloat(s.fontSize), s.fontWeight, getComputedStyle(c.parentNode)"
            ".opacity]; })"
        )
        assert len(styles) == 16
        for size, weight, opacity in styles:
            assert size >= 11 and int(weight) >= 700 and float(opacity) == 1


def test_calm_density_is_the_default(
    contexts: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """Counts only on squares both sides reach, unless the player asks for more."""
    fen = "3rk3/8/2n5/3R4/3N4/8/3Q4/4K3 w - - 0 1"
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    page = open_game(contexts(), server.url + created["links"]["private"])
    page.get_by_role("button", name="Both").click()
    expect(page.get_by_role("button", name="Contested squares")).to_have_attribute(
        "aria-pressed", "true"
    )
    board = Board.from_fen(fen)
    attackers = make_threat_map(board).attackers
    xrays = make_xray_map(board)
    contested = {
        square_name(sq)
        for sq in range(128)
        if not sq & 0x88
        and all(len(attackers[color][sq]) + len(xrays.of(color, sq)) > 0 for color in (0, 1))
    }
    shown = {square for square, counts in read_overlay(page).items() if any(counts)}
    assert shown == contested and contested
    page.screenshot(path=screenshot_path(request))
    page.get_by_role("button", name="On pieces").click()
    shown = {square for square, counts in read_overlay(page).items() if any(counts)}
    pieces = {square_name(sq) for sq in board.pieces()}
    assert shown <= pieces and shown


def test_names_are_text_never_markup(contexts: Any, server: LiveServer) -> None:
    """The strips write `players.<colour>.name` as text: a name that looks like markup is
    shown as typed and makes no element (the page's own strips module, in the real page)."""
    created = create_game(server.url, opponent="friend", color="white")
    page = open_game(contexts(), server.url + created["links"]["private"])
    name = '<img src=x onerror="window.__hacked = 1">Anna & <b>Bo</b>'
    shown = page.evaluate(
        """async (name) => {
            const { createStrips } = await import('/static/js/panel/strips.js');
            const strip = document.querySelector('#strip-black').cloneNode(true);
            const other = document.querySelector('#strip-white').cloneNode(true);
            const state = {
                fen: '8/8/8/8/8/8/8/K6k w - - 0 1', status: 'playing', turn: 'white',
                level: null,
                players: {
                    white: {kind: 'human', seated: true, connected: true, name: null},
                    black: {kind: 'human', seated: true, connected: false, name},
                },
            };
            createStrips({ white: other, black: strip }).render(state, 'white', 'white', state.fen);
            return [strip.querySelector('.player-name').textContent,
                    strip.querySelectorAll('.player-name *').length,
                    other.querySelector('.player-name').textContent];
        }""",
        name,
    )
    assert shown == [name, 0, "White"]
    assert page.evaluate("window.__hacked") is None
