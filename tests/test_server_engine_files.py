"""The analysis board's engine files and what the server says about them (issue 24), against a
real server: Stockfish's WebAssembly under /vendor/stockfish/ (only the lite builds, as
`application/wasm`, cached for a week, allowed to compile WebAssembly); the analysis page
cross-origin isolated and no other; chessops with its bare import made an address; the credits
page naming every front-end package with its version, and serving Stockfish's licence and the
link to its source.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import requests

from server.edge.credits import CREDITS, STOCKFISH_JS_TAG, STOCKFISH_TAG
from server.edge.headers import CONTENT_SECURITY_POLICY
from tests.support.game_client import create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("engine_files")

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "/vendor/stockfish/"
SERVED = [
    "stockfish-19-lite-single.js",
    "stockfish-19-lite-single.wasm",
    "stockfish-19-lite.js",
    "stockfish-19-lite.wasm",
]
NOT_SERVED = [
    "stockfish-19.wasm",
    "stockfish-19-single.wasm",
    "stockfish-19-asm.js",
    "stockfish.js",
]


def get(server: LiveServer, path: str) -> requests.Response:
    return requests.get(server.url + path, timeout=30)


@pytest.mark.parametrize("name", SERVED)
def test_the_lite_builds_are_served_cacheable_and_may_compile_webassembly(
    server: LiveServer, name: str
) -> None:
    response = get(server, ENGINE + name)
    assert response.status_code == 200
    expected = "application/wasm" if name.endswith(".wasm") else "text/javascript"
    assert response.headers["Content-Type"].startswith(expected)
    assert response.content == (ROOT / "node_modules/stockfish/bin" / name).read_bytes()
    cache = response.headers["Cache-Control"]
    assert "public" in cache and "max-age=604800" in cache and "no-cache" not in cache
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy
    assert "frame-ancestors 'none'" in policy  # the rest of the policy kept
    assert response.headers["Cross-Origin-Embedder-Policy"] == "credentialless"
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"


@pytest.mark.parametrize("name", [*NOT_SERVED, "../Copying.txt", "../package.json"])
def test_no_other_file_of_the_package_is_served(server: LiveServer, name: str) -> None:
    assert get(server, ENGINE + name).status_code == 404


def test_only_the_analysis_page_is_cross_origin_isolated(server: LiveServer) -> None:
    """The analysis pages send COOP and COEP and a policy that compiles no WebAssembly itself
    (its worker does); the lobby and a game page are not isolated."""
    game = create_game(server.url, opponent="friend", color="white")["game"]
    for path in ("/analysis", "/analysis?fen=8/8/8/8/8/8/8/K1k5%20w%20-%20-%200%201"):
        response = get(server, path)
        assert response.status_code == 200
        assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert response.headers["Cross-Origin-Embedder-Policy"] == "credentialless"
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "wasm-unsafe-eval" not in CONTENT_SECURITY_POLICY
        assert "worker-src 'self'" in CONTENT_SECURITY_POLICY
    for path in ("/", f"/game/{game}"):
        response = get(server, path)
        assert "Cross-Origin-Opener-Policy" not in response.headers
        assert "Cross-Origin-Embedder-Policy" not in response.headers


def test_chessops_is_served_with_its_bare_import_made_an_address(server: LiveServer) -> None:
    chess = get(server, "/vendor/chessops/chess.js")
    assert chess.status_code == 200
    assert chess.headers["Content-Type"].startswith("text/javascript")
    assert "from '/vendor/badrap-result/index.mjs'" in chess.text
    assert "'@badrap/result'" not in chess.text
    result = get(server, "/vendor/badrap-result/index.mjs")
    assert result.status_code == 200
    assert result.headers["Content-Type"].startswith("text/javascript")
    assert get(server, "/vendor/chessops/san.js").status_code == 200


def test_the_credits_name_every_front_end_package_at_its_installed_version(
    server: LiveServer,
) -> None:
    dependencies = json.loads((ROOT / "package.json").read_text())["dependencies"]
    credited = {credit.package: credit for credit in CREDITS}
    assert set(dependencies) <= set(credited)
    page = get(server, "/credits")
    assert page.status_code == 200
    for credit in CREDITS:
        installed = json.loads(
            (ROOT / "node_modules" / credit.package / "package.json").read_text()
        )
        assert credit.version == installed["version"], credit.package
        assert credit.licence == installed["license"], credit.package
        assert f'data-package="{credit.package}"' in page.text
        assert f'href="{credit.source}"' in page.text
    assert 'href="/credits/stockfish-licence"' in page.text
    assert f'href="{STOCKFISH_JS_TAG}"' in page.text and STOCKFISH_JS_TAG.endswith("/v19.0.0")
    assert f'href="{STOCKFISH_TAG}"' in page.text


def test_stockfish_licence_is_served_as_the_package_ships_it(server: LiveServer) -> None:
    response = get(server, "/credits/stockfish-licence")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    assert response.content == (ROOT / "node_modules/stockfish/Copying.txt").read_bytes()
    assert "GNU GENERAL PUBLIC LICENSE" in response.text and "Version 3" in response.text


def test_every_page_links_the_credits_from_its_footer(server: LiveServer) -> None:
    game = create_game(server.url, opponent="friend", color="white")["game"]
    for path in ("/", "/analysis", f"/game/{game}", "/credits"):
        page = get(server, path)
        assert '<footer class="site-footer"><a href="/credits">' in page.text, path
