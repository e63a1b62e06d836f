"""The analysis board's engine in Chromium: its first line after a node change, and Stockfish's
time to depth 16 and 20.

First-line: the page (/analysis, issue 17) loads a 40-ply game, the engine switch on, and
steps through it one move at a time with →, back and forth. Each step starts a search (in the
browser's Stockfish, or our engine on the server with `--engine server`) and the page records,
as a User Timing measure named 'engine-first-line', the time from the node change to the first
line of that search drawn on screen (static/js/analysis/engine.js). Printed: the count,
median, p90 and maximum in milliseconds; the issue's goal is 300 ms.

Depth (issue 24): on the analysis page (cross-origin isolated, so both builds can run), each
Stockfish build is started in its own Web Worker as the page starts it, and timed from `go` to
its first `info` at depth 16 and at depth 20, on the start position and a middlegame, with one
and three lines: the single-threaded build, and the threaded one at (cores - 1) threads, the
page's choice, and at every core. Also timed: the page opened cold (nothing cached) until
depth 16 is on screen, which includes the 1.6-1.8 MB download and the compile.
Run: `.venv/bin/python bench/analysis_page.py [--steps N] [--pause SECONDS] [--engine E]
[--depth-runs N | --no-depth]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

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
SETTINGS = "localStorage.setItem('chess.analysisEngineSettings', JSON.stringify({source: '%s'}))"

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# The closed Ruy Lopez above after 20... Be7: a middlegame with every piece on.
MIDDLEGAME = "r2qr1k1/1b2bp2/p2p1n2/1pnPp1Bp/P1p1P3/2P3NP/1PBQ1PP1/R3RNK1 w - - 2 21"
BUILDS = {"single": "stockfish-19-lite-single.js", "threaded": "stockfish-19-lite.js"}

# In the page: start `build` in a worker with `threads`, analyse `fen` with `multipv` lines,
# and answer the milliseconds to readyok and from `go` to the first info at each depth asked.
TIME_TO_DEPTH = """async ([build, threads, fen, multipv, depths]) => {
  const worker = new Worker('/vendor/stockfish/' + build);
  const started = performance.now();
  const times = {};
  let ready = 0, went = 0;
  const last = Math.max(...depths);
  await new Promise((resolve) => {
    worker.onmessage = (event) => {
      const line = String(event.data);
      if (line === 'readyok' && !went) {
        ready = performance.now() - started;
        worker.postMessage('position fen ' + fen);
        went = performance.now();
        worker.postMessage('go depth ' + last);
      }
      const depth = /^info depth (\\d+) .* multipv 1 .* pv /.exec(line);
      if (depth) {
        for (const d of depths) {
          if (Number(depth[1]) >= d && !(d in times)) times[d] = performance.now() - went;
        }
      }
      if (line.startsWith('bestmove')) resolve();
    };
    for (const command of ['uci', 'setoption name Threads value ' + threads,
        'setoption name Hash value 32', 'setoption name MultiPV value ' + multipv, 'isready']) {
      worker.postMessage(command);
    }
  });
  worker.terminate();
  return { ready, times };
}"""


def measure(steps: int, pause: float, engine: str) -> list[float]:
    """Milliseconds from each of `steps` node changes to its first engine line on screen."""
    with chromium_page({"width": 1280, "height": 900}) as (page, url):
        page.goto(url + "/")
        page.evaluate(SETTINGS % engine)
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


def measure_depths(runs: int) -> list[tuple[str, dict[int, list[float]], list[float]]]:
    """(what ran, depth -> milliseconds of each run from `go`, milliseconds to readyok) for each
    build, thread count, position and number of lines."""
    cores = os.cpu_count() or 1
    setups = [("single", 1), ("threaded", max(1, cores - 1))]
    if cores > 1:
        setups.append(("threaded", cores))
    rows = []
    with chromium_page({"width": 1280, "height": 900}) as (page, url):
        page.goto(url + "/")
        page.evaluate("localStorage.setItem('chess.analysisEngine', 'off')")  # the page's own
        page.goto(url + "/analysis")
        assert page.evaluate("crossOriginIsolated"), "the analysis page is not isolated"
        for position, fen in (("start", START), ("middlegame", MIDDLEGAME)):
            for multipv in (1, 3):
                for build, threads in setups:
                    times: dict[int, list[float]] = {16: [], 20: []}
                    ready: list[float] = []
                    for _ in range(runs):
                        found = page.evaluate(
                            TIME_TO_DEPTH, [BUILDS[build], threads, fen, multipv, [16, 20]]
                        )
                        ready.append(found["ready"])
                        for depth in times:
                            times[depth].append(found["times"][str(depth)])
                    what = f"{position:<10}  {multipv} line{'s' if multipv > 1 else ' '}  "
                    rows.append((what + f"{build} x{threads}", times, ready))
    return rows


def measure_cold_page(runs: int) -> list[float]:
    """Milliseconds from opening the analysis page (nothing cached) to depth 16 on screen."""
    times = []
    for _ in range(runs):
        with chromium_page({"width": 1280, "height": 900}) as (page, url):
            page.goto(url + "/analysis")
            page.wait_for_function(
                "Number(document.querySelector('#engine-lines').dataset.depth || 0) >= 16",
                timeout=120_000,
            )
            times.append(page.evaluate("performance.now()"))
    return times


def print_depths(rows: list[Any], cold: list[float]) -> None:
    print(
        "Stockfish 19 lite in Chromium, from `go` to the first line at depth 16 / 20 (median ms):"
    )
    print(f"{'position':<10}  {'lines':<6} {'build x threads':<16} {'depth 16':>9} {'depth 20':>9}")
    for what, times, ready in rows:
        sixteen, twenty = (statistics.median(times[d]) for d in (16, 20))
        print(f"{what:<36} {sixteen:>9.0f} {twenty:>9.0f}   (started in {min(ready):.0f} ms)")
    print(
        f"analysis page opened cold -> depth 16 on screen: median {statistics.median(cold):.0f} ms"
        f" over {len(cold)} runs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=80, help="node changes (default 80)")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.3,
        help="seconds on each node after its first line (default 0.3)",
    )
    parser.add_argument(
        "--engine",
        choices=("browser", "server"),
        default="browser",
        help="the engine giving the first lines: Stockfish in the browser (default) or ours",
    )
    parser.add_argument(
        "--depth-runs", type=int, default=3, help="runs of each depth timing (default 3)"
    )
    parser.add_argument("--no-depth", action="store_true", help="skip the depth timings")
    arguments = parser.parse_args()
    times = measure(arguments.steps, arguments.pause, arguments.engine)
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"machine: {machine()}")
    print(
        f"node change -> first engine line on screen ({arguments.engine}): {len(times)} steps, "
        f"median {statistics.median(times):.1f} ms, p90 {p90:.1f} ms, max {times[-1]:.1f} ms "
        f"(goal: 300 ms)"
    )
    if not arguments.no_depth:
        print_depths(measure_depths(arguments.depth_runs), measure_cold_page(arguments.depth_runs))


if __name__ == "__main__":
    main()
