"""A player's page (/@/<name>, issue 27) in Chromium, as a player who comes back sees it.

Two accounts are paired through rated quick pairing (tests/test_server_ratings.py's players)
and play fool's mate; the game is reviewed (our own engine: seconds); then they play a casual
rapid game that black resigns after one move. The page of fool's mate's loser shows its
provisional bullet rating with its graph, both games newest first with the opponent, result,
speed and opening, and the review link of the reviewed one, which leads to its review; the
"Wins" filter keeps only the won games. The winner's page on a phone shows the same games
without sideways scrolling. Screenshots at desktop and phone widths go to artifacts/.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import screenshot_path
from tests.support.game_client import WAIT_SECONDS
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import collect_errors
from tests.test_server_ratings import Player, paired, play

pytestmark = pytest.mark.browser

server = module_server("browser_profile", {"CHESS_TRUSTED_PROXIES": "1", "CHESS_STOCKFISH": "none"})
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
FOOLS_MATE = ("f2f3", "e7e5", "g2g4", "d8h4")
WAIT_MS = 60_000
REVIEW_SECONDS = 300.0


def review_of(player: Player, game: str) -> str:
    """The id of the game's review, once our engine has done it."""
    answer = player.http.post(
        f"{player.url}/api/reviews", json={"game": game}, timeout=WAIT_SECONDS
    )
    assert answer.status_code in (200, 201), answer.text
    review = str(answer.json()["id"])
    deadline = time.monotonic() + REVIEW_SECONDS
    while (
        player.http.get(f"{player.url}/api/reviews/{review}", timeout=WAIT_SECONDS).json()["status"]
        != "done"
    ):
        assert time.monotonic() < deadline, "the review did not end"
        time.sleep(0.5)
    return review


@pytest.fixture(scope="module")
def history(server: LiveServer) -> Iterator[dict[str, Any]]:
    """A rated fool's mate (reviewed), then a casual game black resigned; the loser of the
    first (white) is the player whose page is opened."""
    first, second = Player(server.url), Player(server.url)
    try:
        mate = paired(first, second, rated=True)
        white = mate["seats"]["white"][0]
        black = mate["seats"]["black"][0]
        play(mate, FOOLS_MATE)
        deadline = time.monotonic() + WAIT_SECONDS
        while white.ratings()["bullet"]["games"] == 0:  # rated just after the end
            assert time.monotonic() < deadline, "the game was not rated"
            time.sleep(0.2)
        review = review_of(white, mate["game"])
        casual = paired(white, black, rated=False, control="10+5")
        play(casual, ("e2e4",))
        loser: Player = casual["seats"]["black"][0]
        resigned = loser.lobby.call("resign", {"game": casual["game"]})
        assert resigned["ok"], resigned
        winner = casual["seats"]["white"][0]
        playing = paired(white, black, rated=False, control="5+3")  # left in play
        yield {
            "playing": playing["game"],
            "playing_color": "white" if playing["seats"]["white"][0] is white else "black",
            "white": white,
            "black": black,
            "mate": mate["game"],
            "review": review,
            "casual": casual["game"],
            "casual_winner": winner,
        }
    finally:
        first.close()
        second.close()


def open_profile(browser: Browser, url: str, viewport: dict[str, int]) -> tuple[Page, list[str]]:
    page = browser.new_page(viewport=viewport)  # type: ignore[arg-type]
    errors = collect_errors(page)
    page.goto(url)
    expect(page.locator(".profile-name")).to_be_visible(timeout=WAIT_MS)
    return page, errors


