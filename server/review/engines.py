"""Who evaluates a review's positions: Stockfish at a node budget, or our own engine.

A `ReviewEngine` is the server's choice, made once at start (server.engine.stockfish's
`choose_stockfish` of CHESS_STOCKFISH, and REVIEW_NODES): the review's JSON remembers it
(`to_json`: `{"name": "Stockfish 19 lite", "nodes": 300000}`, or our engine's name with its
seconds and depth a position), and a review is stored under its game's key with the engine's
family appended (`key`), so a game reviewed by our own engine may be asked for again and gets a
new review by Stockfish, while asking again of the same engine answers the same review.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore.review.evaluate import ReviewSetting
from server.engine.positions import check_nodes
from server.engine.stockfish import StockfishSpec

# Stockfish's nodes a position (bench/review_timing.py): an 80-ply game within a minute on the
# 2 workers of a 2-core machine under Node, first plies within 2 s. lichess's fishnet gives a
# requested analysis about 1,000,000 with a native engine.
DEFAULT_NODES = 300_000
OWN_ENGINE = "our engine"
STOCKFISH_KEY = "@stockfish"
# Stockfish's speed on one pool worker, for the review queue's drain time only: the lite build
# under Node searched about 600,000 nodes a second a worker here (README, "Performance": 80
# plies at 300,000 nodes in 22.8 s on 2 workers).
STOCKFISH_NODES_PER_SECOND = 600_000


@dataclass(frozen=True)
class ReviewEngine:
    """Stockfish (`stockfish`, with `nodes` a position) or, when None, our own engine within
    `setting` (which also bounds a tried move's search when Stockfish is not there)."""

    setting: ReviewSetting
    stockfish: StockfishSpec | None = None
    nodes: int = DEFAULT_NODES

    def __post_init__(self) -> None:
        check_nodes(self.nodes)

    def to_json(self) -> dict[str, Any]:
        """The review JSON's "engine": its name and budget a position."""
        if self.stockfish is None:
            return {"name": OWN_ENGINE, **self.setting.to_json()}
        return {"name": self.stockfish.name, "nodes": self.nodes}

    def position_seconds(self, workers: int) -> float:
        """The estimated seconds a position of a review costs the queue: Stockfish's nodes
        spread over the pool's `workers` (one job each), or our engine's bound (one job)."""
        if self.stockfish is None:
            return self.setting.seconds
        return self.nodes / STOCKFISH_NODES_PER_SECOND / max(1, workers)

    def key(self, source_key: str) -> str:
        """The stored review's key of a game (a game's id, a PGN's hash) for this engine."""
        return source_key if self.stockfish is None else source_key + STOCKFISH_KEY
