"""A player's finished games as one PGN file, written a batch at a time (the export of
`GET /api/games/user/<name>`, as lichess's).

`stream_games` pages through the player's history (server.players.tables) by its cursor,
`BATCH` games at a time, newest first; for each batch it reads the games' stored rows and their
finished reviews' evaluations, and hands the batch to `run` (the work pool's, server.work: the
serving loop never writes thousands of PGNs itself), whose `write_pgns` returns the batch's
PGN text, which the stream yields; the next batch is read while one is written. So memory holds
two batches whatever the player's count.

Each game is written from what is stored, never replayed: its headers by the single game's
`stored_pgn_headers` (server.games.http) with lichess's `Event`, `UTCDate`, `UTCTime` and
`TimeControl`, the opening kept in its history row, its moves as stored with each move's clock
as `[%clk]` and, when a review of it is done, the evaluation after the move as `[%eval]`, by
chesscore's `make_line_pgn`.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Protocol

from chesscore.analysis.judgement import Evaluation
from chesscore.openings import Opening
from chesscore.review.pgn import eval_text
from chesscore.rules.pgn_export import LineMove, make_line_pgn
from server.games.clock import ClockSettings
from server.games.pgn import header_result, stored_pgn_headers
from server.games.stored import header_from_data, settings_from_data
from server.games.tables import GameTables
from server.players.tables import GamesQuery, HistoryEntry, HistoryRow, HistoryTables
from server.review.tables import ReviewTables


class ExportTables(Protocol):
    """The tables an export reads (server.tables.Tables has them)."""

    @property
    def games(self) -> GameTables: ...

    @property
    def history(self) -> HistoryTables: ...

    @property
    def reviews(self) -> ReviewTables: ...


# Games per batch: one query of the history, one job of the work pool.
BATCH = 200

# How a batch is written: the work pool's `run(write_pgns, games, site)`, or a direct call.
Run = Callable[..., str]


@dataclass(frozen=True)
class ExportGame:
    """What a game's PGN is written from, in plain values (a batch is pickled to the work pool,
    where a list of records would cost more than the writing): its history row, its id,
    settings and header as stored, its moves as (SAN, clock in ms), and the evaluations of
    its finished review (the review's JSON text of them), if any."""

    entry: HistoryEntry
    game_id: str
    settings: dict[str, Any]
    header: dict[str, Any]
    moves: list[tuple[str, int | None]]
    evals: str | None


def stream_games(store: ExportTables, query: GamesQuery, site: str, run: Run) -> Iterator[str]:
    """The PGN text of every game `query` selects (its `limit` ignored, its cursor followed),
    newest first, a batch at a time; each game is followed by a blank line.

    A batch is read while the one before is being written: `run` is called from a thread of
    its own (a greenlet under gevent), one batch at a time, so the export holds one job of the
    pool and the reading and the writing overlap. Closing the stream early (the client went
    away) drops the batches not started and waits for the one being written."""
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="export")
    pending: Future[str] | None = None
    try:
        for games in _batches(store, query):
            ahead = writer.submit(run, write_pgns, games, site)
            if pending is not None:
                yield pending.result()
            pending = ahead
        if pending is not None:
            yield pending.result()
    finally:
        writer.shutdown(wait=True, cancel_futures=True)


def _batches(store: ExportTables, query: GamesQuery) -> Iterator[list[ExportGame]]:
    """The games `query` selects, BATCH at a time, read from the store by its cursor."""
    page = replace(query, limit=BATCH)
    while True:
        rows = store.history.player_games(page)
        games = [game for row in rows if (game := read_game(store, row)) is not None]
        if games:
            yield games
        if len(rows) < BATCH:
            return
        last = rows[-1].entry
        page = replace(page, before=(last.ended, last.game_id))


def read_game(store: ExportTables, row: HistoryRow) -> ExportGame | None:
    stored = store.games.load_game(row.entry.game_id)
    if stored is None:
        return None  # games are never deleted; a row without its game is left out, not fatal
    review = store.reviews.load_review(row.review_id) if row.review_id is not None else None
    moves = [(record.san, record.clock_ms) for record in stored.moves]
    evals = review.evals if review is not None else None
    return ExportGame(row.entry, stored.id, stored.settings, stored.header, moves, evals)


def write_pgns(games: list[ExportGame], site: str) -> str:
    """The PGNs of `games`, each followed by a blank line (a work pool job)."""
    return "".join(game_pgn(game, site) + "\n" for game in games)


def game_pgn(game: ExportGame, site: str) -> str:
    entry = game.entry
    settings = settings_from_data(game.settings)
    header = header_from_data(game.header)
    ended = datetime.datetime.fromtimestamp(entry.ended / 1000, datetime.UTC)
    opening = Opening(entry.eco, entry.opening) if entry.eco and entry.opening else None
    headers = stored_pgn_headers(game.game_id, settings, header, site, ended.date(), opening)
    headers["Event"] = f"{'Rated' if entry.rated else 'Casual'} {entry.speed} game"
    headers["UTCDate"] = ended.strftime("%Y.%m.%d")
    headers["UTCTime"] = ended.strftime("%H:%M:%S")
    headers["TimeControl"] = time_control(settings.clock)
    evals = eval_texts(game.evals) if game.evals is not None else {}
    moves = [
        # Position k is the one after ply k.
        LineMove(san, None if clock_ms is None else clock_ms / 1000, evals.get(ply + 1))
        for ply, (san, clock_ms) in enumerate(game.moves)
    ]
    return make_line_pgn(headers, settings.start_fen, moves, header_result(header))


def time_control(clock: ClockSettings | None) -> str:
    """PGN's `TimeControl`: "300+3" (seconds and increment), "-" for a game without a clock."""
    if clock is None:
        return "-"
    return f"{clock.initial_ms / 1000:g}+{clock.increment_ms / 1000:g}"


def eval_texts(evals: str) -> dict[int, str]:
    """A review's stored evaluations (server.review.record) as `[%eval]` texts by position:
    positions without one (a mate or stalemate on the board) are left out."""
    items: list[dict[str, Any]] = json.loads(evals)
    return {
        int(item["index"]): eval_text(Evaluation.from_json(item["eval"]))
        for item in items
        if item.get("eval") is not None
    }
