"""Payload parsing: exactly the documented objects pass; every refusal names the field."""

from __future__ import annotations

from typing import Any

import pytest

from chesscore import Move
from server.games.requests import (
    parse_action,
    parse_create,
    parse_join,
    parse_move,
    parse_offer,
)
from server.shared.errors import RequestError

GAME = "q3Xv_8LmPz0a"
TOKEN = "N" * 43


def test_a_good_move() -> None:
    request = parse_move({"game": GAME, "ply": 4, "uci": "e7e8n"})
    assert (request.game, request.ply, request.move) == (GAME, 4, Move.from_uci("e7e8n"))


def test_a_good_join_and_create() -> None:
    join = parse_join({"game": GAME, "seat": TOKEN, "since": 3})
    assert (join.seat, join.invite, join.since) == (TOKEN, None, 3)
    create = parse_create({"opponent": "friend", "clock": {"minutes": 0.05, "increment": 1.5}})
    assert create.color is None
    assert create.clock is not None and (create.clock.initial_ms, create.clock.increment_ms) == (
        3000,
        1500,
    )
    assert create.fen.startswith("rnbqkbnr/")


# parser, payload, words the error must contain
REFUSALS: list[tuple[str, Any, Any, str]] = [
    ("move_text", parse_move, "e2e4", "JSON object"),
    ("move_missing", parse_move, {"game": GAME, "ply": 0}, "'uci'"),
    ("move_unknown", parse_move, {"game": GAME, "ply": 0, "uci": "e2e4", "why": 1}, "'why'"),
    ("move_bool_ply", parse_move, {"game": GAME, "ply": False, "uci": "e2e4"}, "'ply'"),
    ("move_bad_uci", parse_move, {"game": GAME, "ply": 0, "uci": "e9e4"}, "'uci'"),
    ("move_bad_game", parse_move, {"game": "x", "ply": 0, "uci": "e2e4"}, "'game'"),
    ("join_short_seat", parse_join, {"game": GAME, "seat": "abc"}, "'seat'"),
    ("join_float_since", parse_join, {"game": GAME, "since": 1.5}, "'since'"),
    ("offer_kind", parse_offer, {"game": GAME, "kind": "truce"}, "'kind'"),
    ("action_kind_missing", parse_action, {"action": "accept"}, "'kind'"),
    ("action_kind_unused", parse_action, {"action": "resign", "kind": "draw"}, "'kind'"),
    ("create_opponent", parse_create, {"opponent": 7}, "'opponent'"),
    ("create_fen", parse_create, {"opponent": "friend", "fen": "8/8/8 w - - 0 1"}, "'fen'"),
    (
        "create_clock_nan",
        parse_create,
        {"opponent": "friend", "clock": {"minutes": float("nan")}},
        "'minutes'",
    ),
    (
        "create_clock_long",
        parse_create,
        {"opponent": "friend", "clock": {"minutes": 181}},
        "'minutes'",
    ),
    (
        "create_increment",
        parse_create,
        {"opponent": "friend", "clock": {"minutes": 1, "increment": -1}},
        "'increment'",
    ),
    ("create_level_friend", parse_create, {"opponent": "friend", "level": 1}, "'level'"),
]


@pytest.mark.parametrize(
    ("parse", "payload", "words"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_refusals_name_what_was_wrong(parse: Any, payload: Any, words: str) -> None:
    with pytest.raises(RequestError) as refused:
        parse(payload)
    assert refused.value.code == "bad_request"
    assert words in refused.value.message


def test_a_huge_value_is_quoted_short() -> None:
    with pytest.raises(RequestError) as refused:
        parse_move({"game": GAME, "ply": "9" * 5000, "uci": "e2e4"})
    assert len(refused.value.message) < 200
