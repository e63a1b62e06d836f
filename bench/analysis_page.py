"""From a node change to the engine's first line on screen, on the analysis board in Chromium.

The page (/analysis, issue 17) loads a 40-ply game, the engine switch on, and steps through
it one move at a time with →, back and forth. Each step starts an engine job (`engine_start`)
and the page records, as a User Timing measure named 'engine-first-line', the time from the
node change to the first line of that job drawn on screen (static/js/analysis/engine.js).
Printed: the count, median, p90 and maximum in milliseconds; the issue's goal is 300 ms.
Run: `.venv/bin/python bench/analysis_page.py [--steps N] [--pause SECONDS]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import chromium_page, measured
from bench.machine import machine

# A Ruy Lopez, closed: 40 plies of ordinary middlegame positions.
GAME = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
    "9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 "
    "16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 *"
)
PLIES = 40
FIRST_LINE = "performance.getEntriesByName('engine-first-line').length"


def measure(steps: int, pause: float) -> list[float]:
    """Milliseconds from each of `steps` node changes to its first engine line on screen."""
    with chromium_page({"width": 1280, "height": 900}) as (page, url):
        page.goto(url + "/analysis")
        page.wait_for_function(
            "document.querySelector('#connection').dataset.state === 'connected'"
            " && document.querySelector('#analysis').dataset.ready === 'true'"
        )
        page.evaluate("document.querySelector('#sources').open = true")
        page.fill("#source-text", GAME)
        page.click("#source-load")
        page.wait_for_function(f"document.querySelectorAll('#tree .tree-move').length === {PLIES}")
        if not page.locator("#engine-toggle").is_checked():
            page.locator("#engine-toggle").check()
        page.wait_for_function(f"{FIRST_LINE} >= 1", timeout=30_000)
        page.evaluate("performance.clearMeasures('engine-first-line')")
        for step in range(steps):
            # Forward through the game, then back, and again: every step a new node.
            forward = (step // PLIES) % 2 == 0
            page.keyboard.press("ArrowRight" if forward else "ArrowLeft")
            page.wait_for_function(f"{FIRST_LINE} >= {step + 1}", timeout=30_000)
            page.wait_for_timeout(pause * 1000)
        return measured(page, "engine-first-line")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=80, help="node changes (default 80)")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.3,
        help="seconds on each node after its first line (default 0.3)",
    )
    arguments = parser.parse_args()
    times = measure(arguments.steps, arguments.pause)
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"machine: {machine()}")
    print(
        f"node change -> first engine line on screen: {len(times)} steps, "
        f"median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, max {times[-1]:.1f} ms "
        f"(goal: 300 ms)"
    )


if __name__ == "__main__":
    main()
