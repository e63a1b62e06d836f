"""Parse what clients send into typed requests; every refusal names what was wrong.

Payloads arrive as whatever JSON (or garbage) a client chose to send. Each `parse_*` function
accepts exactly the documented object (docs/protocol.md): a missing field, an unknown field, a
wrong type (a boolean is not an integer), a value out of range, a malformed game id, token,
UCI move or FEN all raise `RequestError("bad_request", ...)` quoting the field and, shortened,
the value. Nothing past this module sees an unchecked value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chesscore import BLACK, WHITE, Board, ChessError, Move
from server.edge.fields import (
    bad_request,
    expect_fields,
    integer_field,
    number_field,
    optional_string_field,
    shorten,
    string_field,
)
from server.games.actions import ACTIONS
from server.games.clock import ClockSettings
from server.games.computer import check_level
from server.games.play import OFFER_KINDS, NewGame
from server.games.seats import is_game_id
from server.shared.errors import N_, RequestError
from server.shared.names import NAME_WHAT, is_name
from server.shared.tokens import is_token

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


def _game_id(payload: dict[str, Any]) -> str:
    return string_field(payload, "game", is_game_id, "a game id (12 characters A-Z a-z 0-9 _ -)")


def _kind(payload: dict[str, Any]) -> str:
    return string_field(
        payload, "kind", lambda text: text in OFFER_KINDS, f"one of {', '.join(OFFER_KINDS)}"
    )


TOKEN_WHAT = "a token (43 characters A-Z a-z 0-9 _ -)"


def parse_join(payload: Any) -> JoinRequest:
    fields = expect_fields(payload, ("game",), ("seat", "invite", "since", "name"))
    since = (
        None
        if fields.get("since") is None
        else integer_field(fields, "since", -MAX_VERSION, MAX_VERSION)
    )
    return JoinRequest(
        _game_id(fields),
        optional_string_field(fields, "seat", is_token, TOKEN_WHAT),
        optional_string_field(fields, "invite", is_token, TOKEN_WHAT),
        since,
        parse_name(fields),
    )


def parse_game_request(payload: Any) -> GameRequest:
    return GameRequest(_game_id(expect_fields(payload, ("game",))))


MAX_SAN_LENGTH = 20


def parse_move_fields(fields: dict[str, Any]) -> tuple[int, Move | str]:
    """The `ply` and the move of a move request (shared by Socket.IO and HTTP): exactly one of
    `uci` (parsed here) and `san` (checked for shape only: its meaning depends on the position,
    so the session parses it under the game's lock)."""
    ply = integer_field(fields, "ply", 0, MAX_VERSION)
    if ("uci" in fields) == ("san" in fields):
        raise bad_request("exactly one of the fields 'uci' and 'san' is needed")
    if "san" in fields:
        san = fields["san"]
        if not isinstance(san, str) or not 0 < len(san.strip()) <= MAX_SAN_LENGTH:
            raise bad_request(
                f"field 'san' must be a SAN move such as 'Nf3' or 'O-O', got {shorten(san)}"
            )
        return ply, san
    return ply, uci_move(fields)


def uci_move(fields: dict[str, Any], name: str = "uci") -> Move:
    """The UCI move in `fields["uci"]`; errors name the field as the client called it."""
    uci = fields["uci"]
    if not isinstance(uci, str) or not 4 <= len(uci) <= 5:
        example = "a UCI move such as 'e2e4' or 'e7e8q'"
        raise bad_request(f"field {name!r} must be {example}, got {shorten(uci)}")
    try:
        return Move.from_uci(uci)
    except ChessError as error:
        raise bad_request(f"field {name!r}: {error}") from error


def parse_move(payload: Any) -> MoveRequest:
    fields = expect_fields(payload, ("game", "ply"), ("uci", "san"))
    game = _game_id(fields)
    ply, move = parse_move_fields(fields)
    return MoveRequest(game, ply, move)


def parse_premove(payload: Any) -> PremoveRequest:
    fields = expect_fields(payload, ("game", "move"))
    game = _game_id(fields)
    if fields["move"] is None:
        return PremoveRequest(game, None)
    return PremoveRequest(game, uci_move({"uci": fields["move"]}, "move"))


def parse_preview(payload: Any) -> PreviewRequest:
    fields = expect_fields(payload, ("game", "ply", "uci"))
    game = _game_id(fields)
    return PreviewRequest(game, integer_field(fields, "ply", 0, MAX_VERSION), uci_move(fields))


def parse_describe(payload: Any) -> DescribeRequest:
    fields = expect_fields(payload, ("game", "ply", "square"))
    game = _game_id(fields)
    ply = integer_field(fields, "ply", 0, MAX_VERSION)
    square = string_field(fields, "square", is_square_name, "a square name such as 'e4'")
    return DescribeRequest(game, ply, square)


def is_square_name(text: str) -> bool:
    return len(text) == 2 and text[0] in "abcdefgh" and text[1] in "12345678"


def parse_http_move(payload: Any) -> tuple[int, Move | str]:
    return parse_move_fields(expect_fields(payload, ("ply",), ("uci", "san")))


def parse_offer(payload: Any) -> OfferRequest:
    fields = expect_fields(payload, ("game", "kind"))
    return OfferRequest(_game_id(fields), _kind(fields))


def parse_action(payload: Any) -> ActionRequest:
    fields = expect_fields(payload, ("action",), ("kind",))
    action = string_field(
        fields, "action", lambda text: text in ACTIONS, f"one of {', '.join(ACTIONS)}"
    )
    takes_kind = ACTIONS[action].takes_kind
    if takes_kind and fields.get("kind") is None:
        raise bad_request(f"field 'kind' is needed with action {action!r}")
    if not takes_kind and "kind" in fields:
        raise bad_request(f"field 'kind' is not used with action {action!r}")
    return ActionRequest(action, _kind(fields) if takes_kind else None)


def parse_invite(payload: Any) -> tuple[str, str | None]:
    """An invitation claimed over HTTP: its token, and the friend's display name if given."""
    fields = expect_fields(payload, ("invite",), ("name",))
    return string_field(fields, "invite", is_token, TOKEN_WHAT), parse_name(fields)


def parse_create(payload: Any) -> NewGame:
    """A new game's request, parsed into the games' own `NewGame` that the service takes."""
    fields = expect_fields(
        payload, ("opponent",), ("color", "fen", "clock", "level", "assisted", "name", "review")
    )
    opponent = string_field(
        fields, "opponent", lambda t: t in ("friend", "computer"), "'friend' or 'computer'"
    )
    color_text = (
        "random"
        if fields.get("color") is None
        else string_field(fields, "color", lambda t: t in COLORS, "'white', 'black' or 'random'")
    )
    return NewGame(
        opponent,
        COLORS[color_text],
        _parse_fen(fields),
        _parse_clock(fields),
        _parse_level(fields, opponent),
        parse_assisted(fields),
        parse_name(fields),
        _parse_review(fields, opponent),
    )


def _parse_review(fields: dict[str, Any], opponent: str) -> bool:
    """The optional `review` flag: review the game when it ends (computer games only)."""
    value = fields.get("review")
    if value is None:
        return False
    if not isinstance(value, bool):
        raise bad_request(f"field 'review' must be true or false, got {shorten(value)}")
    if value and opponent != "computer":
        raise bad_request("field 'review' is only for games against the computer")
    return value


def parse_name(fields: dict[str, Any]) -> str | None:
    """The optional `name` field: a display name (server.shared.names) or None."""
    return optional_string_field(fields, "name", is_name, NAME_WHAT)


def parse_assisted(fields: dict[str, Any]) -> bool:
    value = fields.get("assisted")
    if value is None:
        return True
    if not isinstance(value, bool):
        raise bad_request(f"field 'assisted' must be true or false, got {shorten(value)}")
    return value


def _parse_fen(fields: dict[str, Any]) -> str:
    if fields.get("fen") is None:
        return Board().fen()
    fen = string_field(
        fields, "fen", lambda t: 0 < len(t) <= MAX_FEN_LENGTH, "a FEN of at most 100 characters"
    )
    try:
        return Board.from_fen(fen).fen()
    except ChessError as error:
        raise RequestError(
            "bad_request", N_("field 'fen': {reason}"), reason=error.message
        ) from error


def _parse_clock(fields: dict[str, Any]) -> ClockSettings | None:
    if fields.get("clock") is None:
        return None
    clock = fields["clock"]
    if not isinstance(clock, dict):
        raise bad_request(
            f"field 'clock' must be an object {{minutes, increment}}, got {shorten(clock)}"
        )
    clock = expect_fields(clock, ("minutes",), ("increment",))
    minutes = number_field(clock, "minutes", 0, MAX_CLOCK_MINUTES)
    if minutes <= 0:
        raise bad_request("field 'minutes' must be above 0")
    increment = (
        0.0
        if clock.get("increment") is None
        else number_field(clock, "increment", 0, MAX_INCREMENT_SECONDS)
    )
    return ClockSettings(max(1, round(minutes * 60_000)), round(increment * 1000))


def _parse_level(fields: dict[str, Any], opponent: str) -> int | None:
    if fields.get("level") is None:
        return 1 if opponent == "computer" else None
    if opponent != "computer":
        raise bad_request("field 'level' is only for games against the computer")
    level = integer_field(fields, "level", 1, 100)
    try:
        check_level(level)
    except ChessError as error:
        raise bad_request(f"field 'level': {error}") from error
    return level
