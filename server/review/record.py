"""A review's record: its JSON as the API serves it, and the live state of a running review.

The JSON (docs/protocol.md, "Game review") is complete from the start: every ply with what was
played and its position, the rest null until judged. `ReviewProgress` holds a running review's
JSON and the positions' evaluations (the `PositionEval`s it was judged from and which of them
the second look searched again, kept to resume a review cut short and stored as JSON:
`evals_to_json`), takes each `ReviewUpdate` from the pool
as it comes (on the pool's reader), and hands out what changed since the last push
(`take_changes`), which the runner writes and emits at most about once a second.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from chesscore.analysis.judgement import Evaluation
from chesscore.review.evaluate import PositionEval, ReviewSetting
from chesscore.rules.move import Move
from chesscore.words import Message, message_to_json, render
from server.review.engines import ReviewEngine
from server.review.job import ReviewJob, ReviewUpdate
from server.review.sources import ReviewSource, skeleton_plies
from server.review.stockfish_job import StockfishReviewJob, split_positions
from server.review.tables import StoredReview

# What a finished review's summary adds to its JSON (and to the push that says it is done).
SUMMARY_FIELDS = ("accuracy", "phases", "phase_accuracy", "accuracy_so_far", "counts")


def new_review_json(review_id: str, source: ReviewSource, engine: ReviewEngine) -> dict[str, Any]:
    """A queued review's JSON: nothing evaluated yet; the engine that will evaluate it."""
    plies = len(source.ucis)
    return {
        "id": review_id,
        "status": "queued",
        "error": None,
        "progress": {"done": 0, "total": plies + 1},
        "source": source.source,
        "headers": source.headers,
        "start_fen": source.start_fen,
        "setting": engine.setting.to_json(),
        "engine": engine.to_json(),
        "initial": None,
        "plies": skeleton_plies(source),
        "accuracy": None,
        "phases": None,
        "phase_accuracy": None,
        "accuracy_so_far": None,
        "counts": None,
    }


def new_stored(
    review_id: str, source: ReviewSource, engine: ReviewEngine, address: str, now: float
) -> StoredReview:
    body = new_review_json(review_id, source, engine)
    total = body["progress"]["total"]
    return StoredReview(
        review_id, engine.key(source.key), "queued", 0, total, json.dumps(body), "[]", None,
        address, None, now, now,
    )  # fmt: skip


def review_json(stored: StoredReview) -> dict[str, Any]:
    """The review's JSON from its row (status and progress as the row has them)."""
    body: dict[str, Any] = json.loads(stored.results)
    for field in SUMMARY_FIELDS:
        body.setdefault(field, None)  # a review stored before the phases were summed up
    body["status"] = stored.status
    body["progress"] = {"done": stored.done, "total": stored.total}
    return body


def eval_to_json(position: PositionEval, verified: bool) -> dict[str, Any]:
    evaluation = position.evaluation
    return {
        "index": position.index,
        "eval": None if evaluation is None else evaluation.to_json(),
        "line": [move.uci() for move in position.line],
        "depth": position.depth,
        "nodes": position.nodes,
        "verified": verified,
    }


def eval_from_json(data: dict[str, Any]) -> PositionEval:
    evaluation = None if data["eval"] is None else Evaluation.from_json(data["eval"])
    line = tuple(Move.from_uci(uci) for uci in data["line"])
    return PositionEval(data["index"], evaluation, line, data["depth"], data["nodes"])


def evals_to_json(evals: list[PositionEval], verified: set[int]) -> str:
    """The positions' evaluations as stored, each marked when the second look has it."""
    items = [eval_to_json(position, position.index in verified) for position in evals]
    return json.dumps(items, separators=(",", ":"))


def evals_from_json(text: str) -> tuple[list[PositionEval], set[int]]:
    """The stored evaluations and the indexes the second look has done."""
    items = json.loads(text)
    verified = {item["index"] for item in items if item.get("verified")}
    return [eval_from_json(item) for item in items], verified


