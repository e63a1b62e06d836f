"""A player with 10,000 finished games in a real SQLite store: the data of the profile and
export benchmarks (bench/profile.py).

Usage: `python bench/history_data.py [--games N] [--out PATH] [--seed S]`

The accounts and the games are written through the store's own API, as the server writes
them, only faster: each game is `create_game` then one `commit` of all its moves (each with the
mover's clock after it) ending it, and its players' history rows are `history_entries` of the
game service's end, added 500 at a time. The moves are the 30 real games of
bench/data/review_games.pgn (lichess blitz games), taken in turn, under one of six time
controls, so every game is a legal game with a named opening; the clocks run down by a seeded
random think time plus the increment. The games of the player (`bench_player`) alternate
colours, end a game every ten minutes back from now, and meet opponents with accounts (40 of
them; those games are rated, through the ratings' `rate_game`, oldest first) and without (every
fifth game, casual); every tenth game has a finished review (random evaluations), so the list
and the export have review links and `[%eval]` to show. 10,000 games take about 20 s (5 s of
CPU); the file is about 70 MB.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chesscore import BLACK, WHITE, Board, Outcome, Termination
from chesscore.ratings.speed import Speed
from chesscore.rules.pgn_import import read_games
from server.accounts.usernames import name_key
from server.games.clock import ClockSettings
from server.games.play import Game, GameSettings, Header, MoveRecord, make_event, restore_game
from server.games.rating import glicko_rate
from server.games.stored import StoredChange, header_to_data, stored_from_game
from server.players.entries import history_entries, speed_of
from server.players.tables import HistoryEntry
from server.review.tables import StoredReview
from server.storage.sqlite import SqliteDatabase
from server.tables import Tables, build_tables

GAMES_FILE = Path(__file__).resolve().parent / "data" / "review_games.pgn"
PLAYER_NAME = "bench_player"
OPPONENTS = 40  # accounts of their own; every fifth game's opponent has none
CONTROLS = ((60, 0), (180, 2), (300, 3), (600, 5), (900, 10), (1800, 20))
REVIEW_EVERY = 10
GAP_SECONDS = 600
BATCH = 500
DEFAULT_OUT = Path(tempfile.gettempdir()) / "chess-history-bench" / "games.sqlite3"


def template_games() -> list[Game]:
    """The real games, each restored once (their boards name the openings)."""
    games = []
    for index, imported in enumerate(read_games(GAMES_FILE.read_text())):
        board = Board.from_fen(imported.start_fen)
        records = []
        for node in imported.moves:
            records.append(MoveRecord(node.move.uci(), node.san))
            board.push(node.move)
        settings = GameSettings("friend", WHITE, imported.start_fen)
        games.append(restore_game(f"template{index:04d}", settings, Header(), 0, records))
    return games


def add_account(store: Tables, name: str) -> int:
    """An account without a usable password (nobody signs in as a bench player)."""
    return store.accounts.create_user((name, name_key(name), "!bench: no password"), [])


def fill_store(store: Tables, count: int, seed: int) -> int:
    """Write `count` finished games of the account PLAYER_NAME (made here) into `store`; the
    account's id."""
    rng = random.Random(seed)
    templates = template_games()
    player = add_account(store, PLAYER_NAME)
    opponents = [add_account(store, f"opponent_{index}") for index in range(OPPONENTS)]
    now = time.time()
    entries: list[HistoryEntry] = []
    # Oldest first, as they were played: each rated game is rated from the ratings before it.
    for index in reversed(range(count)):
        game = make_game(rng, templates[index % len(templates)], index)
        ended = now - index * GAP_SECONDS
        color = WHITE if index % 2 == 0 else BLACK
        accounts = {color: player}
        if index % 5:
            accounts[1 - color] = opponents[index % OPPONENTS]
        write_game(store, game, accounts)
        if game.settings.rated:
            speed = Speed(speed_of(game.settings.clock))
            store.ratings.rate_game(game.id, speed, glicko_rate(white_score(game), ended), ended)
        entries.extend(history_entries(game, accounts, ended))
        if index % REVIEW_EVERY == 0:
            store.reviews.add_review(finished_review(rng, game, ended), None, 1 << 30)
        if len(entries) >= BATCH:
            store.history.add_history(entries)
            entries = []
    store.history.add_history(entries)
    return player


