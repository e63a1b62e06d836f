"""Strangers find a game on the lobby page, in real Chromium against a real server: two
visitors paired through quick pairing land on the same game with opposite colours; a challenge
appears and vanishes live in a third visitor's list (cancelled, its creator gone, taken); names
are refused when they could be markup and shown as text; the TV shows a live game and moves on
when it ends. Desktop and phone screenshots go to artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.lobby_client import LobbyClient
from tests.support.server_fixture import module_server
from tests.test_browser_support import wait_connected

pytestmark = pytest.mark.browser

server = module_server("seeks")

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}


def open_lobby(context: Any, server: LiveServer, name: str | None = None) -> Any:
    page = context.new_page()
    page.goto(server.url + "/")
    expect(page.locator("#lobby-connection")).to_have_attribute("data-state", "connected")
    if name is not None:
        page.get_by_label("Your name").fill(name)
    return page


def seek_rows(page: Any) -> Any:
    return page.locator("#seek-list tr")


def test_two_strangers_are_paired_through_quick_pairing(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    first_context, second_context = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    try:
        first = open_lobby(first_context, server, "Alice")
        second = open_lobby(second_context, server, "Bob")
        first.get_by_role("button", name="Quick pairing 3 min + 2 s").click()
        expect(first.locator("#pair-status")).to_have_text("Waiting for an opponent at 3+2…")
        first.screenshot(path=screenshot_path(request, "-waiting"))
        second.screenshot(path=screenshot_path(request, "-phone-lobby"), full_page=True)
        second.get_by_role("button", name="Quick pairing 3 min + 2 s").click()
        for page in (first, second):
            page.wait_for_url("**/game/*")
            wait_connected(page)
        games = {page.locator("main.game").get_attribute("data-game") for page in (first, second)}
        assert len(games) == 1
        assert "?seat=" not in first.url and "?seat=" not in second.url
        roles = {first.locator("#role").inner_text(), second.locator("#role").inner_text()}
        assert roles == {"You play white", "You play black"}
        first.screenshot(path=screenshot_path(request, "-desktop-game"))
        second.screenshot(path=screenshot_path(request, "-phone-game"), full_page=True)
        # Back on the lobby, each finds the game among its own, against the other by name.
        first.get_by_role("link", name="Chess").click()
        expect(first.locator("#my-games a").first).to_contain_text("against Bob")
    finally:
        first_context.close()
        second_context.close()


def test_a_challenge_appears_and_vanishes_live(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    contexts = [browser.new_context(**DESKTOP) for _ in range(2)] + [browser.new_context(**PHONE)]
    try:
        creator = open_lobby(contexts[0], server, "Carla 1")
        taker = open_lobby(contexts[1], server, "Dmitri")
        onlooker = open_lobby(contexts[2], server)
        expect(seek_rows(onlooker)).to_have_count(0)

        creator.get_by_label("Time control").select_option("10+5")
        creator.get_by_label("Your side").select_option("white")
        creator.get_by_role("button", name="Create challenge").click()
        expect(seek_rows(onlooker)).to_have_count(1)
        expect(seek_rows(onlooker).first).to_contain_text("Carla 1")
        expect(seek_rows(onlooker).first).to_contain_text("10+5")
        expect(seek_rows(onlooker).first).to_contain_text("White")
        expect(creator.get_by_role("button", name="Cancel your challenge")).to_be_visible()
        creator.screenshot(path=screenshot_path(request, "-desktop"))
        onlooker.screenshot(path=screenshot_path(request, "-phone"), full_page=True)

        creator.get_by_role("button", name="Cancel your challenge").click()
        expect(seek_rows(onlooker)).to_have_count(0)

        creator.get_by_role("button", name="Create challenge").click()
        expect(seek_rows(onlooker)).to_have_count(1)
        creator.close()  # its creator leaves: the challenge goes with it
        expect(seek_rows(onlooker)).to_have_count(0)

        creator = open_lobby(contexts[0], server, "Carla 1")
        creator.get_by_label("Your side").select_option("black")
        creator.get_by_role("button", name="Create challenge").click()
        expect(seek_rows(onlooker)).to_have_count(1)
        taker.get_by_role("button", name="Join the challenge of Carla 1").click()
        expect(seek_rows(onlooker)).to_have_count(0)
        for page in (creator, taker):
            page.wait_for_url("**/game/*")
            wait_connected(page)
        assert creator.locator("#role").inner_text() == "You play black"
        assert taker.locator("#role").inner_text() == "You play white"
    finally:
        for context in contexts:
            context.close()


def test_names_that_could_be_markup_are_refused_and_names_are_text(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(**DESKTOP)
    other = LobbyClient(server.url)
    try:
        page = open_lobby(context, server, "Eve_2")
        page.get_by_label("Your name").fill("<b>x</b>")
        expect(page.locator("#name-error")).to_contain_text("1 to 20 letters")
        assert page.evaluate("localStorage.getItem('chess.name')") == "Eve_2"
        # The server refuses it too, whoever sends it.
        refused = other.call("seek", {"name": "<b>x</b>"})
        assert refused["code"] == "bad_request" and "display name" in refused["error"]
        # The name kept is the one used, and it is shown as text.
        page.get_by_role("button", name="Create challenge").click()
        name_cell = page.locator("#seek-list .seek-name")
        expect(name_cell).to_have_text("Eve_2")
        assert name_cell.evaluate("cell => cell.children.length") == 0
        page.reload()
        assert page.get_by_label("Your name").input_value() == "Eve_2"
    finally:
        other.close()
        context.close()


def start_game(server: LiveServer, names: tuple[str, str]) -> tuple[str, dict[str, LobbyClient]]:
    """A quick-paired game between two socket visitors, each joined to its seat."""
    waiting, taking = LobbyClient(server.url), LobbyClient(server.url)
    assert not waiting.call("pair", {"control": "15+10", "name": names[0]})["paired"]
    done = taking.call("pair", {"control": "15+10", "name": names[1]})
    told = waiting.wait_message("paired")
    seats = {told["color"]: (waiting, told["seat"]), done["color"]: (taking, done["seat"])}
    for client, token in seats.values():
        client.join(done["game"], seat=token)
    return done["game"], {color: client for color, (client, _) in seats.items()}


def test_the_tv_shows_a_live_game_and_moves_on_when_it_ends(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    older, older_players = start_game(server, ("Olga", "Oscar"))
    game, players = start_game(server, ("Tal", "Petrosian"))
    clients = [*older_players.values(), *players.values()]
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    try:
        assert older_players["white"].move(older, 0, "d2d4")["ok"]
        assert players["white"].move(game, 0, "e2e4")["ok"]  # the latest move: on TV
        pages = [open_lobby(context, server) for context in contexts]
        for page in pages:
            expect(page.locator("#tv")).to_have_attribute("data-game", game)
            expect(page.locator("#tv")).to_have_attribute("data-ply", "1")
        assert players["black"].move(game, 1, "e7e5")["ok"]
        for page in pages:
            expect(page.locator("#tv")).to_have_attribute("data-ply", "2")
            for listed in (game, older):  # earlier tests' games may be listed too
                expect(page.locator(f"#watch-list li[data-game='{listed}']")).to_have_count(1)
        names = {
            pages[0].locator("#tv-top").inner_text(),
            pages[0].locator("#tv-bottom").inner_text(),
        }
        assert names == {"Tal", "Petrosian"}
        expect(pages[0].locator(f"#watch-list li[data-game='{game}']")).to_contain_text("1 move")
        pages[0].screenshot(path=screenshot_path(request, "-desktop"))
        pages[1].screenshot(path=screenshot_path(request, "-phone"), full_page=True)

        assert players["white"].call("resign", {"game": game})["ok"]
        for page in pages:
            expect(page.locator("#tv")).to_have_attribute("data-game", older)
            expect(page.locator("#tv")).to_have_attribute("data-ply", "1")
        assert older_players["black"].move(older, 1, "d7d5")["ok"]
        expect(pages[0].locator("#tv")).to_have_attribute("data-ply", "2")
    finally:
        for client in clients:
            client.close()
        for context in contexts:
            context.close()
