"""What every response tells the browser (server.edge.headers), and the PGN's Site from
configuration.

Against a real server: the pages, the API, the vendored packages and an error page all carry
the Content-Security-Policy and its companions; a page that plays a move in a real Chromium
under that policy reports no violation; a forged Host header never reaches a PGN.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from server import create_app
from server.edge.headers import SECURITY_HEADERS
from tests.conftest import screenshot_path
from tests.support.game_client import create_game
from tests.support.http import refused
from tests.support.in_process import IN_PROCESS
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_support import play_by_clicks

server = module_server("headers")

PUBLIC = "https://chess.example.org"


@pytest.fixture(scope="module")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(
        tmp_path_factory.mktemp("public") / "instance", env={"CHESS_PUBLIC_URL": PUBLIC + "/"}
    )
    live.start()
    yield live
    live.stop()


def paths(url: str) -> list[str]:
    game = create_game(url, opponent="friend", color="white")["game"]
    return [
        "/",
        f"/game/{game}",
        f"/api/games/{game}",
        f"/api/games/{game}/pgn",
        "/vendor/chessground/chessground.js",
        "/static/css/app.css",
        "/game/AAAAAAAAAAAA",  # 404 page
        "/api/nothing-here",  # 404 JSON
    ]


@pytest.mark.server
def test_every_response_carries_the_security_headers(server: LiveServer) -> None:
    for path in paths(server.url):
        response = requests.get(server.url + path, timeout=10)
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (path, name, response.headers)


@pytest.mark.server
def test_the_policy_allows_only_the_sites_own_scripts(server: LiveServer) -> None:
    policy = requests.get(server.url + "/", timeout=10).headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["style-src"] == "'self'"  # inline: style attributes only
    assert "unsafe-eval" not in policy


def pgn_site(url: str, host: str | None = None) -> tuple[str, str]:
    game = create_game(url, opponent="friend", color="white")["game"]
    headers = {"Host": host} if host else {}
    text = requests.get(f"{url}/api/games/{game}/pgn", headers=headers, timeout=10).text
    site = next(line for line in text.splitlines() if line.startswith("[Site "))
    return game, site


@pytest.mark.server
def test_a_forged_host_never_reaches_the_pgn(server: LiveServer) -> None:
    """Another Host is refused outright (server.edge.wsgi); the site's own names give
    the address the server listens on, whatever name was used."""
    game = create_game(server.url, opponent="friend", color="white")["game"]
    forged = requests.get(
        f"{server.url}/api/games/{game}/pgn", headers={"Host": "evil.example"}, timeout=10
    )
    refused(forged, 400, "bad_host", "evil.example")
    game, site = pgn_site(server.url, host=f"localhost:{server.port}")
    assert site == f'[Site "{server.url}/game/{game}"]'


@pytest.mark.server
def test_the_pgn_site_is_the_configured_public_address(public_server: LiveServer) -> None:
    game, site = pgn_site(public_server.url, host="chess.example.org")
    assert site == f'[Site "{PUBLIC}/game/{game}"]'


@pytest.mark.parametrize(
    "url", ['http://x.example/"]', "javascript:alert(1)", "http://x.example/a b", "ftp://x"]
)
def test_a_malformed_public_address_stops_the_start(tmp_path: Path, url: str) -> None:
    with pytest.raises(ValueError, match="CHESS_PUBLIC_URL"):
        create_app(IN_PROCESS | {"INSTANCE_PATH": str(tmp_path), "PUBLIC_URL": url})


@pytest.mark.browser
def test_a_game_runs_under_the_policy_without_a_violation(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """Chromium reports each refused script, style, image or socket on the console. The
    context enforces the policy (the other browser tests bypass it: Playwright's
    `wait_for_function` compiles its predicate with eval), so this test waits on selectors."""
    created = create_game(server.url, opponent="friend", color="white")
    context = browser.new_context(bypass_csp=False, viewport={"width": 1100, "height": 850})
    try:
        messages: list[str] = []
        context.on("console", lambda message: messages.append(message.text))
        page = context.new_page()
        page.goto(server.url + "/")
        # The lobby's modules ran: its socket is connected and the TV board (hidden while no
        # game is in play) was drawn.
        page.wait_for_selector("#lobby-connection[data-state='connected']")
        page.wait_for_selector("#tv-board piece", state="attached")
        page.close()
        page = context.new_page()
        page.goto(server.url + created["links"]["private"])
        page.wait_for_selector("#connection[data-state='connected']")
        page.wait_for_selector("main.game[data-ply='0']")
        play_by_clicks(page, "e2e4")
        page.wait_for_selector("main.game[data-ply='1']")
        for mode in page.locator("#overlay-modes button").all():
            mode.click()
            page.wait_for_selector("#board piece")
        page.screenshot(path=screenshot_path(request))
        violations = [text for text in messages if "Content Security Policy" in text]
        assert violations == []
    finally:
        context.close()
