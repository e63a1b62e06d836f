"""server.edge.wire: pre-encoded fragments spliced into JSON, and the Redis queue's message
format.

The cluster tests carry states through a real Redis between two processes; these check the
format itself on the messages python-socketio's PubSubManager builds, including text that holds
the line breaks the queue format splits on.
"""

from __future__ import annotations

import json
from typing import Any

from chesscore import Board
from server.edge.wire import JsonText, Packet, QueueJson, _stdlib_dumps, dumps, encode
from server.games.messages import (
    encode_mover_state,
    make_public_state,
    mover_fields,
    seat_state,
    tailor_state,
)
from server.games.play import GameSettings, Header, MoveRecord, restore_game
from tests.random_games import play_random_game

STATE = {
    "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "threats": encode({"attackers": {"white": {"d1": ["e1"]}, "black": {}}, "hanging": []}),
    "announcement": "line one\nline two",  # a line break inside a string
    "moves": encode([{"uci": "e2e4", "san": "e4"}]),
}
PLAIN_STATE = json.loads(dumps(STATE))


def emit_message(data: list[Any], binary: bool = False) -> dict[str, Any]:
    """An emit as python-socketio's PubSubManager.emit publishes it."""
    return {
        "method": "emit",
        "event": "state",
        "data": data,
        "binary": binary,
        "namespace": "/",
        "room": "game/white",
        "skip_sid": None,
        "callback": None,
        "host_id": "a" * 32,
    }


def test_fragments_are_spliced_as_they_are() -> None:
    text = dumps({"a": encode([1, {"b": None}]), "c": "x\ny", "d": [encode("e")]})
    assert text == '{"a":[1,{"b":null}],"c":"x\\ny","d":["e"]}'
    assert json.loads(text) == {"a": [1, {"b": None}], "c": "x\ny", "d": ["e"]}


def test_an_emit_crosses_the_queue_as_json_text() -> None:
    sent = emit_message([STATE])
    received = QueueJson.loads(QueueJson.dumps(sent).encode())  # Redis hands over bytes
    assert {key: value for key, value in received.items() if key != "data"} == {
        key: value for key, value in sent.items() if key != "data"
    }
    (argument,) = received["data"]
    assert isinstance(argument, JsonText)
    assert json.loads(argument.text) == PLAIN_STATE
    # The relaying process's packet is the one the sending process sends its own clients.
    relayed = Packet(2, data=["state", argument], namespace="/").encode()
    local = Packet(2, data=["state", STATE], namespace="/").encode()
    assert relayed == local and json.loads(relayed[1:]) == ["state", PLAIN_STATE]


def test_several_arguments_each_get_a_line() -> None:
    sent = emit_message([STATE, "two\nlines", None, 3])
    received = QueueJson.loads(QueueJson.dumps(sent))
    assert [json.loads(argument.text) for argument in received["data"]] == [
        PLAIN_STATE,
        "two\nlines",
        None,
        3,
    ]


def test_other_messages_are_plain_json() -> None:
    for message in (
        {"method": "enter_room", "sid": "s1", "namespace": "/", "room": "g/watch", "host_id": "h"},
        {"method": "callback", "host_id": "h", "sid": "s1", "namespace": "/", "id": 1, "args": []},
        emit_message([["base64", "YWJj"]], binary=True),
    ):
        text = QueueJson.dumps(message)
        assert "\n" not in text and json.loads(text) == message
        assert QueueJson.loads(text) == message


def test_the_cluster_queue_keeps_its_format_once_attached_to_the_server() -> None:
    """python-socketio gives every manager the packets' json when it joins a server; ours
    must keep writing the queue's format (nothing connects to Redis before the first request)."""
    import socketio

    from server.edge.broadcast import QueueManager

    manager = QueueManager("redis://127.0.0.1:9", channel="test")
    socketio.Server(client_manager=manager, serializer=Packet)
    assert manager.json is QueueJson


def test_orjson_writes_the_bytes_the_standard_encoder_writes() -> None:
    """Every state of seeded random games, as each receiver gets it, and values with text that
    is not ASCII, floats, integer keys and a too large integer: the same text as json's."""
    values: list[Any] = [
        {"name": "Zoë ♞", "rating": 1500.0, "deviation": 63.25, 3: [True, None, -1.5e-7]},
        {"huge": 2**70, "tuple": (1, "a"), "nested": [[[]]]},
    ]
    for seed in range(500, 503):
        board = play_random_game(seed, max_plies=60)
        game = restore_game(
            "g", GameSettings("friend", 0, Board().fen()), Header(), 0, _records(board)
        )
        public = make_public_state(game, 0.0)
        values += [tailor_state(public, game, role) for role in (0, 1, None)]
    for value in values:
        text = dumps(value)
        assert text == _stdlib_dumps(value, None) and json.loads(text) == json.loads(
            _stdlib_dumps(value, None)
        )


def test_the_mover_s_text_is_the_encoding_of_its_state() -> None:
    """The rooms write the mover's legal moves into the text of the seat not to move: the very
    text of encoding the mover's whole state, assisted or not, with names json escapes."""
    checked = 0
    for seed, assisted in ((510, True), (511, False), (512, True)):
        board = play_random_game(seed, max_plies=40)
        settings = GameSettings(
            "friend", 0, Board().fen(), assisted=assisted, names=("Zoë", "Bjørn")
        )
        records = _records(board)
        for plies in range(0, len(records) + 1, 7):
            game = restore_game(
                "g", settings, Header(seated=frozenset({0, 1})), plies, records[:plies]
            )
            public = make_public_state(game, 0.0)
            for role in (0, 1, None):
                fields = mover_fields(game, role)
                if fields is None:
                    continue
                text = encode_mover_state(encode(seat_state(public, game, role)), fields)
                assert text.text == dumps(tailor_state(public, game, role))
                checked += 1
    assert checked >= 10


def _records(board: Board) -> list[MoveRecord]:
    replay, records = board.root(), []
    for move in board.move_stack:
        records.append(MoveRecord(move.uci(), replay.san(move)))
        replay.push(move)
    return records
