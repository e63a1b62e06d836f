"""Find a Chromium for Playwright, in the order the set-up documents.

1. the executable named by `CHROMIUM_PATH`;
2. Playwright's own installed browser;
3. the system's `/usr/bin/chromium` (Debian's `chromium` package);
4. `python -m playwright install chromium`, then Playwright's own browser again.
Where all of these fail the error says how to get one. Run as a script it prints the path, so
`make test` can find the browser once and hand it to pytest through `CHROMIUM_PATH`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
HOW_TO_GET_ONE = (
    "No Chromium found for the browser tests. Install your distribution's package "
    "(Debian/Ubuntu: `sudo apt-get install chromium`), or run "
    "`.venv/bin/python -m playwright install chromium` where the network allows it, "
    "or point CHROMIUM_PATH at a Chromium executable."
)

# Flags that let Chromium run as root in a container and keep it off a network it cannot reach.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class ChromiumNotFoundError(RuntimeError):
    """No usable Chromium executable could be found or installed."""


def playwright_chromium() -> Path | None:
    """Return Playwright's own Chromium when it is installed."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        path = Path(playwright.chromium.executable_path)
    return path if path.exists() else None


def find_chromium(install: bool = True) -> Path:
    named = os.environ.get("CHROMIUM_PATH")
    if named:
        if Path(named).exists():
            return Path(named)
        raise ChromiumNotFoundError(f"CHROMIUM_PATH={named!r} does not exist. {HOW_TO_GET_ONE}")
    own = playwright_chromium()
    if own:
        return own
    if SYSTEM_CHROMIUM.exists():
        return SYSTEM_CHROMIUM
    if install:
        result = subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"],
            stdout=sys.stderr,
            stderr=sys.stderr,
            check=False,
        )
        own = playwright_chromium() if result.returncode == 0 else None
        if own:
            return own
    raise ChromiumNotFoundError(HOW_TO_GET_ONE)


def main() -> int:
    try:
        print(find_chromium())
    except ChromiumNotFoundError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
