"""A real Chromium on a page of a real server, for the benchmarks that time what a page sees.

`chromium_page` starts a server (its instance in a fresh folder) and Chromium (Debian's, or
Playwright's, as the browser tests find it), and yields a new page with the server's URL;
both are stopped after. The page records its timings as User Timing measures, which
`measured` reads back, in milliseconds and sorted.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tests.support.chromium import LAUNCH_ARGS, find_chromium
from tests.test_browser_support import start_server


@contextmanager
def chromium_page(viewport: dict[str, int]) -> Iterator[tuple[Any, str]]:
    """A new page of Chromium in a `viewport`, and the URL of a fresh server. The page's CSP is
    bypassed: Playwright's `wait_for_function` evaluates strings, which the CSP forbids."""
    chromium = find_chromium()  # before Playwright starts: finding it may start Playwright
    server = start_server(Path(tempfile.mkdtemp()))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(chromium), args=LAUNCH_ARGS)
            context = browser.new_context(viewport=viewport, bypass_csp=True)
            yield context.new_page(), server.url
            browser.close()
    finally:
        server.stop()


def measured(page: Any, name: str) -> list[float]:
    """The durations of the page's User Timing measures named `name`, in ms, sorted."""
    times: list[float] = page.evaluate(
        f"performance.getEntriesByName('{name}').map(e => e.duration)"
    )
    return sorted(times)
