"""Which Stockfish the server runs (`CHESS_STOCKFISH`), and the one each engine worker keeps warm.

`choose_stockfish` reads the setting once, in the server process: unset or empty, the npm
package's lite single-threaded WebAssembly build (`stockfish/bin/stockfish-19-lite-single.js` in
the served node_modules, the app's NODE_MODULES; a small NNUE net built in, one thread) under
Node found on PATH; a path, that native binary (or a `.js` build, under Node); `none`, no
Stockfish: our own engine reviews. What is missing (Node, the file, a binary that does not speak
UCI) is said in the log and the server falls back to our own engine; the choice is a
`StockfishSpec`, plain data a job carries to the workers.

`worker_engine` runs in a worker process: one engine per worker, started on its first job and
kept warm across jobs (the WebAssembly is compiled once), started again when it died or a job
killed it (a hung search), closed when the worker exits; the process dies with its worker in any
case (server.engine.uci asks Linux for that).
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from server.engine.uci import EngineError, UciEngine

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
NPM_FILE = Path("stockfish") / "bin" / "stockfish-19-lite-single.js"
NPM_BUILD = ROOT / "node_modules" / NPM_FILE  # in a checkout with `npm ci` run in it
NPM_NAME = "Stockfish 19 lite"
# Without these V8 first runs the WebAssembly through its baseline compiler for seconds.
NODE_FLAGS = ("--no-liftoff", "--no-wasm-dynamic-tiering")
HASH_MB = 16


@dataclass(frozen=True)
class StockfishSpec:
    """How to start the engine (`command`) and the name the pages show."""

    command: tuple[str, ...]
    name: str


def node_command(script: Path, node: str | None) -> tuple[str, ...] | None:
    """Node running `script`, or None (with the reason in the log) when either is missing."""
    if node is None:
        log.warning("Stockfish: node is not on PATH, so %s cannot run", script)
        return None
    if not script.is_file():
        log.warning("Stockfish: %s is missing (run `npm ci`)", script)
        return None
    return (node, *NODE_FLAGS, str(script))


def choose_stockfish(
    setting: str | None, node_modules: Path | None = None, node: str | None = None
) -> StockfishSpec | None:
    """The Stockfish of `setting` (CHESS_STOCKFISH), None for our own engine; the npm build
    is looked for in `node_modules` (the checkout's when None). Each refusal and fall-back
    is logged with its reason. A native binary is asked its name once here."""
    node = node if node is not None else shutil.which("node")
    text = (setting or "").strip()
    if text.lower() == "none":
        return None
    if not text:
        build = node_modules / NPM_FILE if node_modules is not None else NPM_BUILD
        command = node_command(build, node)
        return StockfishSpec(command, NPM_NAME) if command is not None else None
    path = Path(text)
    if path.suffix == ".js":
        command = node_command(path, node)
        return StockfishSpec(command, path.stem) if command is not None else None
    if not (path.is_file() and os.access(path, os.X_OK)):
        log.warning("Stockfish: CHESS_STOCKFISH=%s is not an executable file", text)
        return None
    try:
        engine = UciEngine.start([str(path)])
    except EngineError as error:
        log.warning("Stockfish: %s", error)
        return None
    engine.close()
    return StockfishSpec((str(path),), engine.name)


def describe(spec: StockfishSpec | None) -> str:
    """The start-up line on the reviews' engine (server/__main__.py prints it)."""
    if spec is None:
        return "evaluated by our own engine (CHESS_STOCKFISH=none, or no Stockfish to run)"
    return f"evaluated by {spec.name}: {' '.join(spec.command)}"


# In a worker process only: its engine, started by the first job that needs it.
worker_stockfish: UciEngine | None = None
worker_spec: StockfishSpec | None = None


def worker_engine(spec: StockfishSpec) -> UciEngine:
    """This worker's engine for `spec`, warm if it runs, started (again) if not."""
    global worker_stockfish, worker_spec
    engine = worker_stockfish
    if engine is not None and engine.alive and worker_spec == spec:
        return engine
    close_worker_engine()
    engine = UciEngine.start(spec.command, spec.name)
    engine.set_option("Threads", 1)
    engine.set_option("Hash", HASH_MB)
    engine.ping()
    worker_stockfish, worker_spec = engine, spec
    return engine


def close_worker_engine() -> None:
    global worker_stockfish
    engine, worker_stockfish = worker_stockfish, None
    if engine is not None:
        engine.close()


atexit.register(close_worker_engine)
