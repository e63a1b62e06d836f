"""The server's profile under load in groups: where a move's time goes (docs/performance.md).

Usage:
  py-spy record --rate 200 --pid PID --duration 19 --format raw -o server.raw
  python bench/profile_groups.py server.raw [more.raw ...]

`PID` is a server started as bench/load.py starts it (`python -m server` with its
environment), recorded while `python bench/load.py --url http://127.0.0.1:PORT --games 250`
plays. Each sample counts for the innermost frame of a known kind (chesscore; SQLite, the
storage layer and the games' tables; JSON; Flask and Werkzeug; the transport: engine.io,
socket.io, Flask-SocketIO, gevent and its WebSocket; the rest of `server/`, the glue). The
samples of gevent's hub waiting for work are left out: py-spy sees that loop as running. Then
the share of the busy samples under each of the move's main steps, the frames named by their
function, whatever they call included.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

GROUPS = (
    ("chess work (chesscore)", ("chesscore/",)),
    ("SQLite", ("sqlite", "server/storage/", "server/games/tables.py")),
    ("JSON encoding", ("orjson", "/json/", "server/edge/wire.py")),
    ("Flask request context", ("flask/", "werkzeug/")),
    ("transport", ("engineio/", "socketio/", "flask_socketio/", "gevent", "geventwebsocket/")),
    ("the project's glue (server/)", ("server/",)),
)
STEPS = (
    ("the move, all of it", "GameService.move"),
    ("the position's facts", "PositionFacts.__init__"),
    ("the safety labels", "PositionFacts.safety_of"),
    ("making the move (rules, SAN, outcome)", "make_move"),
    ("the SQLite write", "GameTables.commit"),
    ("the public state", "make_public_state"),
    ("the mover's fields (dests, safety)", "mover_fields"),
    ("the three rooms' states, sent", "RoomNotifier.refresh"),
    ("emitting them", "emit_each"),
    ("the edge's frame guard, waiting and reading", "GuardedFrames.wait"),
)
IDLE = "Hub.run"
FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>.*?)(:\d+)?\)$")


def read_samples(path: Path) -> list[tuple[list[tuple[str, str]], int]]:
    """py-spy's raw lines: frames outermost first, as (function, file), and their count."""
    samples = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = []
        for frame in stack.split(";"):
            found = FRAME.match(frame)
            frames.append((found["function"], found["file"]) if found else (frame, ""))
        samples.append((frames, int(count)))
    return samples


def group_of(frames: list[tuple[str, str]]) -> str:
    for _, file in reversed(frames):
        for name, marks in GROUPS:
            if any(mark in file for mark in marks):
                return name
    return "other"


def report(path: Path) -> None:
    samples = read_samples(path)
    busy = [(frames, count) for frames, count in samples if frames[-1][0] != IDLE]
    total = sum(count for _, count in busy)
    print(f"{path}: {total} busy samples ({sum(c for _, c in samples) - total} idle left out)")
    groups: Counter[str] = Counter()
    steps: Counter[str] = Counter()
    for frames, count in busy:
        groups[group_of(frames)] += count
        functions = {function for function, _ in frames}
        for name, function in STEPS:
            steps[name] += count if function in functions else 0
    for name, count in groups.most_common():
        print(f"  {100 * count / total:5.1f} %  {name}")
    print("  under each step of a move (whatever it calls included):")
    for name, _ in STEPS:
        print(f"  {100 * steps[name] / total:5.1f} %  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", nargs="+", type=Path, help="py-spy --format raw output")
    for path in parser.parse_args().raw:
        report(path)


if __name__ == "__main__":
    main()
