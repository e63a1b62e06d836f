"""Threat insight for the server: a position's facts computed once, shared by every receiver.

The state carries, beside the threat map, what `chesscore` says about the position (issue 7):
the x-ray attackers of the squares that have any, every pin line, what the last move changed
(`chesscore.analysis.insight.compare_positions`) and that move in words; the seat to move also
gets the safety label of each legal move (`chesscore.analysis.see`). These cost about a
millisecond or two per position, so they are computed once per position and kept in a small LRU
cache shared by every game of the process: the key is the Zobrist keys of the position and of
the one before it, which fix the position, the last move and hence every fact here, so a join,
an HTTP read or a change that leaves the board alone (an offer, a seat claimed) costs a
dictionary look-up, and games in the same opening share their entries. Previews of candidate
moves are cached the same way, since a player dragging a piece hovers over the same few squares
again and again. The cached facts are JSON text (`server.transport.wire.JsonText`), shared by every
message built from them; a preview or a square's description builds the threat map it needs anew
(a few dozen microseconds).

A threat map leaves the server as `compact_threats` makes it: chesscore's `squares` lists all 64
squares with both colours, mostly empty; the wire form lists per colour only the squares that
colour attacks or defends, which is under half the text and half the time to encode and decode.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from chesscore import Board, Color, Move
from chesscore.analysis.describe import PIECE_NAMES, describe_square
from chesscore.analysis.insight import Change, Preview, describe_last_move, preview
from chesscore.analysis.see import classify_destinations
from chesscore.analysis.threats import SquareAttackers, ThreatMap, make_threat_map
from chesscore.analysis.xray import make_xray_map
from chesscore.rules.squares import COLOR_NAMES, parse_square, square_name
from server.transport.wire import JsonText, encode

# Entries are only looked up again by joins, HTTP reads and changes that leave the board
# alone: a few hundred positions serve them, and each costs a few kilobytes.
FACTS_CACHE_SIZE = 512
PREVIEW_CACHE_SIZE = 1024

T = TypeVar("T")


class PositionFacts:
    """The threat map, the insight and (on first use) the safety labels of one position, as
    JSON text ready to splice into every message that carries them (server.transport.wire): encoded
    once, they cost no more to send to three rooms than to one, and a few kilobytes to keep."""

    def __init__(self, board: Board) -> None:
        threats = make_threat_map(board)
        change, announcement = describe_last_move(board, threats)
        self.threats = encode(compact_threats(threats))
        self.insight = encode(make_position_insight(board, change))
        # The last move in words is no overlay: every receiver gets it, assisted or not.
        self.announcement = announcement
        self.checked_king = checked_king(board, board.turn, threats["checkers"])
        self.safety: JsonText | None = None

    def safety_of(self, board: Board) -> JsonText:
        """The safety labels of `board` (this position), computed when the seat to move first
        asks: nobody needs them while the computer or an absent player is to move."""
        if self.safety is None:
            self.safety = encode(classify_destinations(board))
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


_facts = LruCache(FACTS_CACHE_SIZE)
_previews = LruCache(PREVIEW_CACHE_SIZE)


def clear_caches() -> None:
    """Forget every cached fact (for measuring the cost of a first build)."""
    for cache in (_facts, _previews):
        with cache.lock:
            cache.entries.clear()


def position_key(board: Board) -> tuple[int, ...]:
    """The Zobrist keys of the position and of the one before it (if the game has one)."""
    return tuple(board.keys[-2:])


def position_facts(board: Board) -> PositionFacts:
    return _facts.get(position_key(board), lambda: PositionFacts(board))


def cached_preview(board: Board, move: Move) -> dict[str, Any]:
    """`chesscore.analysis.insight.preview` of the legal `move` (IllegalMoveError otherwise),
    its threat map in the wire form."""
    key = (*position_key(board), move.uci())
    return _previews.get(key, lambda: make_preview(board, move))


def wire_preview(found: Preview, king: str | None) -> dict[str, Any]:
    """A preview as the server sends it: its threat map compacted, and `checked_king`, the
    king the move puts in check (or None)."""
    return {**found, "threats": compact_threats(found["threats"]), "checked_king": king}


def make_preview(board: Board, move: Move) -> dict[str, Any]:
    found = preview(board, move, make_threat_map(board))
    # The king a move checks is the opponent's, which the move leaves where it stands.
    king = checked_king(board, 1 - board.turn, found["threats"]["checkers"])
    return wire_preview(found, king)


def checked_king(board: Board, color: Color, checkers: list[str]) -> str | None:
    """The square of `color`'s king when the threat map's `checkers` check it (the page draws
    their arrows to it), else None."""
    return square_name(board.king_square(color)) if checkers else None


def compact_threats(threats: ThreatMap) -> dict[str, Any]:
    """The threat map's wire form (docs/protocol.md): `squares` gives way to `attackers`,
    colour -> square -> the squares of that colour's pieces attacking or defending it, listing
    only the squares the colour reaches; `checkers`, `pins` and `hanging` as they are."""
    squares = threats["squares"]
    return {
        "attackers": {"white": _reached(squares, "white"), "black": _reached(squares, "black")},
        "checkers": threats["checkers"],
        "pins": threats["pins"],
        "hanging": threats["hanging"],
    }


def _reached(
    squares: dict[str, SquareAttackers], color: Literal["white", "black"]
) -> dict[str, list[str]]:
    """The squares `color` attacks or defends, with the squares of its pieces that do."""
    return {square: sides[color] for square, sides in squares.items() if sides[color]}


def make_position_insight(board: Board, change: Change | None) -> dict[str, Any]:
    """The state's `insight` (docs/protocol.md): x-rays of the squares that have any, pin
    lines and the last move's `change`. The 64 square descriptions are left out (about 5.6 KB
    a state): the page asks for one with the `describe` event on focus."""
    xrays = make_xray_map(board)
    return {
        "xrays": {
            name: sides
            for name, sides in xrays["squares"].items()
            if sides["white"] or sides["black"]
        },
        "pins": xrays["pins"],
        "change": change,
    }


def describe(board: Board, square: str, *, assisted: bool) -> str:
    """The square in words: every attacker and defender (chesscore.analysis.describe) when
    `assisted`, else only what stands on it, which is what a sighted player sees without
    overlays."""
    if assisted:
        return describe_square(board, square, make_threat_map(board))
    piece = board.piece_at(parse_square(square))
    if piece is None:
        return f"{square}, empty"
    return f"{square}, {COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]}"
