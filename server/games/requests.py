"""Parse what clients send into typed requests; every refusal names what was wrong.

Payloads arrive as whatever JSON (or garbage) a client chose to send. Each `parse_*` function
accepts exactly the documented object (docs/protocol.md): a missing field, an unknown field, a
wrong type (a boolean is not an integer), a value out of range, a malformed game id, token,
UCI move or FEN all raise `RequestError("bad_request", ...)` quoting the field and, shortened,
the value. Nothing past this module sees an unchecked value.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chesscore import BLACK, WHITE, Board, ChessError, Move
from server.analysis.tree import MAX_PATH
from server.games.actions import ACTIONS
from server.games.clock import ClockSettings
from server.games.computer import check_level
from server.games.play import OFFER_KINDS, NewGame
from server.games.seats import is_game_id, is_token
from server.shared.errors import RequestError
from server.shared.names import NAME_WHAT, is_name

COLORS = {"white": WHITE, "black": BLACK, "random": None}
MAX_CLOCK_MINUTES = 180
MAX_INCREMENT_SECONDS = 180
MAX_VERSION = 2**31
MAX_FEN_LENGTH = 100


@dataclass(frozen=True)
class JoinRequest:
    game: str
    seat: str | None = None
    invite: str | None = None
    since: int | None = None
    name: str | None = None  # a player's display name: the invited friend's, kept once


@dataclass(frozen=True)
class GameRequest:
    """An action naming only its game: leave, resign, abort, claim_draw."""

    game: str


@dataclass(frozen=True)
class MoveRequest:
    """A move as UCI (a parsed `Move`) or as SAN text, which only the game's position can read."""

    game: str
    ply: int
    move: Move | str


@dataclass(frozen=True)
class PremoveRequest:
    """A move queued for the seat's next turn (the `premove` event), or None to cancel it."""

    game: str
    move: Move | None


@dataclass(frozen=True)
class PreviewRequest:
    """A legal move to look at without playing it (the `preview` event): UCI only."""

    game: str
    ply: int
    move: Move


@dataclass(frozen=True)
class DescribeRequest:
    """A square of the position at `ply`, to be read out (the `describe` event)."""

    game: str
    ply: int
    square: str


@dataclass(frozen=True)
class OfferRequest:
    """offer / accept / decline of a `kind` (draw, takeback, rematch)."""

    game: str
    kind: str


@dataclass(frozen=True)
class ActionRequest:
    """An HTTP action: `action` from `server.games.actions.ACTIONS`, with `kind` if it takes one."""

    action: str
    kind: str | None = None


def shorten(value: Any, limit: int = 40) -> str:
    """repr() of a bad value, cut so a huge payload never makes a huge error."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bad(message: str) -> RequestError:
    return RequestError("bad_request", message)


def _fields(
    payload: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The payload as a dict with exactly the allowed keys and every required one."""
    if not isinstance(payload, dict):
        raise _bad(
            f"the payload must be a JSON object, got {type(payload).__name__} {shorten(payload)}"
        )
    unknown = sorted(str(key) for key in payload if key not in required + optional)
    if unknown:
        raise _bad(f"unknown field(s) {', '.join(shorten(name, 30) for name in unknown)}")
    missing = [name for name in required if name not in payload]
    if missing:
        raise _bad(f"missing field(s) {', '.join(repr(name) for name in missing)}")
    return payload


def _string(payload: dict[str, Any], name: str, check: Callable[[str], bool], what: str) -> str:
    value = payload[name]
    if not isinstance(value, str) or not check(value):
        raise _bad(f"field {name!r} must be {what}, got {shorten(value)}")
    return value


def _optional_string(
    payload: dict[str, Any], name: str, check: Callable[[str], bool], what: str
) -> str | None:
    if payload.get(name) is None:
        return None
    return _string(payload, name, check, what)


def _integer(payload: dict[str, Any], name: str, low: int, high: int) -> int:
    value = payload[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"field {name!r} must be an integer, got {shorten(value)}")
    if not low <= value <= high:
        raise _bad(f"field {name!r} must be between {low} and {high}, got {value}")
    return value


