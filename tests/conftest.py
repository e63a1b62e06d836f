"""Fixtures shared by every suite: a live server process and a real Chromium.

Test-module-specific fixtures live beside their tests; this file holds only what several
suites use. Screenshots and server logs go under `artifacts/` (named in .gitignore).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.chromium import LAUNCH_ARGS, find_chromium
from tests.support.live_server import LiveServer

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

# The suites create games far faster, and leave far more computer games in play, than one
# visitor of a public site may (server.shared.config: CREATE_BURST, MAX_COMPUTER_GAMES, the
# lobby's LOBBY_BURST and LOBBY_PER_ADDRESS; the work pool's WORK_BURST, 40 units refilled at
# one a second, which a module's quick analysis requests use up when the machine is idle; the
# review queue's drain-time bounds, which a depth-bound review setting of 60 s a position makes
# look hours long), all from 127.0.0.1: the servers they start (which inherit this environment)
# lift those limits, unless a test sets them itself (tests/test_server_engine_pool.py,
# test_server_lobby.py, test_server_offload.py, test_server_review.py and
# test_server_review_queue.py do); and sign-ups and password checks (CHESS_SIGNUP_BURST,
# CHESS_SIGNIN_BURST), one test account after another.
for _variable in (
    "CHESS_CREATE_BURST",
    "CHESS_MAX_COMPUTER_GAMES",
    "CHESS_LOBBY_BURST",
    "CHESS_LOBBY_PER_ADDRESS",
    "CHESS_WORK_BURST",
    "CHESS_REVIEW_QUEUE_SECONDS",
    "CHESS_REVIEW_ADDRESS_SECONDS",
    "CHESS_SIGNUP_BURST",
    "CHESS_SIGNIN_BURST",
):
    os.environ.setdefault(_variable, "1000000")

# Playwright's own bounds (5 s for an `expect`, 30 s for a wait or a page load) are speed
# requirements on a busy machine: at load 8 on 2 cores a page may take seconds to load and a
# pushed state seconds to show. These bounds only keep a broken page from hanging a test.
EXPECT_MS = 30_000
PAGE_MS = 60_000


# The modules that take minutes (reviews, engine searches on a few workers, the oracle over
# every opening line, the benchmarks' smoke runs). `make test` hands each module whole to one
# worker (--dist loadfile) in collection order, so these go first: started last, they would be
# the suite's tail, one worker busy while the others wait.
SLOW_MODULES = (
    "test_server_review.py",
    "test_browser_review.py",
    "test_server_engine_pool.py",
    "test_server_computer.py",
    "test_bench_smoke.py",
    "test_bench_review.py",
    "test_openings.py",
    "test_browser_analysis.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """SLOW_MODULES first, in that order; the rest as collected (a stable sort)."""

    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return SLOW_MODULES.index(name) if name in SLOW_MODULES else len(SLOW_MODULES)

    items.sort(key=rank)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh server process on 127.0.0.1 with its own instance folder."""
    server = LiveServer(instance_path=tmp_path / "instance").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One Chromium for the whole run (fails, never skips, when none can be found)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_MS)
    executable = find_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(executable), args=LAUNCH_ARGS)
        yield PolicyBypassingBrowser(chromium)
        chromium.close()


class PolicyBypassingBrowser:
    """The browser, whose contexts bypass the pages' Content-Security-Policy unless a test
    asks otherwise: Playwright's `wait_for_function` compiles its predicate with eval, which
    the policy rightly forbids. tests/test_server_headers.py runs the pages under the policy."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self.browser.new_context(**{"bypass_csp": True, **options})
        context.set_default_timeout(PAGE_MS)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


def screenshot_path(request: pytest.FixtureRequest, suffix: str = "") -> Path:
    """Where a test's screenshot goes: artifacts/screenshots/<test name><suffix>.png."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid.split("::", 1)[-1])
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}{suffix}.png"
