"""Socket.IO events of the analysis board: the facts of any node, previews, squares in words.

The page holds the move tree; each request names a node by its path (root FEN and the moves
from it, server.games.requests.PathRequest), and the server replays the path and answers
about the position at its end, in the same forms as a game's state (threat map, insight,
safety labels, announcement), so the game page's overlays draw them unchanged. A path ending in
a move the tree does not have yet is how a move is made: the reply's `last_move` gives its SAN.
Nothing is stored. A root that cannot arise in a game but has legal moves is answered with a
notice (server.analysis.tree.parse_root). Every event is rate-limited like a game's look-ups,
and a long path replayed from its root is replayed in the work pool (server.work.offload),
under its per-address admission.
"""

from __future__ import annotations

from typing import Any

from flask import request

from chesscore import Board
from chesscore.rules.squares import COLOR_NAMES
from server.analysis.requests import (
    PathRequest,
    parse_analysis_describe,
    parse_analysis_preview,
    parse_path,
)
from server.analysis.tree import looks_like_uci, play_path_move, replay_path, say_notice
from server.edge.connections import CONNECTIONS
from server.games.lookups import describe
from server.games.messages import opening_json
from server.shared.errors import N_, RequestError
from server.threats.cache import LruCache, cached_preview, position_facts
from server.work.offload import PGN_BYTES_PER_MOVE, offload

BOARD_CACHE_SIZE = 256
# Paths longer than this are replayed in the work pool (server.work), whose board comes back in
# a fraction of a millisecond: a path of 1,000 moves took the serving process 25 to 90 ms.
REPLAY_IN_PROCESS = 100

# Boards at the end of recent paths, so a step along the tree replays one move, not the path.
_boards = LruCache(BOARD_CACHE_SIZE)


def board_at_path(path: PathRequest) -> tuple[Board, str | None]:
    """The board at the end of `path` and its root's notice: from the board of the path
    itself or of its parent when one was asked for lately, else replayed from the root, which
    draws its moves from the connection's replay bucket."""
    key = (path.fen, tuple(path.moves))
    found = _boards.peek(key)
    if found is None and path.moves:
        parent = _boards.peek((path.fen, key[1][:-1]))
        if parent is not None:
            board = parent[0].copy()
            play_path_move(board, path.moves[-1], len(path.moves) - 1, last=True)
            found = (board, parent[1])
    if found is None:
        sid = request.sid  # type: ignore[attr-defined]
        if not CONNECTIONS.get().allow_replay(sid, len(path.moves)):
            raise RequestError(
                "rate_limited", N_("too many long paths replayed on this connection; slow down")
            )
        found = _replay(path)
    if path.moves and not looks_like_uci(path.moves[-1]):  # kept under its UCI path
        board = found[0]
        last = board.pop()
        board.push(last)
        key = (path.fen, (*key[1][:-1], last.uci()))
    _boards.put(key, found)
    return found[0].copy(), found[1]


def _replay(path: PathRequest) -> tuple[Board, str | None]:
    """`replay_path` here for a short path, in the work pool for a long one."""
    if len(path.moves) <= REPLAY_IN_PROCESS:
        return replay_path(path.fen, path.moves)
    cost = len(path.moves) * PGN_BYTES_PER_MOVE
    return offload(cost, replay_path, path.fen, list(path.moves))


def make_position(board: Board, notice: str | None) -> dict[str, Any]:
    """The facts of `board` for the analysis page (docs/protocol.md, `analysis_position`)."""
    facts = position_facts(board)
    outcome = board.outcome()
    last_move = None
    if board.ply:
        move = board.pop()
        last_move = {"uci": move.uci(), "san": board.san(move)}
        board.push(move)
    playing = outcome is None
    return {
        "fen": board.fen(),
        "ply": board.ply,
        "turn": COLOR_NAMES[board.turn],
        "check": board.is_check(),
        "checked_king": facts.checked_king,
        "last_move": last_move,
        "status": "playing" if playing else "over",
        "outcome": None if outcome is None else outcome.to_json(),
        "dests": board.destinations() if playing else {},
        "promotions": board.promotion_targets() if playing else {},
        "threats": facts.threats,
        "insight": facts.insight,
        "safety": facts.safety_of(board) if playing else None,
        "announcement": facts.announcement,
        "opening": opening_json(board),
        "notice": say_notice(notice),
    }


def analysis_position(payload: Any) -> dict[str, Any]:
    board, notice = board_at_path(parse_path(payload))
    return {"ok": True, "position": make_position(board, notice)}


def analysis_preview(payload: Any) -> dict[str, Any]:
    request = parse_analysis_preview(payload)
    board, _ = board_at_path(request.path)
    return {"ok": True, "preview": cached_preview(board, request.move)}


def analysis_describe(payload: Any) -> dict[str, Any]:
    request = parse_analysis_describe(payload)
    board, _ = board_at_path(request.path)
    return {"ok": True, "text": describe(board, request.square, assisted=True)}


LOOKUPS = {
    "analysis_position": analysis_position,
    "analysis_preview": analysis_preview,
    "analysis_describe": analysis_describe,
}