def _number(payload: dict[str, Any], name: str, low: float, high: float) -> float:
    value = payload[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _bad(f"field {name!r} must be a number, got {shorten(value)}")
    if not low <= value <= high:
        raise _bad(f"field {name!r} must be between {low} and {high}, got {value}")
    return float(value)


def _game_id(payload: dict[str, Any]) -> str:
    return _string(payload, "game", is_game_id, "a game id (12 characters A-Z a-z 0-9 _ -)")


def _kind(payload: dict[str, Any]) -> str:
    return _string(
        payload, "kind", lambda text: text in OFFER_KINDS, f"one of {', '.join(OFFER_KINDS)}"
    )


TOKEN_WHAT = "a token (43 characters A-Z a-z 0-9 _ -)"


def parse_join(payload: Any) -> JoinRequest:
    fields = _fields(payload, ("game",), ("seat", "invite", "since", "name"))
    since = (
        None
        if fields.get("since") is None
        else _integer(fields, "since", -MAX_VERSION, MAX_VERSION)
    )
    return JoinRequest(
        _game_id(fields),
        _optional_string(fields, "seat", is_token, TOKEN_WHAT),
        _optional_string(fields, "invite", is_token, TOKEN_WHAT),
        since,
        parse_name(fields),
    )


def parse_game_request(payload: Any) -> GameRequest:
    return GameRequest(_game_id(_fields(payload, ("game",))))


MAX_SAN_LENGTH = 20


def parse_move_fields(fields: dict[str, Any]) -> tuple[int, Move | str]:
    """The `ply` and the move of a move request (shared by Socket.IO and HTTP): exactly one of
    `uci` (parsed here) and `san` (checked for shape only: its meaning depends on the position,
    so the session parses it under the game's lock)."""
    ply = _integer(fields, "ply", 0, MAX_VERSION)
    if ("uci" in fields) == ("san" in fields):
        raise _bad("exactly one of the fields 'uci' and 'san' is needed")
    if "san" in fields:
        san = fields["san"]
        if not isinstance(san, str) or not 0 < len(san.strip()) <= MAX_SAN_LENGTH:
            raise _bad(f"field 'san' must be a SAN move such as 'Nf3' or 'O-O', got {shorten(san)}")
        return ply, san
    return ply, _uci_move(fields)


def _uci_move(fields: dict[str, Any], name: str = "uci") -> Move:
    """The UCI move in `fields["uci"]`; errors name the field as the client called it."""
    uci = fields["uci"]
    if not isinstance(uci, str) or not 4 <= len(uci) <= 5:
        example = "a UCI move such as 'e2e4' or 'e7e8q'"
        raise _bad(f"field {name!r} must be {example}, got {shorten(uci)}")
    try:
        return Move.from_uci(uci)
    except ChessError as error:
        raise _bad(f"field {name!r}: {error}") from error


def parse_move(payload: Any) -> MoveRequest:
    fields = _fields(payload, ("game", "ply"), ("uci", "san"))
    game = _game_id(fields)
    ply, move = parse_move_fields(fields)
    return MoveRequest(game, ply, move)


def parse_premove(payload: Any) -> PremoveRequest:
    fields = _fields(payload, ("game", "move"))
    game = _game_id(fields)
    if fields["move"] is None:
        return PremoveRequest(game, None)
    return PremoveRequest(game, _uci_move({"uci": fields["move"]}, "move"))


def parse_preview(payload: Any) -> PreviewRequest:
    fields = _fields(payload, ("game", "ply", "uci"))
    game = _game_id(fields)
    return PreviewRequest(game, _integer(fields, "ply", 0, MAX_VERSION), _uci_move(fields))


def parse_describe(payload: Any) -> DescribeRequest:
    fields = _fields(payload, ("game", "ply", "square"))
    game = _game_id(fields)
    ply = _integer(fields, "ply", 0, MAX_VERSION)
    square = _string(fields, "square", is_square_name, "a square name such as 'e4'")
    return DescribeRequest(game, ply, square)


def is_square_name(text: str) -> bool:
    return len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678"


def parse_http_move(payload: Any) -> tuple[int, Move | str]:
    return parse_move_fields(_fields(payload, ("ply",), ("uci", "san")))


def parse_offer(payload: Any) -> OfferRequest:
    fields = _fields(payload, ("game", "kind"))
    return OfferRequest(_game_id(fields), _kind(fields))


def parse_action(payload: Any) -> ActionRequest:
    fields = _fields(payload, ("action",), ("kind",))
    action = _string(fields, "action", lambda text: text in ACTIONS, f"one of {', '.join(ACTIONS)}")
    takes_kind = ACTIONS[action].takes_kind
    if takes_kind and fields.get("kind") is None:
        raise _bad(f"field 'kind' is needed with action {action!r}")
    if not takes_kind and "kind" in fields:
        raise _bad(f"field 'kind' is not used with action {action!r}")
    return ActionRequest(action, _kind(fields) if takes_kind else None)


def parse_invite(payload: Any) -> tuple[str, str | None]:
    """An invitation claimed over HTTP: its token, and the friend's display name if given."""
    fields = _fields(payload, ("invite",), ("name",))
    return _string(fields, "invite", is_token, TOKEN_WHAT), parse_name(fields)


def parse_create(payload: Any) -> NewGame:
    """A new game's request, parsed into the games' own `NewGame` that the service takes."""
    fields = _fields(
        payload, ("opponent",), ("color", "fen", "clock", "level", "assisted", "name", "review")
    )
    opponent = _string(
        fields, "opponent", lambda t: t in ("friend", "computer"), "'friend' or 'computer'"
    )
    color_text = (
        "random"
        if fields.get("color") is None
        else _string(fields, "color", lambda t: t in COLORS, "'white', 'black' or 'random'")
    )
    return NewGame(
        opponent,
        COLORS[color_text],
        _parse_fen(fields),
        _parse_clock(fields),
        _parse_level(fields, opponent),
        _parse_assisted(fields),
        parse_name(fields),
        _parse_review(fields, opponent),
    )


def _parse_review(fields: dict[str, Any], opponent: str) -> bool:
    """The optional `review` flag: review the game when it ends (computer games only)."""
    value = fields.get("review")
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(f"field 'review' must be true or false, got {shorten(value)}")
    if value and opponent != "computer":
        raise _bad("field 'review' is only for games against the computer")
    return value


def parse_name(fields: dict[str, Any]) -> str | None:
    """The optional `name` field: a display name (server.shared.names) or None."""
    return _optional_string(fields, "name", is_name, NAME_WHAT)


def _parse_assisted(fields: dict[str, Any]) -> bool:
    value = fields.get("assisted")
    if value is None:
        return True
    if not isinstance(value, bool):
        raise _bad(f"field 'assisted' must be true or false, got {shorten(value)}")
    return value


def _parse_fen(fields: dict[str, Any]) -> str:
    if fields.get("fen") is None:
        return Board().fen()
    fen = _string(
        fields, "fen", lambda t: 0 < len(t) <= MAX_FEN_LENGTH, "a FEN of at most 100 characters"
    )
    try:
        return Board.from_fen(fen).fen()
    except ChessError as error:
        raise _bad(f"field 'fen': {error}") from error


def _parse_clock(fields: dict[str, Any]) -> ClockSettings | None:
    if fields.get("clock") is None:
        return None
    clock = fields["clock"]
    if not isinstance(clock, dict):
        raise _bad(f"field 'clock' must be an object {{minutes, increment}}, got {shorten(clock)}")
    clock = _fields(clock, ("minutes",), ("increment",))
    minutes = _number(clock, "minutes", 0, MAX_CLOCK_MINUTES)
    if minutes <= 0:
        raise _bad("field 'minutes' must be above 0")
    increment = (
        0.0
        if clock.get("increment") is None
        else _number(clock, "increment", 0, MAX_INCREMENT_SECONDS)
    )
    return ClockSettings(max(1, round(minutes * 60_000)), round(increment * 1000))


def _parse_level(fields: dict[str, Any], opponent: str) -> int | None:
    if fields.get("level") is None:
        return 1 if opponent == "computer" else None
    if opponent != "computer":
        raise _bad("field 'level' is only for games against the computer")
    level = _integer(fields, "level", 1, 100)
    try:
        check_level(level)
    except ChessError as error:
        raise _bad(f"field 'level': {error}") from error
    return level


# -- the analysis board: a node is named by its path (root FEN, UCI moves) ------------------

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
    fen = _string(fields, "fen", lambda text: 0 < len(text) <= 100, "a FEN")
    moves = fields.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_PATH:
        raise _bad(f"field 'moves' must be a list of at most {MAX_PATH} moves")
    for index, move in enumerate(moves):
        if not isinstance(move, str) or not 1 < len(move) <= 10:
            raise _bad(f"field 'moves': move {index + 1} is not a move, got {shorten(move)}")
    return PathRequest(fen, moves)


def parse_path(payload: Any) -> PathRequest:
    return _path(_fields(payload, ("fen",), ("moves",)))


def parse_analysis_preview(payload: Any) -> AnalysisPreviewRequest:
    fields = _fields(payload, ("fen", "uci"), ("moves",))
    return AnalysisPreviewRequest(_path(fields), _uci_move(fields))


def parse_analysis_describe(payload: Any) -> AnalysisDescribeRequest:
    fields = _fields(payload, ("fen", "square"), ("moves",))
    square = _string(fields, "square", is_square_name, "a square name such as 'e4'")
    return AnalysisDescribeRequest(_path(fields), square)


def parse_engine_start(payload: Any) -> EngineRequest:
    fields = _fields(payload, ("fen",), ("moves", "multipv"))
    multipv = _integer(fields, "multipv", 1, MAX_MULTIPV) if "multipv" in fields else MAX_MULTIPV
    return EngineRequest(_path(fields), multipv)
