"""A catalogue of bad input against the real server: nothing a client sends may hurt a game.

Each case is sent by a real client (python-socketio, or a raw WebSocket for frames no library
would produce) into a game in progress, then checks four things: the server still answers,
the connection still answers or was closed on purpose, the acknowledgement (if any was asked
for) said what was wrong, and the game is exactly as it was.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import websocket

from tests.support.game_client import FriendGame, GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

UNKNOWN_GAME = "AAAAAAAAAAAA"


server = module_server("bad_input")


@dataclass
class Arena:
    """A game at ply 2 between two seats, and connections made on demand for each role."""

    table: FriendGame
    other_seat: str
    clients: dict[str, GameClient] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.table.id

    def sender(self, name: str) -> GameClient:
        """A fresh connection for this test, seated as white or black, watching, or a stranger."""
        if name not in self.clients:
            client = GameClient(self.table.url)
            seats = {"white": self.table.white_seat, "black": self.table.black_seat}
            if name in seats:
                client.join(self.game, seat=seats[name])
            elif name == "watcher":
                client.join(self.game)
            self.clients[name] = client
        return self.clients[name]

    def move(self, uci: str = "d2d4", ply: int = 2, **extra: Any) -> dict[str, Any]:
        return {"game": self.game, "ply": ply, "uci": uci, **extra}

    def snapshot(self) -> tuple[int, str, int]:
        state = api_state(self.table.url, self.game)
        return state["version"], state["fen"], state["ply"]

    def close(self) -> None:
        for client in self.clients.values():
            client.close()
        self.clients.clear()


def make_table(url: str) -> FriendGame:
    table = FriendGame(url)
    table.play("e2e4", "e7e5")
    table.close()  # the tests act through their own connections
    return table


@pytest.fixture(scope="module")
def shared_table(server: LiveServer) -> tuple[FriendGame, str]:
    """One game for every case that must leave it unchanged (and checks that it does)."""
    return make_table(server.url), create_game(server.url, opponent="friend")["seat"]


@pytest.fixture
def arena(shared_table: tuple[FriendGame, str]) -> Iterator[Arena]:
    battleground = Arena(*shared_table)
    yield battleground
    battleground.close()


@pytest.fixture
def own_arena(server: LiveServer) -> Iterator[Arena]:
    """A game of the test's own, for cases that end or change it."""
    battleground = Arena(make_table(server.url), create_game(server.url, opponent="friend")["seat"])
    yield battleground
    battleground.close()


def without(payload: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: value for key, value in payload.items() if key != name}


def nested(depth: int) -> Any:
    value: Any = "e2e4"
    for _ in range(depth):
        value = {"x": value}
    return value


Args = Callable[[Arena], tuple[Any, ...]]