class ReviewProgress:
    """A running review: its JSON, its evaluations so far, and what changed since the last
    `take_changes`. `apply` runs on the pool's update reader, the rest on the runner."""

    def __init__(self, stored: StoredReview) -> None:
        self.id = stored.id
        self.body = review_json(stored)
        evals, self.verified = evals_from_json(stored.evals)
        self.evals = {position.index: position for position in evals}
        self.pgn = stored.pgn
        self.lock = threading.Lock()
        self.changed_plies: set[int] = set()
        self.initial_changed = False
        self.status_changed = True  # the first push says the review runs
        self.pushed_at = 0.0
        self.written_at = 0.0

    @property
    def total(self) -> int:
        return int(self.body["progress"]["total"])

    @property
    def complete(self) -> bool:
        return self.body["status"] in ("done", "failed")

    def job(self, setting: ReviewSetting) -> ReviewJob:
        """Our engine's job from where the review is: the positions evaluated (0 to k - 1:
        its first pass goes in order) and verified so far."""
        with self.lock:
            moves, headers = self._game()
            earlier = tuple(self.evals[index] for index in sorted(self.evals))
            verified = tuple(sorted(self.verified))
        return ReviewJob(self.body["start_fen"], moves, headers, setting, earlier, verified)

    def stockfish_jobs(self, engine: ReviewEngine, lanes: int) -> list[StockfishReviewJob]:
        """Stockfish's jobs from where the review is: the positions left in at most `lanes`
        runs, each job knowing every position evaluated; one job to sum up when none is left."""
        assert engine.stockfish is not None
        with self.lock:
            moves, headers = self._game()
            known = tuple(self.evals[index] for index in sorted(self.evals))
            missing = [index for index in range(self.total) if index not in self.evals]
            verified = tuple(sorted(self.verified))
        runs = split_positions(missing, lanes) or [()]
        return [
            StockfishReviewJob(
                self.body["start_fen"],
                moves,
                headers,
                engine.stockfish,
                engine.nodes,
                run,
                known,
                verified,
            )
            for run in runs
        ]

    def _game(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        moves = tuple(ply["uci"] for ply in self.body["plies"])
        return moves, tuple(self.body["headers"].items())

    def set_status(self, status: str, error: Message | None = None) -> None:
        """The review's status, and why it failed: in English (`error`) and as a message said
        in each reader's language at read (`error_words`, server.review.said)."""
        with self.lock:
            self.body["status"] = status
            self.body["error"] = None if error is None else render(error)
            self.body["error_words"] = None if error is None else message_to_json(error)
            self.status_changed = True

    def apply(self, update: ReviewUpdate) -> None:
        """An evaluated position (with a judged ply or the initial item), a judged ply, a
        position the second look searched again, or the summary of a finished review."""
        with self.lock:
            position = update.position
            if position is not None and not update.verified and position.index not in self.evals:
                self.evals[position.index] = position
                self.body["progress"]["done"] = len(self.evals)
                if update.initial is not None:
                    self.body["initial"] = update.initial
                    self.initial_changed = True
            elif position is not None and update.verified and position.index in self.evals:
                self.evals[position.index] = position
                self.verified.add(position.index)
            if update.ply is not None:
                self.body["plies"][update.ply["ply"] - 1] = update.ply
                self.changed_plies.add(update.ply["ply"])
            if update.summary is not None and len(self.evals) == self.total:
                self._judged_again(update.summary["plies"])
                for field in SUMMARY_FIELDS:
                    self.body[field] = update.summary[field]
                self.pgn = update.summary["pgn"]
                self.body["status"] = "done"
                self.status_changed = True

    def _judged_again(self, plies: list[dict[str, Any]]) -> None:
        """Every ply judged from the evaluations the second look merged in: those that
        changed (a class, an evaluation) take their place and go out with the next push."""
        for item in plies:
            if self.body["plies"][item["ply"] - 1] != item:
                self.body["plies"][item["ply"] - 1] = item
                self.changed_plies.add(item["ply"])

    def take_changes(self) -> tuple[bool, dict[str, Any], dict[str, Any]]:
        """(whether anything changed, the row's fields to write, the `review_update` payload)
        since the last call: the judged plies, the initial item, the summary once done. One
        lock holds it all, so a change that arrives while the runner pushes is either in this
        payload and its write, or in the next."""
        with self.lock:
            changed = bool(self.changed_plies or self.initial_changed or self.status_changed)
            body = self.body
            payload: dict[str, Any] = {
                "id": self.id,
                "status": body["status"],
                "progress": dict(body["progress"]),
                "plies": [body["plies"][index - 1] for index in sorted(self.changed_plies)],
            }
            if self.initial_changed:
                payload["initial"] = body["initial"]
            if body["status"] in ("done", "failed"):
                payload.update({field: body.get(field) for field in SUMMARY_FIELDS})
                payload["error"] = body["error"]
                payload["error_words"] = body.get("error_words")
            fields = {
                "status": body["status"],
                "done": body["progress"]["done"],
                "total": body["progress"]["total"],
                "results": json.dumps(body, separators=(",", ":")),
                "evals": evals_to_json(
                    [self.evals[index] for index in sorted(self.evals)], self.verified
                ),
                "pgn": self.pgn,
                "updated": time.time(),
            }
            self.changed_plies.clear()
            self.initial_changed = self.status_changed = False
        return changed, fields, payload
