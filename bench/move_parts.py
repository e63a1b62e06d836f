"""What the chess of one move costs the server, part by part (docs/performance.md, issue 34).

Usage: `python bench/move_parts.py [--games G] [--seed S] [--repeat R]`

`--games` seeded random games (random movers on both sides) are replayed move by move, as the
server sees them: after each move the facts of the position before are still cached. For each
position, each part the server computes after a move is timed with `time.process_time_ns`,
`--repeat` times (5 by default) keeping the fastest, and the facts as a whole as the server
makes them (`PositionFacts` from the facts of the position before); then, once per position in
the order of play, `RoomNotifier.refresh`: the three rooms' states with their facts and the
mover's safety labels, built and encoded, handed to a manager whose rooms each have a member
and which sends nothing. Printed: the median and the mean over all positions, in
microseconds (CPU time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore import BLACK, WHITE, Board
from chesscore.analysis.insight import last_move_change, relations_of
from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import make_xray_map
from server.edge.broadcast import LocalManager
from server.edge.wire import encode
from server.games.play import Game, GameSettings, Header, MoveRecord, restore_game
from server.games.rooms import RoomNotifier
from server.threats.cache import PositionFacts, clear_caches, last_move_of
from server.threats.wire import insight_json, threats_json


class SilentManager(LocalManager):  # type: ignore[misc]
    """Rooms that each have a member, and emits that go nowhere: the states are built and
    encoded as for real, nothing is sent."""

    def may_reach(self, room: str) -> bool:
        return True

    def emit(self, *args: Any, **kwargs: Any) -> None:
        pass


def replayed_games(count: int, seed: int) -> list[Game]:
    """Every position of `count` seeded random games, each as the server's `Game`, in order."""
    rng = random.Random(seed)
    settings = GameSettings("friend", WHITE, Board().fen())
    header = Header(seated=frozenset({WHITE, BLACK}))
    games: list[Game] = []
    for _ in range(count):
        board, moves = Board(), []
        while board.outcome() is None and board.ply < 120:
            move = rng.choice(sorted(board.legal_moves(), key=lambda move: move.uci()))
            moves.append(MoveRecord(move.uci(), board.san(move)))
            board.push(move)
            if board.outcome() is None:
                games.append(restore_game("benchgame001", settings, header, 0, list(moves)))
    return games


def best_us(work: Callable[[], object], repeat: int) -> float:
    best = None
    for _ in range(repeat):
        started = time.process_time_ns()
        work()
        spent = time.process_time_ns() - started
        best = spent if best is None else min(best, spent)
    assert best is not None
    return best / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="calls per position; best kept")
    args = parser.parse_args()
    games = replayed_games(args.games, args.seed)
    notifier = RoomNotifier(SimpleNamespace(server=SimpleNamespace(manager=SilentManager())))
    rows: dict[str, list[float]] = {}

    def time_part(name: str, work: Callable[[], object]) -> None:
        rows.setdefault(name, []).append(best_us(work, args.repeat))

    before: PositionFacts | None = None
    for game in games:
        board = game.board
        before = None if board.ply == 1 else before  # a new game starts
        time_part_facts(board, before, time_part)
        before = PositionFacts(board, before)
    # The whole, once per position in the order of play: each refresh finds the facts of the
    # position before cached, made by the refresh before it, as the server does.
    notifier.refresh(games[0])  # loads the openings' table, once per process
    clear_caches()
    moves_text = None
    for game in games:
        game.board.generate_legal()  # made by the move's outcome check, as on the server
        # The server keeps a game's move list as text and appends each move's record to it.
        game.moves_text = moves_text if game.board.ply > 1 else None
        started = time.process_time_ns()
        notifier.refresh(game)
        rows.setdefault("three rooms' states (refresh)", []).append(
            (time.process_time_ns() - started) / 1000
        )
        moves_text = game.moves_text
    print(f"{len(games)} positions of {args.games} seeded random games (seed {args.seed})")
    print(f"{'part (microseconds)':<32}{'median':>10}{'mean':>10}")
    for name, values in rows.items():
        print(f"{name:<32}{statistics.median(values):>10.1f}{statistics.fmean(values):>10.1f}")


def time_part_facts(
    board: Board,
    before: PositionFacts | None,
    time_part: Callable[[str, Callable[[], object]], None],
) -> None:
    """Each part of a position's facts and its safety labels, then the facts as a whole."""
    threats = make_threat_map(board)
    relations = relations_of(board, threats.attackers, threats.hanging)
    last = last_move_of(board)
    known = None if before is None else before.relations
    time_part("threat map", lambda: make_threat_map(board))
    time_part("pieces' relations", lambda: relations_of(board, threats.attackers, ()))
    time_part("the board before the move", lambda: last_move_of(board))
    change = None
    if last is not None:
        previous, move = last
        change = last_move_change(previous, move, board, threats, relations, known)
        time_part(
            "last move's change",
            lambda: last_move_change(previous, move, board, threats, relations, known),
        )
    time_part("x-ray map", lambda: make_xray_map(board, relations.pins))
    time_part("threat map's wire text", lambda: encode(threats_json(threats)))
    xrays = make_xray_map(board, relations.pins)
    time_part("insight's wire text", lambda: encode(insight_json(xrays, change)))
    time_part("facts as made after a move", lambda: PositionFacts(board, before))
    time_part("safety labels", lambda: classify_destinations(board, threats.attackers))


if __name__ == "__main__":
    main()