# id, sender, event, arguments, expected error code
CASES: list[tuple[str, str, str, Args, str]] = [
    ("payload_is_text", "white", "move", lambda a: ("d2d4",), "bad_request"),
    ("payload_is_list", "white", "move", lambda a: ([a.game, 2, "d2d4"],), "bad_request"),
    ("payload_is_null", "white", "move", lambda a: (None,), "bad_request"),
    ("payload_is_number", "white", "move", lambda a: (42,), "bad_request"),
    ("no_payload", "white", "move", lambda a: (), "bad_request"),
    ("two_payloads", "white", "move", lambda a: (a.move(), a.move()), "bad_request"),
    ("missing_uci", "white", "move", lambda a: (without(a.move(), "uci"),), "bad_request"),
    ("missing_ply", "white", "move", lambda a: (without(a.move(), "ply"),), "bad_request"),
    ("missing_game", "white", "move", lambda a: (without(a.move(), "game"),), "bad_request"),
    ("extra_field", "white", "move", lambda a: (a.move(promote="q"),), "bad_request"),
    ("ply_as_text", "white", "move", lambda a: ({**a.move(), "ply": "2"},), "bad_request"),
    ("ply_as_float", "white", "move", lambda a: ({**a.move(), "ply": 2.0},), "bad_request"),
    ("ply_as_bool", "white", "move", lambda a: ({**a.move(), "ply": True},), "bad_request"),
    ("ply_negative", "white", "move", lambda a: (a.move(ply=-1),), "bad_request"),
    ("ply_huge", "white", "move", lambda a: (a.move(ply=10**40),), "bad_request"),
    ("ply_null", "white", "move", lambda a: ({**a.move(), "ply": None},), "bad_request"),
    ("uci_as_number", "white", "move", lambda a: ({**a.move(), "uci": 1234},), "bad_request"),
    ("uci_junk", "white", "move", lambda a: (a.move("zz99"),), "bad_request"),
    ("uci_too_long", "white", "move", lambda a: (a.move("d2d4" * 200),), "bad_request"),
    ("uci_unicode", "white", "move", lambda a: (a.move("d2d\u0664"),), "bad_request"),
    (
        "uci_nested_objects",
        "white",
        "move",
        lambda a: ({**a.move(), "uci": nested(50)},),
        "bad_request",
    ),
    (
        "game_as_object",
        "white",
        "move",
        lambda a: ({**a.move(), "game": {"$ne": 1}},),
        "bad_request",
    ),
    (
        "game_malformed",
        "white",
        "move",
        lambda a: ({**a.move(), "game": "../../etc/x"},),
        "bad_request",
    ),
    (
        "game_not_joined",
        "white",
        "move",
        lambda a: ({**a.move(), "game": UNKNOWN_GAME},),
        "not_found",
    ),
    ("illegal_move", "white", "move", lambda a: (a.move("d2d5"),), "illegal_move"),
    (
        "promotion_letter_on_a_pawn_push",
        "white",
        "move",
        lambda a: (a.move("d2d4q"),),
        "illegal_move",
    ),
    ("other_colours_piece", "white", "move", lambda a: (a.move("d7d5"),), "illegal_move"),
    ("out_of_turn", "black", "move", lambda a: (a.move("d7d5"),), "not_your_turn"),
    ("stale_ply", "white", "move", lambda a: (a.move(ply=0),), "stale_ply"),
    ("future_ply", "white", "move", lambda a: (a.move(ply=3),), "future_ply"),
    ("spectator_move", "watcher", "move", lambda a: (a.move(),), "forbidden"),
    ("spectator_resign", "watcher", "resign", lambda a: ({"game": a.game},), "forbidden"),
    (
        "spectator_offer",
        "watcher",
        "offer",
        lambda a: ({"game": a.game, "kind": "draw"},),
        "forbidden",
    ),
    ("stranger_move", "stranger", "move", lambda a: (a.move(),), "not_found"),
    ("stranger_resign", "stranger", "resign", lambda a: ({"game": a.game},), "not_found"),
    (
        "join_truncated_token",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "seat": a.table.white_seat[:20]},),
        "bad_request",
    ),
    (
        "join_token_with_bad_characters",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "seat": a.table.white_seat[:42] + "!"},),
        "bad_request",
    ),
    (
        "join_wrong_token",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "seat": secrets.token_urlsafe(32)},),
        "forbidden",
    ),
    (
        "join_other_games_token",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "seat": a.other_seat},),
        "forbidden",
    ),
    (
        "join_wrong_invite",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "invite": secrets.token_urlsafe(32)},),
        "forbidden",
    ),
    (
        "join_since_as_text",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "since": "3"},),
        "bad_request",
    ),
    ("join_unknown_game", "stranger", "join", lambda a: ({"game": UNKNOWN_GAME},), "not_found"),
    (
        "join_extra_field",
        "stranger",
        "join",
        lambda a: ({"game": a.game, "admin": True},),
        "bad_request",
    ),
    ("leave_unjoined", "stranger", "leave", lambda a: ({"game": a.game},), "not_found"),
    ("unknown_event", "white", "teleport", lambda a: (a.move(),), "unknown_event"),
    ("reserved_connect", "white", "connect", lambda a: ({"game": a.game},), "reserved_event"),
    ("reserved_disconnect", "white", "disconnect", lambda a: ({"game": a.game},), "reserved_event"),
    (
        "offer_unknown_kind",
        "white",
        "offer",
        lambda a: ({"game": a.game, "kind": "peace"},),
        "bad_request",
    ),
    (
        "accept_without_offer",
        "black",
        "accept",
        lambda a: ({"game": a.game, "kind": "draw"},),
        "not_allowed",
    ),
    (
        "decline_without_offer",
        "black",
        "decline",
        lambda a: ({"game": a.game, "kind": "takeback"},),
        "not_allowed",
    ),
    ("abort_after_both_moved", "white", "abort", lambda a: ({"game": a.game},), "not_allowed"),
    ("claim_without_a_draw", "white", "claim_draw", lambda a: ({"game": a.game},), "not_allowed"),
    (
        "rematch_while_playing",
        "white",
        "offer",
        lambda a: ({"game": a.game, "kind": "rematch"},),
        "not_allowed",
    ),
]


