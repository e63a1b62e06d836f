"""chesscore's refusals on the analysis board in the browser's language, in Chromium.

A French player pastes a FEN with a rank of nine squares into the analysis board and reads the
refusal in French; in the board editor a position without a white king is refused in French,
and a position whose checks no game could give is accepted with the French notice. A German
player pasting a PGN with an illegal move reads German naming the move. Screenshots go to
artifacts/.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import screenshot_path
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_browser_analysis import analyse_typed, dataset, open_analysis, paste, wait_ready
from tests.test_i18n_refusals import (
    ILLEGAL_KING_MOVE,
    IMPOSSIBLE_CHECKS,
    NINE_SQUARES,
    NO_WHITE_KING,
)

pytestmark = pytest.mark.browser

server = module_server("browser_i18n_refusals")
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def wait_text(page: Any, selector: str) -> str:
    page.wait_for_function(f"document.querySelector({selector!r}).textContent.length > 0")
    return str(page.locator(selector).inner_text())


def test_a_french_player_reads_the_fen_refusals_and_the_notice_in_french(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(locale="fr-FR", **DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, NINE_SQUARES)
        said = wait_text(page, "#source-error")
        assert said.startswith("FEN invalide"), said
        assert "la rangée 3 ('p8') compte 9 cases" in said, said
        page.screenshot(path=screenshot_path(request, "-pasted"), full_page=True)

        page.click("#open-editor")
        analyse_typed(page, NO_WHITE_KING)
        said = wait_text(page, "#editor-error")
        assert said.startswith("Refusé : position injouable"), said
        assert "rois blancs : 0 (il en faut exactement un)" in said, said
        page.screenshot(path=screenshot_path(request, "-editor"))

        analyse_typed(page, IMPOSSIBLE_CHECKS)
        page.wait_for_function("!document.querySelector('#analysis-view').hidden")
        wait_ready(page)
        assert dataset(page, "fen") == IMPOSSIBLE_CHECKS
        notice = page.locator("#notice").inner_text()
        assert notice.startswith("cette position ne peut pas survenir dans une partie"), notice
        page.screenshot(path=screenshot_path(request, "-notice"))
    finally:
        context.close()


def test_a_german_player_reads_the_illegal_move_of_a_pgn_in_german(
    browser: Any, server: LiveServer, request: pytest.FixtureRequest
) -> None:
    context = browser.new_context(locale="de-DE", **DESKTOP)
    try:
        page = open_analysis(context, server.url + "/analysis")
        paste(page, ILLEGAL_KING_MOVE)
        said = wait_text(page, "#source-error")
        assert said.startswith("Zeile 3: 2. 'Ke3': unzulässiger SAN-Zug 'Ke3'"), said
        page.screenshot(path=screenshot_path(request, "_de"), full_page=True)
    finally:
        context.close()