def test_the_profile_shows_the_games_and_the_review_link(
    server: LiveServer, browser: Browser, history: dict[str, Any], request: pytest.FixtureRequest
) -> None:
    white: Player = history["white"]
    page, errors = open_profile(browser, f"{server.url}/@/{white.name}", DESKTOP)
    expect(page.locator(".profile-name")).to_have_text(white.name)
    rows = page.locator(".game-row")
    expect(rows).to_have_count(2)
    newest, mate = rows.nth(0), rows.nth(1)
    expect(newest).to_have_attribute("data-game", history["casual"])
    expect(mate).to_have_attribute("data-game", history["mate"])
    expect(mate.locator(".game-result")).to_have_text("Lost")
    expect(mate.locator(".game-opponent")).to_have_text(history["black"].name)
    expect(mate.locator(".game-meta")).to_contain_text("1+0 · Bullet · Rated")
    expect(mate.locator(".game-opening")).not_to_be_empty()
    expect(newest.locator(".game-meta")).to_contain_text("10+5 · Rapid")
    expect(newest.locator(".game-review")).to_have_count(0)
    casual_won = history["casual_winner"] is white
    expect(newest.locator(".game-result")).to_have_text("Won" if casual_won else "Lost")
    counts = page.locator("#profile-counts")
    expect(counts).to_contain_text("2 games")
    expect(page.locator(".rating[data-speed='bullet'] .rating-games")).to_have_text("1 rated game")
    expect(page.locator(".rating[data-speed='bullet'] .rating-value")).to_contain_text("?")
    page.wait_for_function("window.ratingGraph && window.ratingGraph.data.datasets.length === 1")
    # One rated bullet game: a line from the rating it started at (1500) to the one it gave.
    bullet = page.evaluate("window.ratingGraph.data.datasets[0].data.map((point) => point.y)")
    assert len(bullet) == 2 and bullet[0] == 1500 and bullet[1] < 1500
    page.screenshot(path=screenshot_path(request, "-desktop"), full_page=True)

    page.locator(".filter-tabs a", has_text="Wins").click()
    expect(page).to_have_url(f"{server.url}/@/{white.name}?result=win")
    expect(page.locator(".game-row")).to_have_count(1 if casual_won else 0)

    page.go_back()
    page.locator(f".game-row[data-game='{history['mate']}'] .game-review").click()
    expect(page).to_have_url(f"{server.url}/review/{history['review']}")
    expect(page.locator("#review")).to_have_attribute("data-status", "done", timeout=WAIT_MS)
    assert errors == []


def test_the_profile_on_a_phone(
    server: LiveServer, browser: Browser, history: dict[str, Any], request: pytest.FixtureRequest
) -> None:
    black: Player = history["black"]
    page, errors = open_profile(browser, f"{server.url}/@/{black.name.upper()}", PHONE)
    # Any spelling finds the player, and the address then shows the name as it was chosen.
    expect(page).to_have_url(f"{server.url}/@/{black.name}")
    expect(page.locator(".game-row")).to_have_count(2)
    review = page.locator(f".game-row[data-game='{history['mate']}'] .game-review")
    expect(review).to_be_visible()
    expect(page.locator(f".game-row[data-game='{history['mate']}'] .game-result")).to_have_text(
        "Won"
    )
    page.wait_for_function("window.ratingGraph !== undefined")
    sideways = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert sideways <= 0, f"the phone's page scrolls {sideways} px sideways"
    page.screenshot(path=screenshot_path(request, "-phone"), full_page=True)
    assert errors == []


def test_a_signed_in_player_finds_its_games_in_the_lobby_of_another_browser(
    server: LiveServer, browser: Browser, history: dict[str, Any], request: pytest.FixtureRequest
) -> None:
    """'Your games' on a browser that never played them: the account's game in play, opened in
    the account's seat, its finished games and the link to its page."""
    white: Player = history["white"]
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    host = server.url.split("//", 1)[1].split(":", 1)[0]
    cookie = white.http.cookies["session"]
    context.add_cookies([{"name": "session", "value": cookie, "domain": host, "path": "/"}])
    page = context.new_page()
    errors = collect_errors(page)
    page.goto(server.url + "/")
    game = page.locator(f"#my-games a[href='/game/{history['playing']}']")
    expect(game).to_contain_text(f"{history['playing_color']} against {history['black'].name}")
    expect(page.locator("#no-games")).to_be_hidden()
    expect(page.locator("#account-finished li")).to_have_count(2)
    expect(page.locator("#account-finished li").nth(1)).to_contain_text("reviewed")
    expect(page.locator("#my-profile")).to_have_attribute("href", f"/@/{white.name}")
    page.locator(".my-games").scroll_into_view_if_needed()
    page.screenshot(path=screenshot_path(request, "-lobby"))
    game.click()
    expect(page.locator("#role")).to_have_text(
        f"You play {history['playing_color']}", timeout=WAIT_MS
    )
    assert errors == []
    context.close()