def assert_connection_answers(client: GameClient) -> None:
    reply = client.call("join", {"game": UNKNOWN_GAME})
    assert reply["code"] == "not_found"


@pytest.mark.parametrize(
    ("sender", "event", "args", "code"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_bad_request_changes_nothing(
    arena: Arena, sender: str, event: str, args: Args, code: str
) -> None:
    before = arena.snapshot()
    client = arena.sender(sender)
    reply = client.call(event, *args(arena))
    assert reply["ok"] is False
    assert reply["code"] == code, reply
    assert reply["error"]
    assert arena.snapshot() == before
    assert_connection_answers(client)


def test_the_catalogue_is_large_enough() -> None:
    assert len(CASES) >= 30


def test_forged_connect_and_disconnect_leave_the_seat_working(own_arena: Arena) -> None:
    white = own_arena.sender("white")
    assert white.call("disconnect", {})["code"] == "reserved_event"
    assert white.call("connect")["code"] == "reserved_event"
    reply = white.move(own_arena.game, 2, "g1f3")
    assert reply["ok"], reply
    assert white.wait_version(reply["version"])["ply"] == 3


def test_huge_payload_closes_only_that_connection(own_arena: Arena) -> None:
    before = own_arena.snapshot()
    white = own_arena.sender("white")
    white.client.emit("move", own_arena.move("d2d4", pad="x" * 20_000))
    assert white.disconnected.wait(10)
    assert own_arena.snapshot() == before
    assert_connection_answers(own_arena.sender("black"))
    fresh = GameClient(own_arena.table.url)
    try:
        fresh.join(own_arena.game, seat=own_arena.table.white_seat)
        assert fresh.move(own_arena.game, 2, "d2d4")["ok"]
    finally:
        fresh.close()


def test_a_flood_is_rate_limited_and_the_connection_recovers(own_arena: Arena) -> None:
    before = own_arena.snapshot()
    black = own_arena.sender("black")
    replies: list[dict[str, Any]] = []
    done = threading.Event()

    def record(reply: dict[str, Any]) -> None:
        replies.append(reply)
        if len(replies) == 200:
            done.set()

    for _ in range(200):
        black.client.emit("move", own_arena.move("d7d5"), callback=record)
    assert done.wait(30)
    codes = {reply["code"] for reply in replies}
    assert codes == {"rate_limited", "not_your_turn"}
    assert own_arena.snapshot() == before
    # The bucket refills at 10 events a second; after a pause the connection works again.
    threading.Event().wait(2.5)
    assert_connection_answers(black)


def test_a_flood_that_goes_on_is_cut_off(own_arena: Arena) -> None:
    before = own_arena.snapshot()
    black = own_arena.sender("black")
    for _ in range(1500):
        if black.disconnected.is_set():
            break
        black.client.emit("move", own_arena.move("d7d5"))
    assert black.disconnected.wait(30)
    assert own_arena.snapshot() == before
    assert_connection_answers(own_arena.sender("white"))


def test_moves_after_the_end_are_refused(own_arena: Arena) -> None:
    white, black = own_arena.sender("white"), own_arena.sender("black")
    assert black.call("resign", {"game": own_arena.game})["ok"]
    before = own_arena.snapshot()
    for client, uci in ((white, "d2d4"), (black, "d7d5")):
        assert client.move(own_arena.game, 2, uci)["code"] == "game_over"
    assert white.call("resign", {"game": own_arena.game})["code"] == "game_over"
    assert own_arena.snapshot() == before


# Raw Engine.IO/Socket.IO frames, as a hostile client could write them, and what becomes of
# the connection: "answered" (it still acknowledges events), "closed" (the server closed it),
# "left" (the frame itself took the client out of the namespace, so events go unanswered).
RAW_FRAMES = [
    ("truncated_json", "42[", "answered"),
    ("unterminated_event", '42["move"', "answered"),
    ("event_not_a_list", '42{"game": 1}', "answered"),
    ("event_name_not_a_string", '42[1,{"game":"AAAAAAAAAAAA"}]', "answered"),
    ("empty_event", "42[]", "answered"),
    ("null_event_name", "42[null]", "answered"),
    ("unknown_engineio_packet", "9", "answered"),
    ("unknown_socketio_packet", "49", "answered"),
    ("bare_message_type", "4", "answered"),
    ("ack_for_nothing", '43["x"]', "answered"),
    ("ack_id_not_a_number", '42abc["join",{}]', "answered"),
    ("unknown_namespace", "40/admin,", "answered"),
    # The next frame is taken as the missing attachment; the one after is answered.
    (
        "binary_placeholder_without_attachment",
        '451-["move",{"_placeholder":true,"num":0}]',
        "answered",
    ),
    ("binary_junk", b"\x00\xff\x10\x80", "answered"),
    ("engineio_close", "1", "closed"),
    ("engineio_upgrade_again", "5", "answered"),
    ("forged_connect_packet", "40", "answered"),
    ("namespace_disconnect_packet", "41", "left"),
]


def raw_connection(server: LiveServer) -> websocket.WebSocket:
    url = f"ws://127.0.0.1:{server.port}/socket.io/?EIO=4&transport=websocket"
    ws = websocket.create_connection(url, timeout=10)
    assert ws.recv().startswith("0")
    ws.send("40")
    assert ws.recv().startswith("40{")  # the connect acknowledgement
    ws.settimeout(2)
    return ws


def probe(ws: websocket.WebSocket) -> str:
    """Send an acknowledged `join` (twice if the first goes unanswered); say what happened."""
    for ack_id in (98, 99):
        try:
            ws.send(f"42{ack_id}" + json.dumps(["join", {"game": UNKNOWN_GAME}]))
            while True:
                message = ws.recv()
                if not message:
                    return "closed"
                if isinstance(message, str) and message.startswith(f"43{ack_id}"):
                    assert "not_found" in message
                    return "answered"
        except websocket.WebSocketTimeoutException:
            continue
        except (websocket.WebSocketException, OSError):
            return "closed"
    return "left"


@pytest.mark.parametrize(
    ("frame", "outcome"),
    [case[1:] for case in RAW_FRAMES],
    ids=[case[0] for case in RAW_FRAMES],
)
def test_malformed_frames(
    server: LiveServer, arena: Arena, frame: str | bytes, outcome: str
) -> None:
    before = arena.snapshot()
    ws = raw_connection(server)
    try:
        if isinstance(frame, bytes):
            ws.send_binary(frame)
        else:
            ws.send(frame)
        assert probe(ws) == outcome
    finally:
        ws.close(timeout=0.2)
    assert arena.snapshot() == before
    assert_connection_answers(arena.sender("white"))
