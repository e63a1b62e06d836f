"""The Stockfish builds the server could run, side by side: speed here and download size.

For each build (the npm package's lite single-threaded WebAssembly under Node, its full-net
single-threaded one, and a native binary, Debian's Stockfish 15.1 when installed) this starts
the engine through the server's own UCI client (server.engine.uci), searches the start
position and a middlegame (bench/data/middlegames.epd's first) for `--nodes` nodes, one
thread, and prints the nodes per second Stockfish reports, the time to the first `uciok` (the
WebAssembly's compilation under Node) and the size of the files a download would carry. Run:
`.venv/bin/python -m bench.stockfish_builds [--nodes 2000000]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from pathlib import Path

from server.engine.stockfish import NODE_FLAGS, NPM_BUILD
from server.engine.uci import UciEngine

BIN = NPM_BUILD.parent
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"


def builds() -> list[tuple[str, list[str], list[Path]]]:
    node = shutil.which("node") or "node"
    found = []
    for name, stem in (("npm lite-single", "stockfish-19-lite-single"),
                       ("npm single (full net)", "stockfish-19-single")):  # fmt: skip
        script = BIN / f"{stem}.js"
        if script.is_file():
            files = [script, BIN / f"{stem}.wasm"]
            found.append((name, [node, *NODE_FLAGS, str(script)], files))
    native = shutil.which("stockfish") or "/usr/games/stockfish"
    if os.access(native, os.X_OK):
        found.append(("native (Debian)", [native], [Path(native)]))
    return found


def measure(command: list[str], nodes: int) -> tuple[str, float, list[int]]:
    began = time.monotonic()
    engine = UciEngine.start(command)
    started = time.monotonic() - began
    speeds = []
    try:
        engine.set_option("Threads", 1)
        engine.set_option("Hash", 16)
        for fen in (None, MIDDLEGAME):
            engine.new_game()
            engine.position(fen)
            result = engine.go(nodes=nodes, timeout=600)
            last = [info.nps for info in result.infos if info.nps]
            speeds.append(last[-1] if last else 0)
    finally:
        engine.close()
    return engine.name, started, speeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2_000_000)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}; {args.nodes:,} nodes a search, one thread, 16 MB hash")
    print(f"{'build':24}{'engine':22}{'start':>8}{'nps start':>12}{'nps middle':>12}{'size':>10}")
    for name, command, files in builds():
        engine, started, speeds = measure(command, args.nodes)
        size = sum(path.stat().st_size for path in files) / 1e6
        print(f"{name:24}{engine[:21]:22}{started:7.2f}s" + "".join(f"{v:12,}" for v in speeds)
              + f"{size:8.1f}MB")  # fmt: skip


if __name__ == "__main__":
    main()
