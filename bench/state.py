"""What a pushed state costs to build, without and with the threat insight (issue 7).

Usage: `python bench/state.py [--positions N] [--seed S] [--repeat R]`

Games come from seeded random movers (one sample every few plies, each a `server.games.play.Game`
restored from its moves, as the server holds it). For each sample, each way of building a state
is timed with `time.perf_counter_ns`, `--repeat` times (3 by default) keeping the fastest call,
since other processes can only add time:

- `public, no insight`: `make_public_state` as it was before issue 7, the threat map built anew
  in its wire form (`server.threats.wire.threats_json`) and no insight
  (`server.threats.cache.position_facts` replaced for the measure); no path of the
  server runs it any more, it is kept for scale;
- `public, insight, first build`: the caches emptied first, as after a move: threat map, x-rays,
  pin lines, the last move's change and its words;
- `public, insight, cached`: the same position again (a join, an HTTP read, an offer);
- `dests only` and `dests + safety, first build`: what the seat to move gets on top;
- `a move's states, before` and `..., with insight`: everything one change costs, the public
  state and the three tailored copies (white, black, spectators) encoded to JSON as they are
  sent, caches emptied first;
- `preview, first` and `preview, cached`: the `preview` event's work for the first legal move
  (in sorted UCI order), with the position's facts cached as they are after a state was sent;
- the JSON size of the public state, without and with `insight`.

The table gives the median, the 99th percentile and the maximum over all samples.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import server.games.messages
from bench.insight import parse_sampling_args, print_table
from chesscore import BLACK, WHITE, Board, Move
from chesscore.analysis.threats import make_threat_map
from server.edge.wire import dumps
from server.games.messages import make_destinations, make_public_state, tailor_state
from server.games.play import Game, GameSettings, Header, MoveRecord, restore_game
from server.threats.cache import cached_preview, clear_caches, position_facts
from server.threats.wire import threats_json

NOW = 1_000_000.0


def sample_games(count: int, seed: int, stride: int = 4) -> list[Game]:
    """`count` games of seeded random movers, cut every `stride` plies."""
    rng = random.Random(seed)
    samples: list[Game] = []
    settings = GameSettings("friend", WHITE, Board().fen())
    header = Header(seated=frozenset({WHITE, BLACK}))
    while len(samples) < count:
        board, moves = Board(), []
        while board.outcome() is None and board.ply < 300 and len(samples) < count:
            legal = sorted(board.legal_moves(), key=lambda move: move.uci())
            move = rng.choice(legal)
            moves.append(MoveRecord(move.uci(), board.san(move)))
            board.push(move)
            if board.ply % stride == 0 and board.outcome() is None:
                samples.append(restore_game("benchgame001", settings, header, 0, list(moves)))
    return samples


def without_insight(board: Board, overlays: bool = True) -> Any:
    """What the state held before issue 7: a threat map made for each state (in the wire
    form), nothing more."""
    return SimpleNamespace(
        threats=threats_json(make_threat_map(board)),
        insight=None,
        announcement=None,
        checked_king=None,
    )


def move_states(game: Game) -> None:
    public = make_public_state(game, NOW)
    for role in (WHITE, BLACK, None):
        dumps(tailor_state(public, game, role))


def old_move_states(game: Game) -> None:
    public = make_public_state(game, NOW)
    for role in (WHITE, BLACK, None):
        dumps({**public, **make_destinations(game)} if role == game.board.turn else public)


def cold(work: Callable[[Game], object]) -> Callable[[Game], object]:
    def run(game: Game) -> object:
        clear_caches()
        return work(game)

    return run


def patched(work: Callable[[Game], object]) -> Callable[[Game], object]:
    def run(game: Game) -> object:
        server.games.messages.position_facts = without_insight  # type: ignore[assignment]
        try:
            return work(game)
        finally:
            server.games.messages.position_facts = position_facts

    return run


def safety(game: Game) -> object:
    facts = position_facts(game.board)
    facts.safety = None
    return {**make_destinations(game), "safety": facts.safety_of(game.board)}


# The move each game's previews are asked for, chosen before the timing (by id of the game).
PREVIEW_MOVES: dict[int, Move] = {}


def first_move_preview(game: Game) -> object:
    return cached_preview(game.board, PREVIEW_MOVES[id(game)])


def facts_only(game: Game) -> None:
    """Before a first preview: the position's facts cached (a state was sent), no previews."""
    clear_caches()
    position_facts(game.board)


OPERATIONS: dict[str, Callable[[Game], object]] = {
    "public, no insight": patched(lambda game: make_public_state(game, NOW)),
    "public, insight, first build": cold(lambda game: make_public_state(game, NOW)),
    "public, insight, cached": lambda game: make_public_state(game, NOW),
    "dests only": make_destinations,
    "dests + safety, first build": safety,
    "a move's states, before": patched(old_move_states),
    "a move's states, with insight": cold(move_states),
    "preview, first": first_move_preview,
    "preview, cached": first_move_preview,
}


# Work done before each timed call of an operation, outside the timing.
SETUPS: dict[str, Callable[[Game], object]] = {"preview, first": facts_only}


def best_time(
    work: Callable[[Game], object], game: Game, repeat: int, setup: Callable[[Game], object]
) -> float:
    best = float("inf")
    for _ in range(repeat):
        setup(game)
        start = time.perf_counter_ns()
        work(game)
        best = min(best, (time.perf_counter_ns() - start) / 1000)
    return best


def main() -> None:
    args = parse_sampling_args(__doc__.splitlines()[0])
    games = sample_games(args.positions, args.seed)
    for game in games:
        PREVIEW_MOVES[id(game)] = min(game.board.legal_moves(), key=lambda move: move.uci())
    times: dict[str, list[float]] = {name: [] for name in OPERATIONS}
    sizes: dict[str, list[float]] = {"state bytes, no insight": [], "state bytes, insight": []}
    for game in games:
        for name, work in OPERATIONS.items():
            setup = SETUPS.get(name, lambda game: None)
            times[name].append(best_time(work, game, args.repeat, setup))
        state = make_public_state(game, NOW)
        sizes["state bytes, insight"].append(len(dumps(state)))
        sizes["state bytes, no insight"].append(len(dumps({**state, "insight": None})))
    print_table("operation (microseconds)", {**times, **sizes}, len(games), args.seed)


if __name__ == "__main__":
    main()
