"""The site in the visitor's language, in Chromium (server.i18n, static/js/i18n.js).

A browser set to French gets the trainer in French: its page, the drill's question (the
server's), and the verdict and summary the page's script writes (static/js/i18n.js over the
embedded catalog); the picker in the footer switches the lobby to German at once and keeps it.
Then the lobby, a game, the analysis board, the trainer, the settings and the puzzles, in French
and in German, in the dark theme, on the desktop and on a phone, go to artifacts/ as
screenshots; on the way, the game's heading, the site menu, the preferences and a failed
puzzle's prompt and lesson are in the page's language. A reviewed game's page too (a server
of its own, reviewing with our engine at a small depth): the explanation of each judged move
is the one the server says in the page's language, with no English chess word left in it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_phone import PHONE
from tests.test_browser_puzzles import fail
from tests.test_browser_support import WAIT_MS, collect_errors, create_game, wait_connected
from tests.test_browser_train import answer_hanging_right, open_trainer
from tests.test_i18n_review import ENGLISH_WORDS

pytestmark = pytest.mark.browser

server = module_server("browser_i18n", {"CHESS_SIGNUP_BURST": "1000000"})
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LOCALES = {"fr": "fr-FR", "de": "de-DE"}
# What each page says in each language, checked on the way to its screenshot.
SAID = {
    "fr": {
        "menu": "Problèmes",
        "kind": "Amicale · ",
        "preferences": "Calque de menaces à l'ouverture d'une partie",
        "failed": "Faux : ",
        "missed": "Vous avez manqué ",
    },
    "de": {
        "menu": "Aufgaben",
        "kind": "Ungewertet · ",
        "preferences": "Bedrohungsebene beim Öffnen einer Partie",
        "failed": "Falsch: ",
        "missed": "Sie haben ",
    },
}


def html_lang(page: Any) -> str:
    return str(page.evaluate("document.documentElement.lang"))


def test_a_french_trainee_reads_the_drill_and_the_verdict_in_french(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(locale="fr-FR", **DESKTOP)
    try:
        page = context.new_page()
        errors = collect_errors(page)
        drill = open_trainer(page, server.url, "hanging")
        assert html_lang(page) == "fr"
        assert drill["question"].startswith("Cliquez sur chaque pièce en prise")
        assert page.locator("#train-question").inner_text() == drill["question"]
        assert page.locator("#train-submit").inner_text() == "Valider"
        answer_hanging_right(page, drill)
        assert page.locator("#train-verdict").inner_text().startswith("Juste !")
        summary = page.locator("#summary-line").inner_text()
        assert summary.startswith("1 exercice, 1 juste"), summary
        page.screenshot(path=screenshot_path(request, "_fr"))
        assert errors == []
    finally:
        context.close()


def test_the_footers_picker_switches_the_site_to_german_and_keeps_it(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(locale="fr-FR", **DESKTOP)
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        assert html_lang(page) == "fr"
        assert page.locator("#quick-title").inner_text() == "Appariement rapide"
        with page.expect_navigation():
            page.locator("#language-picker").select_option("de")
        assert html_lang(page) == "de"
        assert page.locator("#quick-title").inner_text() == "Schnellpaarung"
        page.goto(server.url + "/train")
        assert html_lang(page) == "de"
        assert page.locator("#language-picker").input_value() == "de"
    finally:
        context.close()


def sign_up(context: Any, url: str) -> None:
    name = f"p{secrets.token_hex(5)}"
    reply = context.request.post(
        url + "/api/account/signup",
        data={"name": name, "password": "correct horse battery"},
        headers={"Origin": url},
    )
    assert reply.status == 201, reply.text()


def shoot(page: Any, request: pytest.FixtureRequest, suffix: str) -> None:
    page.wait_for_timeout(300)  # the fonts and the board's last paint, for the picture only
    page.screenshot(path=screenshot_path(request, suffix), full_page=True)


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_screenshots_of_the_main_pages(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest, lang: str, device: str
) -> None:
    shape = DESKTOP if device == "desktop" else PHONE
    context = browser.new_context(locale=LOCALES[lang], **shape)
    said = SAID[lang]
    try:
        page = context.new_page()
        errors = collect_errors(page)
        dark = context.request.post(server.url + "/api/preferences", data={"theme": "dark"})
        assert dark.ok, dark.text()
        page.goto(server.url + "/")
        assert "theme-dark" in str(page.evaluate("document.documentElement.className"))
        assert page.locator("#menu-puzzles").text_content() == said["menu"]
        if device == "phone":  # the site menu folds behind one button: open, it must fit
            page.locator("#menu-toggle").click()
            page.locator("#menu-puzzles").wait_for(state="visible", timeout=WAIT_MS)
            shoot(page, request, "_menu")
            page.locator("#menu-toggle").click()
        page.wait_for_function(
            "document.querySelector('#lobby-connection').dataset.state === 'connected'",
            timeout=WAIT_MS,
        )
        assert html_lang(page) == lang
        shoot(page, request, "_lobby")

        created = create_game(server.url, opponent="friend", color="white")
        page.goto(server.url + created["links"]["private"])
        wait_connected(page)
        assert html_lang(page) == lang
        assert page.locator("#game-kind").inner_text().startswith(said["kind"])
        shoot(page, request, "_game")

        page.goto(server.url + "/analysis")
        page.wait_for_selector("cg-board", timeout=WAIT_MS)
        shoot(page, request, "_analysis")

        open_trainer(page, server.url, "hanging")
        shoot(page, request, "_train")

        sign_up(context, server.url)
        page.goto(server.url + "/account")
        assert html_lang(page) == lang
        assert said["preferences"] in page.locator("#preferences-form").inner_text()
        shoot(page, request, "_settings")

        page.goto(server.url + "/puzzles")
        fail(page, tap=device == "phone")
        assert page.locator("#puzzle-prompt").inner_text().startswith(said["failed"])
        assert page.locator("#puzzle-sentence").inner_text().startswith(said["missed"])
        shoot(page, request, "_puzzles")
        assert errors == []
    finally:
        context.close()


# The Blackburne Shilling trap: a piece and a pawn given, then the queen's raid and a mate.
TRAP_PGN = """[Event "Casual"]
[White "Anna"]
[Black "Ben"]
[Result "0-1"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1
"""
REVIEW_WAIT_MS = 420_000  # generous: the engine shares two cores with everything else


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server reviewing with our own engine at depth 3: a quick review, the same verdicts
    however loaded the machine (tests/test_server_review.py's setting)."""
    env = {
        "CHESS_REVIEW_SECONDS": "60",
        "CHESS_REVIEW_DEPTH": "3",
        "CHESS_STOCKFISH": "none",
        "CHESS_ENGINE_WORKERS": "2",
    }
    live = LiveServer(tmp_path_factory.mktemp("browser_i18n_review") / "instance", env=env)
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def trap_review(review_server: LiveServer) -> str:
    response = requests.post(review_server.url + "/api/reviews", json={"pgn": TRAP_PGN}, timeout=60)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


@pytest.mark.parametrize("device", ["desktop", "phone"])
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_screenshots_of_a_review(
    browser: Any,
    review_server: LiveServer,
    trap_review: str,
    request: pytest.FixtureRequest,
    lang: str,
    device: str,
) -> None:
    shape = DESKTOP if device == "desktop" else PHONE
    context = browser.new_context(locale=LOCALES[lang], **shape)
    try:
        page = context.new_page()
        errors = collect_errors(page)
        dark = context.request.post(review_server.url + "/api/preferences", data={"theme": "dark"})
        assert dark.ok, dark.text()
        page.goto(f"{review_server.url}/review/{trap_review}")
        assert html_lang(page) == lang
        page.wait_for_function(
            "document.querySelector('#review')?.dataset.status === 'done'", timeout=REVIEW_WAIT_MS
        )
        said = context.request.get(
            f"{review_server.url}/api/reviews/{trap_review}",
            headers={"Accept-Language": LOCALES[lang]},
        ).json()
        judged = [ply for ply in said["plies"] if ply["explanation"]]
        assert judged, said["plies"]
        for ply in judged:  # each judged move's explanation as the page shows it
            page.locator(f"#moves button.review-move[data-ply='{ply['ply']}']").click()
            text = page.locator("#advice-text").inner_text()
            assert text == ply["explanation"]["text"]
            assert ply["san"] in text and not ENGLISH_WORDS.search(text), text
            assert not re.search(r"\{\w+\}", text), text
        # The longest explanation on the picture.
        longest = max(judged, key=lambda ply: len(ply["explanation"]["text"]))
        page.locator(f"#moves button.review-move[data-ply='{longest['ply']}']").click()
        shoot(page, request, "_review")
        assert errors == []
    finally:
        context.close()
