"""Parse the analysis board's payloads (Socket.IO) into typed requests.

A node of the page's tree is named by its path: the root FEN and the moves from it, the last of
which may be SAN (server.analysis.tree replays it). The same rules as every parser
(server.edge.fields): exactly the documented fields, each checked, every refusal
`bad_request` naming the field and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore import Move
from server.analysis.tree import MAX_PATH
from server.edge.fields import bad_request, expect_fields, integer_field, shorten, string_field
from server.games.requests import is_square_name, uci_move
from server.shared.errors import N_, RequestError

MAX_MULTIPV = 3


@dataclass(frozen=True)
class PathRequest:
    """A node of an analysis tree: the root FEN and the moves from it (the last may be SAN)."""

    fen: str
    moves: list[str]


@dataclass(frozen=True)
class AnalysisPreviewRequest:
    path: PathRequest
    move: Move


@dataclass(frozen=True)
class AnalysisDescribeRequest:
    path: PathRequest
    square: str


@dataclass(frozen=True)
class EngineRequest:
    path: PathRequest
    multipv: int


def _path(fields: dict[str, Any]) -> PathRequest:
    fen = string_field(fields, "fen", lambda text: 0 < len(text) <= 100, "a FEN")
    moves = fields.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_PATH:
        raise RequestError(
            "bad_request",
            N_("field 'moves' must be a list of at most {MAX_PATH} moves"),
            MAX_PATH=MAX_PATH,
        )
    for index, move in enumerate(moves):
        if not isinstance(move, str) or not 1 < len(move) <= 10:
            raise bad_request(f"field 'moves': move {index + 1} is not a move, got {shorten(move)}")
    return PathRequest(fen, moves)


def parse_path(payload: Any) -> PathRequest:
    return _path(expect_fields(payload, ("fen",), ("moves",)))


def parse_analysis_preview(payload: Any) -> AnalysisPreviewRequest:
    fields = expect_fields(payload, ("fen", "uci"), ("moves",))
    return AnalysisPreviewRequest(_path(fields), uci_move(fields))


def parse_analysis_describe(payload: Any) -> AnalysisDescribeRequest:
    fields = expect_fields(payload, ("fen", "square"), ("moves",))
    square = string_field(fields, "square", is_square_name, "a square name such as 'e4'")
    return AnalysisDescribeRequest(_path(fields), square)


def parse_engine_start(payload: Any) -> EngineRequest:
    fields = expect_fields(payload, ("fen",), ("moves", "multipv"))
    multipv = (
        integer_field(fields, "multipv", 1, MAX_MULTIPV) if "multipv" in fields else MAX_MULTIPV
    )
    return EngineRequest(_path(fields), multipv)