def make_game(rng: random.Random, template: Game, index: int) -> Game:
    """A finished game with the template's moves, its own id, names, clock and outcome."""
    initial, increment = CONTROLS[index % len(CONTROLS)]
    clock = ClockSettings(initial * 1000, increment * 1000)
    player_color = WHITE if index % 2 == 0 else BLACK
    opponent = f"opponent_{index % OPPONENTS}" if index % 5 else f"Anonymous-{index % 9000 + 1000}"
    names = [opponent, opponent]
    names[player_color] = PLAYER_NAME
    # Games between two accounts are rated (and so never assisted), as most are on lichess.
    rated = index % 5 != 0
    settings = replace(
        template.settings,
        clock=clock,
        names=(names[0], names[1]),
        rated=rated,
        assisted=not rated,
    )
    outcome = template.board.outcome() or rng.choice(
        (
            Outcome(Termination.RESIGNATION, WHITE),
            Outcome(Termination.RESIGNATION, BLACK),
            Outcome(Termination.TIME_FORFEIT, template.board.turn ^ 1),
            Outcome(Termination.AGREEMENT, None),
        )
    )
    header = Header(status="finished", outcome=outcome, seated=frozenset({WHITE, BLACK}))
    moves = timed_moves(rng, template.moves, clock)
    return Game(f"b{index:011d}", settings, template.board, header, 0, moves)


def timed_moves(
    rng: random.Random, moves: list[MoveRecord], clock: ClockSettings
) -> list[MoveRecord]:
    left = [clock.initial_ms, clock.initial_ms]
    timed = []
    for ply, record in enumerate(moves):
        side = ply % 2
        think = rng.randrange(0, max(1, left[side] // 20))
        left[side] = max(0, left[side] - think) + clock.increment_ms
        timed.append(replace(record, clock_ms=left[side]))
    return timed


def write_game(store: Tables, game: Game, accounts: dict[int, int]) -> None:
    """The game as the server stores it: created with both seats (those of `accounts` taken by
    them), then one change with all its moves that ends it."""
    started = replace(game, moves=[], header=Header(seated=frozenset({WHITE, BLACK})))
    seats = {WHITE: f"bench-seat-w-{game.id}", BLACK: f"bench-seat-b-{game.id}"}
    store.games.create_game(stored_from_game(started, None), seats, accounts)
    event = make_event("moves", outcome=game.header.outcome)
    event["version"] = 1
    added = list(enumerate(game.moves))
    store.games.commit(game.id, StoredChange(1, header_to_data(game.header), event, False, added))


def white_score(game: Game) -> float:
    outcome = game.header.outcome
    assert outcome is not None
    return 0.5 if outcome.winner is None else 1.0 - outcome.winner


def finished_review(rng: random.Random, game: Game, ended: float) -> StoredReview:
    positions = game.ply + 1
    evals = [
        {
            "index": index,
            "eval": {"cp": rng.randrange(-300, 300)},
            "line": [],
            "depth": 1,
            "nodes": 1,
        }
        for index in range(positions)
    ]
    return StoredReview(
        f"r{game.id[-7:]}",
        game.id,
        "done",
        positions,
        positions,
        json.dumps({"bench": True}),
        json.dumps(evals, separators=(",", ":")),
        None,
        "bench",
        None,
        ended,
        ended,
    )


def make_history_store(path: Path, count: int = 10_000, seed: int = 1) -> Tables:
    """A fresh store at `path` holding `count` games of PLAYER_NAME."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    store = build_tables(SqliteDatabase(path, synchronous="OFF"))
    fill_store(store, count, seed)
    return store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    store = make_history_store(args.out, args.games, args.seed)
    store.close()
    seconds = time.perf_counter() - started
    size = args.out.stat().st_size / 1e6
    print(f"{args.games} games of {PLAYER_NAME} in {args.out} ({size:.1f} MB) in {seconds:.1f} s")


if __name__ == "__main__":
    main()
