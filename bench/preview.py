"""The drag preview's round trip as the page sees it, in a real Chromium against a real server.

A player's page holds a piece (click-selected) and the pointer moves from one destination to
the next; each new target square sends one `preview` event, and the page records each round
trip (request to answer) as a User Timing measure named 'preview'. Prints the count, median,
p95 and maximum in milliseconds. Run: `.venv/bin/python bench/preview.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import chromium_page, measured
from tests.test_browser_support import click_square, create_game, square_center

ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
BISHOP_TARGETS = ["b5", "d5", "e6", "f7", "b3", "d3", "e2", "f1", "a6"]  # Bc4's destinations


def measure(rounds: int) -> list[float]:
    """Preview round trips in milliseconds over `rounds` pointer moves."""
    with chromium_page({"width": 1100, "height": 900}) as (page, url):
        created = create_game(url, opponent="friend", color="white", fen=ITALIAN)
        page.goto(url + created["links"]["private"])
        page.wait_for_function(
            "document.querySelector('#connection').dataset.state === 'connected'"
        )
        page.get_by_role("button", name="Both").click()
        click_square(page, "c4")
        for index in range(rounds):
            target = BISHOP_TARGETS[index % len(BISHOP_TARGETS)]
            page.mouse.move(*square_center(page, target), steps=2)
            page.wait_for_function(
                f"document.querySelector('main.game').dataset.preview === 'c4{target}'"
            )
            page.wait_for_timeout(60)  # stay under the look-ups' rate limit of 20 a second
        return measured(page, "preview")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="pointer moves (default 200)")
    times = measure(parser.parse_args().rounds)
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"previews: {len(times)}, median {statistics.median(times):.1f} ms, "
        f"p95 {p95:.1f} ms, max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
