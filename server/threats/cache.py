"""A position's facts encoded once, shared by every message and every receiver.

The state carries, beside the threat map, what `chesscore` says about the position (issue 7):
the x-ray attackers of the squares that have any, every pin line, what the last move changed
(`chesscore.analysis.insight`) and that move in words; the seat to move also gets the safety
label of each legal move (`chesscore.analysis.see`). These cost about a millisecond or two per
position, so they are computed once per position, put in the wire form
(server.threats.wire) and encoded to JSON text (server.edge.wire) once, and kept
in a small LRU cache shared by every game of the process: the key is the Zobrist keys of the
position and of the one before it, which fix the position, the last move and hence every fact
here, so a join, an HTTP read or a change that leaves the board alone (an offer, a seat
claimed) costs a dictionary look-up, and games in the same opening share their entries. Each
entry also keeps its pieces' relations (`chesscore.analysis.insight.PieceRelations`), which the
next move's change compares against: the facts after a move are made from those of the position
before, still cached from one move earlier, instead of walking that position's attacks again.
A state that no receiver gets overlays in (an unassisted game with no spectator) asks for the
facts without them (`position_facts(board, overlays=False)`: the last move in words and the
checked king only); the overlays are made when a receiver first comes, from the position
before when its own were made, from the board alone otherwise.
Previews of candidate moves are cached the same way, since a player dragging a piece hovers
over the same few squares again and again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from chesscore import Board, ChessError, Color, Move
from chesscore.analysis.describe import describe_played_move
from chesscore.analysis.insight import PieceRelations, last_move_change, preview, relations_of
from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import make_xray_map
from chesscore.rules.attacks import AttackLists
from server.edge.wire import JsonText, encode
from server.shared.errors import RequestError
from server.threats.wire import (
    insight_json,
    preview_json,
    safety_text,
    square_or_none,
    threats_json,
)

# Entries are only looked up again by joins, HTTP reads and changes that leave the board
# alone: a few hundred positions serve them, and each costs a few kilobytes.
FACTS_CACHE_SIZE = 512
PREVIEW_CACHE_SIZE = 1024

T = TypeVar("T")


class PositionFacts:
    """The threat map, the insight and the safety labels of one position, as JSON text ready
    to splice into every message that carries them (server.edge.wire): encoded once, they
    cost no more to send to three rooms than to one, and a few kilobytes to keep. Every state
    carries the last move in words and the checked king; the overlays (`threats`, `insight`,
    `relations`) are made when some receiver first gets them, and `safety` when the seat to
    move first does, so a game nobody watches with overlays costs neither."""

    def __init__(
        self, board: Board, before: PositionFacts | None = None, overlays: bool = True
    ) -> None:
        """The facts of `board`'s position, with its overlays unless `overlays` is false;
        `before` is the facts of the position before it, if the caller has them."""
        self.relations: PieceRelations | None = None
        self.attackers: AttackLists | None = None
        self.threats: JsonText | None = None
        self.insight: JsonText | None = None
        self.safety: JsonText | None = None
        last = last_move_of(board)
        # The last move in words is no overlay: every receiver gets it, assisted or not.
        self.announcement = None if last is None else describe_played_move(*last, board)
        self.checked_king = (
            square_or_none(board.king_square(board.turn)) if board.is_check() else None
        )
        if overlays:
            self._make_overlays(board, last, before)
        if before is not None:
            before.attackers = None  # its seat to move has moved: its labels are not asked now

    def overlays_of(self, board: Board) -> PositionFacts:
        """These facts with their overlays, made now if they were not (`board` is this
        position), from those of the position before when they are still cached."""
        if self.threats is None:
            self._make_overlays(board, last_move_of(board), _facts.peek(previous_key(board)))
        return self

    def _make_overlays(
        self, board: Board, last: tuple[Board, Move] | None, before: PositionFacts | None
    ) -> None:
        threats = make_threat_map(board)
        # Kept for the next move's change, whose "before" this position is: `before` is the
        # facts of the position before this one, made one move earlier if anyone got them.
        relations = relations_of(board, threats.attackers, threats.hanging)
        change = None
        if last is not None:
            previous, move = last
            known = None if before is None else before.relations
            change = last_move_change(previous, move, board, threats, relations, known)
        self.relations = relations
        # Kept for the safety labels, made from the same attack map, until they are made or
        # the next position's facts are: at most one map per game is held.
        self.attackers = threats.attackers
        # The pin lines of the x-ray map are the relations' (`find_pins_among`): not sought again.
        xrays = make_xray_map(board, relations.pins)
        self.insight = encode(insight_json(xrays, change))
        self.threats = encode(threats_json(threats))  # last: the mark of overlays made

    def safety_of(self, board: Board) -> JsonText:
        """The safety labels of `board` (this position), computed when the seat to move first
        asks: nobody needs them while the computer or an absent player is to move."""
        if self.safety is None:
            self.safety = safety_text(classify_destinations(board, self.attackers))
            self.attackers = None
        return self.safety


class LruCache:
    """A thread-safe least-recently-used map; values are made outside the lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[Any, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any, make: Callable[[], T]) -> T:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]  # type: ignore[no-any-return]
        # Two threads may both make a missing value; both results are equal, one is kept.
        value = make()
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def peek(self, key: Any) -> Any:
        """The value kept under `key` (None if there is none), made most recently used."""
        with self.lock:
            if key not in self.entries:
                return None
            self.entries.move_to_end(key)
            return self.entries[key]

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


