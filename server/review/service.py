"""The review service: ask for a review, read it, answer its puzzles; auto-review computer games.

A review is of a finished game here (`review_game`) or of a game of a PGN file (`review_pgn`),
stored under 8 random characters, and reviewed once by each engine: asking again for the same
game (or the same PGN moves at the same setting) answers the same id, unless it was reviewed by
our own engine and the server runs Stockfish (server.review.engines). What a visitor may ask for
is bounded (think of a script posting PGNs): per address a bucket of `REVIEW_BURST` reviews,
then one every `REVIEW_INTERVAL` seconds. The queue is bounded by the time it would take to
drain (server.review.queue: each review's positions at the engine's cost a position): past
`queue_seconds` a review is refused `queue_full`, past the address's `address_seconds` share
`rate_limited` (a review that would be alone in the queue, or its address's only one, always
fits). Counts stay as a backstop the store checks atomically with the duplicate: at most
`PER_ADDRESS` reviews of an address and `MAX_PENDING` in all queued or running. Reviews run in
this process's `ReviewRunner` (server.review.runner), one at a time, in turn between
addresses, in the engine pool behind live games. A game against the computer created with
`review` is queued when a change ends it (`game_ended`, a listener of the game service), without
the per-address limits: the computer games an address may play at once bound those already.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from chesscore.analysis.judgement import Evaluation
from chesscore.review.evaluate import ReviewSetting
from chesscore.rules.move import Move
from server.analysis.service import AnalysisService, is_analysis_id
from server.engine.analysis import AnalysisJob, AnalysisUpdate
from server.engine.pool import EnginePool
from server.engine.positions import StockfishEvalJob, search_bound
from server.engine.worker import PoolJob
from server.games.play import Game
from server.games.seats import is_game_id
from server.games.service import GameService
from server.review import puzzle
from server.review.engines import ReviewEngine
from server.review.queue import DrainLimitError
from server.review.record import new_stored, review_json
from server.review.runner import Emit, ReviewRunner
from server.review.sources import ReviewSource, game_source
from server.review.tables import ReviewLimitError, ReviewTables, StoredReview
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot

log = logging.getLogger(__name__)

REVIEW_BURST = 20
REVIEW_INTERVAL = 30.0
PER_ADDRESS = 10
MAX_PENDING = 1000
# The drain-time bounds (server.shared.config REVIEW_QUEUE_SECONDS, REVIEW_ADDRESS_SECONDS): the
# whole queue within half an hour of engine time, one address within ten minutes of it.
QUEUE_SECONDS = 1800.0
ADDRESS_SECONDS = 600.0
# A puzzle answer's search gets this long beyond its own bound before it is given up.
TRY_SLACK_SECONDS = 10.0
AUTO_ADDRESS = "auto-review"

HeadersOf = Callable[[Game], dict[str, str]]


def is_review_id(text: str) -> bool:
    return is_analysis_id(text)  # the same 8 characters of secrets.token_urlsafe(6)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"


class ReviewService:
    def __init__(
        self,
        games: GameService,
        tables: ReviewTables,
        analysis: AnalysisService,
        pool: EnginePool,
        engine: ReviewEngine,
        emit: Emit,
        spawn: Callable[..., object],
        sleep: Callable[[float], object],
        headers_of: HeadersOf,
        queue_seconds: float = QUEUE_SECONDS,
        address_seconds: float = ADDRESS_SECONDS,
    ) -> None:
        self.games = games
        self.tables = tables
        self.analysis = analysis
        self.engine = engine
        self.setting = engine.setting
        self.spawn = spawn
        self.headers_of = headers_of
        self.pool = pool
        self.runner = ReviewRunner(self.tables, self.pool, engine, emit, spawn, sleep)
        self.buckets = AddressBuckets(REVIEW_BURST, REVIEW_INTERVAL)
        self.queue_seconds = queue_seconds
        self.address_seconds = address_seconds
        # Admissions one at a time: the drain time checked is the one the review joins.
        self.admission = threading.Lock()
        games.end_listeners.append(self.game_ended)

    def start(self) -> None:
        """Run the queue, the reviews left queued or running first."""
        self.runner.start()

    def close(self) -> None:
        self.runner.close()

    # -- asking for a review ---------------------------------------------------------------

    def review_game(self, game_id: str, address: str) -> tuple[StoredReview, bool]:
        """The review of a finished game here (new or not): `not_found`, `game_in_play`."""
        if not is_game_id(game_id):
            raise RequestError(
                "not_found", N_("no game with id {game_id}"), game_id=repr(game_id[:40])
            )
        found = self.tables.find_review(self.engine.key(game_id))
        if found is not None and found.status != "failed":
            return found, False
        with self.games.session(game_id) as game:
            if game.is_playing:
                raise RequestError(
                    "game_in_play", N_("the game is still being played: review it once it is over")
                )
            source = self._game_source(game)
        return self._add(source, address, limited=True)

    def review_of_game(self, game_id: str) -> StoredReview:
        """The review of a game here that has one (a failed one is none): else `not_found`."""
        found = self.tables.find_review(self.engine.key(game_id)) if is_game_id(game_id) else None
        if found is None or found.status == "failed":
            raise RequestError("not_found", f"game {game_id[:40]!r} has no review")
        return found

    def review_pgn(
        self, read: Callable[[ReviewSetting], ReviewSource], address: str
    ) -> tuple[StoredReview, bool]:
        """The review of a PGN's game, which `read` reads at the setting (`pgn_source`, in the
        work pool): the address's bucket is taken first, so a flood of posts is refused before
        any PGN is parsed (the same game posted again costs a token too)."""
        self.buckets.take(address, N_("reviews"))
        return self._add(read(self.setting), address, limited=True, taken=True)

    def game_ended(self, game: Game) -> None:
        """A game ended: queue its review if it was created with `review` (computer games).
        Called under the game's lock: the game is read here, the review stored on a task."""
        if not game.settings.review or game.settings.computer is None:
            return
        try:
            source = self._game_source(game)
        except RequestError as error:  # no moves, too long
            log.info("game %s is not reviewed: %s", game.id, error.message)
            return
        self.spawn(self._auto_review, source)

    def _auto_review(self, source: ReviewSource) -> None:
        try:
            self._add(source, AUTO_ADDRESS, limited=False)
        except RequestError as error:
            log.warning("the review of game %s was not queued: %s", source.key, error.message)

    def _game_source(self, game: Game) -> ReviewSource:
        headers = self.headers_of(game)
        moves = [(record.uci, record.san) for record in game.moves]
        return game_source(game.id, headers, game.settings.start_fen, moves)

    def _add(
        self, source: ReviewSource, address: str, limited: bool, taken: bool = False
    ) -> tuple[StoredReview, bool]:
        found = self.tables.find_review(self.engine.key(source.key))
        if found is not None and found.status != "failed":
            return found, False
        if limited and not taken:
            self.buckets.take(address, N_("reviews"))
        review = new_stored(secrets.token_urlsafe(6), source, self.engine, address, time.time())
        with self.admission:
            if limited:
                self._check_drain(review)
            stored, created = self._store(review, limited)
            if created:
                self.runner.add(stored)
        return stored, created

    def _check_drain(self, review: StoredReview) -> None:
        """Refuse a review the queue cannot drain in time (nothing is changed)."""
        queued = self.runner.queued(review)
        try:
            self.runner.queue.check(queued, self.queue_seconds, self.address_seconds)
        except DrainLimitError as error:
            minutes = f"{_duration(error.seconds)} (at most {_duration(error.limit)})"
            if error.what == "address":
                raise RequestError(
                    "rate_limited",
                    N_(
                        "the reviews your address has queued would keep the engine busy for "
                        "{minutes}; ask again when one is done"
                    ),
                    minutes=minutes,
                ) from error
            raise RequestError(
                "queue_full",
                N_(
                    "the review queue would take {minutes} to review this game's {total} "
                    "plies after those waiting; try again later"
                ),
                minutes=minutes,
                total=review.total - 1,
            ) from error

    def _store(self, review: StoredReview, limited: bool) -> tuple[StoredReview, bool]:
        try:
            return self.tables.add_review(review, PER_ADDRESS if limited else None, MAX_PENDING)
        except ReviewLimitError as error:
            if error.what == "address":
                raise RequestError(
                    "rate_limited",
                    N_(
                        "{PER_ADDRESS} reviews from your address are queued or running "
                        "already; ask again when one is done"
                    ),
                    PER_ADDRESS=PER_ADDRESS,
                ) from error
            raise RequestError(
                "queue_full",
                N_("the review queue is full ({MAX_PENDING} reviews waiting); try again later"),
                MAX_PENDING=MAX_PENDING,
            ) from error

    # -- reading ---------------------------------------------------------------------------

    def load(self, review_id: str) -> StoredReview:
        stored = self.tables.load_review(review_id) if is_review_id(review_id) else None
        if stored is None:
            raise RequestError(
                "not_found", N_("no review with id {review_id}"), review_id=repr(review_id[:20])
            )
        return stored

    def review(self, review_id: str) -> dict[str, Any]:
        """The review's JSON (docs/protocol.md, "Game review")."""
        return review_json(self.load(review_id))

    def pgn(self, review_id: str) -> str:
        """The reviewed PGN: `not_ready` until the review is done."""
        stored = self.load(review_id)
        if stored.pgn is None:
            raise RequestError(
                "not_ready",
                N_("review {review_id} is {status}: its PGN comes when it is done"),
                review_id=review_id,
                status=stored.status,
            )
        return stored.pgn

    # -- learn from your mistakes ----------------------------------------------------------

    def try_move(
        self, review_id: str, ply: int, move: Move, owner: str, client: str
    ) -> dict[str, Any]:
        """Whether `move` is good enough in the position before `ply` (server.review.puzzle);
        a move the review has no evaluation for is searched in the pool (one per `client`)."""
        found = puzzle.make_puzzle(self.review(review_id), ply)
        puzzle.legal_move(found, move)
        evaluation = puzzle.known_evaluation(found, move)
        if evaluation is None:
            evaluation = puzzle.after_evaluation(
                found, move, self._search_after(found, move, owner, client)
            )
        return puzzle.answer(found, move, evaluation)

    def _try_job(self, found: puzzle.Puzzle, move: Move) -> tuple[PoolJob, float]:
        """The search of the position after a tried move by the review's engine, and how long
        its answer may take: Stockfish at the review's nodes, or our engine at its setting."""
        fen, uci = found.board.fen(), move.uci()
        if self.engine.stockfish is not None:
            nodes = self.engine.nodes
            job = StockfishEvalJob(fen, (uci,), self.engine.stockfish, nodes)
            return job, search_bound(nodes) + TRY_SLACK_SECONDS
        seconds, depth = self.setting.seconds, self.setting.depth
        own = AnalysisJob(fen, [uci], 1, seconds, depth, allow_impossible_checks=True)
        return own, 2 * seconds + TRY_SLACK_SECONDS

    def _search_after(
        self, found: puzzle.Puzzle, move: Move, owner: str, client: str
    ) -> Evaluation | None:
        """The review's engine's evaluation of the position after `move` (None when it has
        no legal move)."""
        job, bound = self._try_job(found, move)
        finished = threading.Event()
        ended: list[AnalysisUpdate] = []

        def on_update(update: AnalysisUpdate) -> None:
            if update.done:
                ended.append(update)
                finished.set()

        key = f"try:{owner}"
        self.pool.start_analysis(key, f"try:{client}", job, on_update)
        if not finished.wait(bound):
            self.pool.stop_analysis(key)
            raise RequestError("not_ready", N_("the engine is busy; try the move again"))
        update = ended[0]
        if update.lines:
            return Evaluation.from_json(update.lines[0]["score"])
        after = found.board.copy()
        after.push(move)
        if not after.generate_legal():
            return None
        if update.preempted:
            raise RequestError("not_ready", N_("the engine was busy with a live game; try again"))
        # Stopped with no lines and not for a game: a newer try of this address took its place.
        raise RequestError("replaced", N_("a newer try replaced this one before it was searched"))


REVIEWS: Slot[ReviewService] = Slot("review service")
