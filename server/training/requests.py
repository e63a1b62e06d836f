"""What a trainee sends, parsed at the edge into frozen values (docs/protocol.md).

`parse_next(args)` reads `?kind=K&level=L`; `parse_answer(body)` reads `{"id", "answer"}`,
the answer in one of the forms of docs/protocol.md, "Threat trainer": a list of square names,
a list of UCI moves, a list of [pinned, target] square pairs (`pins`),
`{"white": n, "black": m, "exchange": e}` (`exchange` optional), or true/false. The answer's
form is checked against the drill's kind only once the drill is found (`check_form`), before
it is taken, so a malformed answer is refused and changes nothing: the drill still waits for a
good one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chesscore import ChessError, Move, parse_square
from chesscore.training import KINDS
from chesscore.training.difficulty import LEVELS
from chesscore.training.drills import MOVE_KINDS, SQUARE_KINDS
from chesscore.training.judging import Answer, CountAnswer, PinAnswer
from server.shared.errors import RequestError

# A drill id as secrets.token_urlsafe(18) writes it, with room to spare.
DRILL_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
# More squares than the board has, or more moves than any position has, is no answer.
MAX_SQUARES, MAX_MOVES = 64, 256
MAX_COUNT = 16
EXCHANGES = ("win", "even", "lose", "none")


@dataclass(frozen=True, slots=True)
class NextRequest:
    kind: str
    level: int


@dataclass(frozen=True, slots=True)
class AnswerRequest:
    """`form` is "squares", "moves", "pairs", "count", "yesno" or "none" (an empty list: no
    square and no move, a right answer where there is nothing to find)."""

    id: str
    form: str
    value: Answer


def parse_next(args: Mapping[str, str]) -> NextRequest:
    kind, level = args.get("kind"), args.get("level", "1")
    if kind not in KINDS:
        shown = "none" if kind is None else repr(kind[:20])
        raise RequestError(
            "bad_request", f"unknown drill kind {shown}: 'kind' must be one of {', '.join(KINDS)}"
        )
    if level not in {str(lv) for lv in LEVELS}:
        raise RequestError("bad_request", f"'level' must be 1, 2 or 3, got {level[:20]!r}")
    return NextRequest(kind, int(level))


def parse_answer(body: Any) -> AnswerRequest:
    if not isinstance(body, dict) or set(body) != {"id", "answer"}:
        raise RequestError("bad_request", 'the body must be a JSON object {"id", "answer"}')
    drill_id = body["id"]
    if not isinstance(drill_id, str) or not DRILL_ID.fullmatch(drill_id):
        raise RequestError("bad_request", "'id' must be a drill id as /api/train/next gave it")
    form, value = _parse_value(body["answer"])
    return AnswerRequest(drill_id, form, value)


def _parse_value(answer: Any) -> tuple[str, Answer]:
    if isinstance(answer, bool):
        return "yesno", answer
    if isinstance(answer, dict):
        return "count", _parse_count(answer)
    if isinstance(answer, list) and answer and all(isinstance(item, list) for item in answer):
        return "pairs", _parse_pairs(answer)
    if not isinstance(answer, list) or any(not isinstance(item, str) for item in answer):
        raise RequestError(
            "bad_request", "'answer' must be a list of squares, of UCI moves or of "
            "[pinned, target] square pairs, {\"white\": n, \"black\": m}, or true/false",
        )  # fmt: skip
    if not answer:
        return "none", frozenset()
    if all(len(item) == 2 for item in answer):
        if len(answer) > MAX_SQUARES:
            raise RequestError("bad_request", f"'answer' names more than {MAX_SQUARES} squares")
        return "squares", frozenset(_checked(parse_square, item) for item in answer)
    if len(answer) > MAX_MOVES:
        raise RequestError("bad_request", f"'answer' has more than {MAX_MOVES} moves")
    moves = [_checked(Move.from_uci, item) for item in answer]
    return "moves", frozenset((move.from_square, move.to_square) for move in moves)


def _parse_pairs(answer: list[Any]) -> PinAnswer:
    """[[pinned, target], ...]: each pinned piece with the piece it is pinned to."""
    if len(answer) > MAX_SQUARES:
        raise RequestError("bad_request", f"'answer' names more than {MAX_SQUARES} pins")
    pairs = set()
    for item in answer:
        if len(item) != 2 or not all(isinstance(sq, str) and len(sq) == 2 for sq in item):
            shown = repr(item)[:30]
            raise RequestError(
                "bad_request", f"'answer' holds {shown}: a pin is [pinned, target], two squares"
            )
        pinned, target = (_checked(parse_square, sq) for sq in item)
        if pinned == target:
            raise RequestError(
                "bad_request", f"'answer' pins {item[0]!r} to itself: name the piece behind it"
            )
        pairs.add((pinned, target))
    return PinAnswer(frozenset(pairs))


def _checked(parse: Any, item: str) -> Any:
    try:
        return parse(item)
    except ChessError as error:
        raise RequestError(
            "bad_request", f"'answer' holds {item[:12]!r}: neither a square nor a UCI move"
        ) from error


def _parse_count(answer: dict[str, Any]) -> CountAnswer:
    def number(color: str) -> int:
        value = answer.get(color)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
            raise RequestError("bad_request", f"'answer.{color}' must be a whole number 0 to 16")
        return value

    if set(answer) - {"exchange"} != {"white", "black"}:
        raise RequestError(
            "bad_request", 'a count is answered {"white": n, "black": m} (and "exchange")'
        )
    exchange = answer.get("exchange")
    if exchange is not None and exchange not in EXCHANGES:
        raise RequestError(
            "bad_request", f"'answer.exchange' must be one of {', '.join(EXCHANGES)}"
        )
    return number("white"), number("black"), exchange


def check_form(kind: str, form: str) -> None:
    """Refuse an answer whose form does not fit the drill's kind."""
    expected = (
        "squares" if kind in SQUARE_KINDS else "moves" if kind in MOVE_KINDS else
        "count" if kind == "count" else "yesno"
    )  # fmt: skip
    if form == expected or (form == "none" and expected in ("squares", "moves")):
        return
    if kind == "pins" and form == "pairs":
        return
    said = {
        "squares": "a list of square names" + (" or of [pinned, target] pairs" * (kind == "pins")),
        "moves": "a list of UCI moves",
        "count": "{\"white\": n, \"black\": m}", "yesno": "true (safe) or false",
    }  # fmt: skip
    raise RequestError("bad_request", f"a {kind} drill is answered with {said[expected]}")