_facts = LruCache(FACTS_CACHE_SIZE)
_previews = LruCache(PREVIEW_CACHE_SIZE)


def clear_caches() -> None:
    """Forget every cached fact (for measuring the cost of a first build)."""
    for cache in (_facts, _previews):
        with cache.lock:
            cache.entries.clear()


def last_move_of(board: Board) -> tuple[Board, Move] | None:
    """The position before `board`'s last move and that move (None before the first)."""
    if not board.ply:
        return None
    previous = board.copy()
    return previous, previous.pop()


def position_key(board: Board) -> tuple[int, ...]:
    """The Zobrist keys of the position and of the one before it (if the game has one)."""
    return tuple(board.keys[-2:])


def position_facts(board: Board, overlays: bool = True) -> PositionFacts:
    """The facts of `board`'s position, with their overlays unless `overlays` is false (a
    state nobody receives them in), made from those of the position before it when they are
    still cached (after a move they are: they were made one move earlier)."""
    facts: PositionFacts = _facts.get(
        position_key(board),
        lambda: PositionFacts(board, _facts.peek(previous_key(board)), overlays),
    )
    return facts.overlays_of(board) if overlays else facts


def previous_key(board: Board) -> tuple[int, ...]:
    """`position_key` of the position before the last move (`()` before the first move, a
    key that is never cached)."""
    return tuple(board.keys[-3:-1])


def cached_preview(board: Board, move: Move) -> dict[str, Any]:
    """The preview of `move` in `board` in the wire form (`chesscore.analysis.insight.preview`;
    `illegal_move` if the move is not legal there)."""
    key = (*position_key(board), move.uci())
    return _previews.get(key, lambda: make_preview(board, move))


def make_preview(board: Board, move: Move) -> dict[str, Any]:
    try:
        found = preview(board, move, make_threat_map(board))
    except ChessError as error:
        raise RequestError(
            "illegal_move", f"illegal move {move.uci()!r} in {board.fen()}"
        ) from error
    # The king a move checks is the opponent's, which the move leaves where it stands.
    return preview_json(found, checked_king(board, 1 - board.turn, found.threats.checkers))


def checked_king(board: Board, color: Color, checkers: Sequence[int]) -> int | None:
    """The square of `color`'s king when `checkers` (a threat map's) check it: the page draws
    their arrows to it."""
    return board.king_square(color) if checkers else None
