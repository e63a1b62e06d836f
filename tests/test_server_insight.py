"""Threat insight over the wire (issue 7), against the real server on 127.0.0.1.

Games are created from known positions; the state's `insight` and `safety`, the `preview` and
`describe` replies and the annotated PGN are checked against facts written out by hand and
against what `chesscore` computes for the same position. The `assisted` setting hides the
overlays from the players of a game but never from its spectators.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from chesscore import Board
from chesscore.analysis.insight import make_insight, preview
from chesscore.analysis.threats import make_threat_map
from server.threats.wire import insight_json, names, preview_json
from tests.support.game_client import FriendGame, GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.positions import attackers_by_color
from tests.support.safety import safety_by_name
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

FORK = "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1"  # Nc7+ forks the king e8 and the rook a8
RELATIVE_PIN = "7k/3q4/2n5/1B6/8/8/8/4K3 w - - 0 1"  # Bb5 pins Nc6 to the queen d7
ABSOLUTE_PIN = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"  # Re7 pins Ne2 to the king e1
DOUBLED_ROOKS = "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1"  # a1 x-rays through b1 along the first rank
KNIGHTS = "4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1"  # Nf3: e5 contested, g5 losing, d4 safe

# (start FEN, moves played, path into the state, the fact written out by hand)
INSIGHT_FACTS = [
    (
        FORK,
        ["b5c7"],
        ("insight", "change", "forks"),
        [{"from": "c7", "targets": ["a8", "e8"], "by": "white"}],
    ),
    (FORK, ["b5c7"], ("insight", "change", "checkers"), ["c7"]),
    (FORK, ["b5c7"], ("insight", "change", "became_hanging"), ["a8"]),
    (FORK, ["b5c7"], ("announcement",), "White knight from b5 to c7, check"),
    (
        RELATIVE_PIN,
        [],
        (
            "insight",
            "pins",
        ),
        [{"pinner": "b5", "pinned": "c6", "target": "d7", "absolute": False}],
    ),
    (
        ABSOLUTE_PIN,
        [],
        (
            "insight",
            "pins",
        ),
        [{"pinner": "e7", "pinned": "e2", "target": "e1", "absolute": True}],
    ),
    (DOUBLED_ROOKS, [], ("insight", "xrays", "d1"), {"white": ["a1"], "black": []}),
    (DOUBLED_ROOKS, [], ("insight", "xrays", "f1"), {"white": ["a1", "b1"], "black": []}),
    (None, ["e2e4", "e7e5", "g1f3"], ("insight", "change", "became_hanging"), ["e5"]),
    (
        None,
        ["e2e4", "e7e5", "g1f3"],
        ("insight", "change", "new_attacks"),
        [{"from": "f3", "to": "e5", "by": "white"}],
    ),
    (
        None,
        [],
        (
            "insight",
            "change",
        ),
        None,
    ),
    # Back at the start position, but with a last move: not the facts of ply 0.
    (None, ["g1f3", "g8f6", "f3g1", "f6g8"], ("announcement",), "Black knight from f6 to g8"),
]


server = module_server("insight")
# Against hanging only: the annotated PGN is worked out in the work pool, which a loaded
# machine serves slowly (10 s ran out at load 10).
HTTP_TIMEOUT = 60


@pytest.fixture
def spectators(server: LiveServer) -> Iterator[list[GameClient]]:
    clients: list[GameClient] = []
    yield clients
    for client in clients:
        client.close()


def board_after(fen: str | None, moves: list[str]) -> Board:
    board = Board.from_fen(fen) if fen else Board()
    for uci in moves:
        board.push_uci(uci)
    return board


def expected_insight(board: Board) -> dict[str, Any]:
    """chesscore's insight as the state carries it: x-rays of the squares that have any, no
    descriptions (those come one by one from `describe`) and no announcement (the state's own
    field: every receiver gets it), through JSON like the wire."""
    insight = make_insight(board)
    return json.loads(json.dumps(insight_json(insight.xrays, insight.change)))  # type: ignore[no-any-return]


def dig(data: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def friend_game(server: LiveServer, fen: str | None = None, **options: Any) -> FriendGame:
    return FriendGame(server.url, **({"fen": fen} if fen else {}), **options)


def watch(server: LiveServer, game: str, spectators: list[GameClient]) -> GameClient:
    client = GameClient(server.url)
    spectators.append(client)
    assert client.join(game)["role"] == "spectator"
    return client


@pytest.mark.parametrize(("fen", "moves", "path", "fact"), INSIGHT_FACTS)
def test_the_state_carries_chesscores_insight(
    server: LiveServer,
    spectators: list[GameClient],
    fen: str | None,
    moves: list[str],
    path: tuple[str, ...],
    fact: Any,
) -> None:
    table = friend_game(server, fen)
    try:
        state = table.play(*moves) if moves else table.white.wait_version(table.version)
        watcher = watch(server, table.id, spectators)
        board = board_after(fen, moves)
        for received in (state, table.black.wait_version(state["version"]), watcher.states[-1]):
            assert received["assisted"] is True
            assert dig(received, path) == fact
            assert received["insight"] == expected_insight(board)
            assert received["threats"]["hanging"] == names(make_threat_map(board).hanging)
            assert received["threats"]["attackers"] == attackers_by_color(board.fen())
        position = requests.get(
            f"{server.url}/api/games/{table.id}/positions/{len(moves)}", timeout=HTTP_TIMEOUT
        ).json()
        assert position["insight"] == state["insight"]
    finally:
        table.close()


def test_a_takeback_brings_back_the_insight_of_the_earlier_position(server: LiveServer) -> None:
    table = friend_game(server)
    try:
        table.play("e2e4", "e7e5", "g1f3")
        assert table.white.call("offer", {"game": table.id, "kind": "takeback"})["ok"]
        accepted = table.black.call("accept", {"game": table.id, "kind": "takeback"})
        assert accepted["ok"], accepted
        state = table.white.wait_version(accepted["version"])
        assert state["ply"] == 2
        assert state["insight"] == expected_insight(board_after(None, ["e2e4", "e7e5"]))
        assert state["announcement"] == "Black pawn from e7 to e5"
        assert state["safety"] == safety_by_name(board_after(None, ["e2e4", "e7e5"]))
    finally:
        table.close()


def test_safety_labels_go_to_the_seat_to_move_only(
    server: LiveServer, spectators: list[GameClient]
) -> None:
    table = friend_game(server, KNIGHTS)
    try:
        white = table.white.wait_version(table.version)
        assert white["safety"]["f3"]["e5"] == "contested"
        assert white["safety"]["f3"]["g5"] == "losing"
        assert white["safety"]["f3"]["d4"] == "safe"
        assert white["safety"] == safety_by_name(Board.from_fen(KNIGHTS))
        assert set(white["safety"]) == set(white["dests"])
        assert table.black.wait_version(table.version)["safety"] is None
        assert watch(server, table.id, spectators).states[-1]["safety"] is None
        after = table.play("f3d4")
        assert after["safety"] is None
        black = table.black.wait_version(after["version"])
        assert black["safety"] == safety_by_name(board_after(KNIGHTS, ["f3d4"]))
    finally:
        table.close()


def test_a_preview_is_chesscores_preview_of_the_move(server: LiveServer) -> None:
    table = friend_game(server, KNIGHTS)
    try:
        reply = table.white.call("preview", {"game": table.id, "ply": 0, "uci": "f3g5"})
        assert reply["ok"], reply
        board = Board.from_fen(KNIGHTS)
        found = preview(board, board.parse_uci("f3g5"))
        expected = json.loads(json.dumps(preview_json(found, None)))
        del expected["threats"]["attackers"]  # checked against python-chess's attackers below
        del expected["checked_king"]
        shown = {**reply["preview"], "threats": dict(reply["preview"]["threats"])}
        assert shown["threats"].pop("attackers") == attackers_by_color(found.fen)
        assert shown.pop("checked_king") is None  # Ng5 gives no check
        assert shown == expected
        assert (reply["preview"]["see"], reply["preview"]["safety"]) == (-300, "losing")
        again = table.white.call("preview", {"game": table.id, "ply": 0, "uci": "f3g5"})
        assert again == reply  # the cached answer is the same
    finally:
        table.close()


def test_a_preview_names_the_king_its_move_checks(server: LiveServer) -> None:
    table = friend_game(server, FORK)
    try:
        reply = table.white.call("preview", {"game": table.id, "ply": 0, "uci": "b5c7"})
        assert (reply["preview"]["checked_king"], reply["preview"]["threats"]["checkers"]) == (
            "e8",
            ["c7"],
        )
        assert table.white.wait_version(table.version)["fen"] == FORK  # nothing was played
    finally:
        table.close()


# (who asks, ply, uci, the refusal's code); the game is at ply 2 after 1. e4 e5, white to move
PREVIEW_REFUSALS = [
    ("white", 1, "g1f3", "stale_ply"),
    ("white", 3, "g1f3", "future_ply"),
    ("white", 2, "e2e4", "illegal_move"),
    ("white", 2, "g1g8", "illegal_move"),
    ("white", 2, "e7e8", "illegal_move"),
    ("white", 2, "g1", "bad_request"),
    ("white", "2", "g1f3", "bad_request"),
    ("black", 2, "g1f3", "not_your_turn"),
    ("black", 2, "b8c6", "not_your_turn"),
    ("stranger", 2, "g1f3", "not_found"),
]


@pytest.mark.parametrize(("who", "ply", "uci", "code"), PREVIEW_REFUSALS)
def test_preview_refusals(
    server: LiveServer, spectators: list[GameClient], who: str, ply: Any, uci: str, code: str
) -> None:
    table = friend_game(server)
    try:
        table.play("e2e4", "e7e5")
        client = {"white": table.white, "black": table.black}.get(who)
        if client is None:
            client = GameClient(server.url)
            spectators.append(client)
        reply = client.call("preview", {"game": table.id, "ply": ply, "uci": uci})
        assert reply["ok"] is False and reply["code"] == code, reply
        assert table.white.call("preview", {"game": table.id, "ply": 2, "uci": "g1f3"})["ok"]
    finally:
        table.close()


def test_spectators_preview_the_side_to_move_and_nobody_previews_a_finished_game(
    server: LiveServer, spectators: list[GameClient]
) -> None:
    table = friend_game(server)
    try:
        table.play("e2e4")
        watcher = watch(server, table.id, spectators)
        reply = watcher.call("preview", {"game": table.id, "ply": 1, "uci": "e7e5"})
        assert reply["ok"] and reply["preview"]["move"] == "e7e5"
        assert table.white.call("resign", {"game": table.id})["ok"]
        for client in (watcher, table.black):
            reply = client.call("preview", {"game": table.id, "ply": 1, "uci": "e7e5"})
            assert reply["code"] == "game_over", reply
    finally:
        table.close()


def test_an_unassisted_game_hides_the_overlays_from_its_players_only(
    server: LiveServer, spectators: list[GameClient]
) -> None:
    table = friend_game(server, FORK, assisted=False)
    try:
        state = table.play("b5c7")
        watcher = watch(server, table.id, spectators)
        black = table.black.wait_version(state["version"])
        for received in (state, black, api_state(server.url, table.id, table.black_seat)):
            assert received["assisted"] is False
            assert (received["threats"], received["insight"], received["safety"]) == (
                None,
                None,
                None,
            )
        assert black["dests"]  # the legal moves are not an overlay
        # Nor is the move in words, which a sighted player sees on the board.
        assert black["announcement"] == "White knight from b5 to c7, check"
        seen = watcher.states[-1]
        assert seen["assisted"] is False
        assert seen["insight"]["change"]["forks"] == [
            {"from": "c7", "targets": ["a8", "e8"], "by": "white"}
        ]
        assert seen["threats"]["checkers"] == ["c7"]
        assert api_state(server.url, table.id)["insight"] == seen["insight"]
        refused = table.black.call("preview", {"game": table.id, "ply": 1, "uci": "e8d7"})
        assert refused["code"] == "not_allowed" and "not assisted" in refused["error"]
        assert watcher.call("preview", {"game": table.id, "ply": 1, "uci": "e8d7"})["ok"]
    finally:
        table.close()


def test_a_spectator_who_comes_late_to_an_unassisted_game_gets_every_overlay(
    server: LiveServer, spectators: list[GameClient]
) -> None:
    """Nobody gets the overlays of an unassisted game before its first spectator comes (the
    server makes none then); from then on each state carries chesscore's, the last move's
    change included, as if they had been made all along."""
    opening = ["e2e4", "e7e5", "g1f3", "b8c6"]
    table = friend_game(server, assisted=False)
    try:
        table.play(*opening)
        watcher = watch(server, table.id, spectators)
        assert watcher.states[-1]["insight"] == expected_insight(board_after(None, opening))
        played = [*opening, "f1b5", "a7a6", "b5c6"]
        for ply in range(len(opening), len(played)):
            state = table.play(played[ply])
            assert state["insight"] is None
            seen = watcher.wait_version(state["version"])
            board = board_after(None, played[: ply + 1])
            assert seen["insight"] == expected_insight(board)
            assert seen["threats"]["hanging"] == names(make_threat_map(board).hanging)
    finally:
        table.close()


# (assisted, who asks, square, the text)
DESCRIPTIONS = [
    (
        True,
        "white",
        "a8",
        "a8, black rook: attacked by 1 white piece, knight c7; not defended; hanging",
    ),
    (
        True,
        "spectator",
        "e8",
        "e8, black king: attacked by 1 white piece, knight c7; defended by 1 black piece, rook a8",
    ),
    (False, "white", "a8", "a8, black rook"),
    (False, "black", "d5", "d5, empty"),
    (
        False,
        "spectator",
        "a8",
        "a8, black rook: attacked by 1 white piece, knight c7; not defended; hanging",
    ),
]


@pytest.mark.parametrize(("assisted", "who", "square", "text"), DESCRIPTIONS)
def test_describe_a_square(
    server: LiveServer,
    spectators: list[GameClient],
    assisted: bool,
    who: str,
    square: str,
    text: str,
) -> None:
    table = friend_game(server, FORK, assisted=assisted)
    try:
        table.play("b5c7")
        client = {"white": table.white, "black": table.black}.get(who)
        client = client or watch(server, table.id, spectators)
        reply = client.call("describe", {"game": table.id, "ply": 1, "square": square})
        assert reply == {"ok": True, "text": text}
    finally:
        table.close()


def test_describe_an_earlier_position_and_its_refusals(server: LiveServer) -> None:
    table = friend_game(server)
    try:
        table.play("e2e4", "e7e5")
        ask = table.black.call
        assert ask("describe", {"game": table.id, "ply": 0, "square": "e4"}) == {
            "ok": True,
            "text": "e4, empty: controlled by no piece",
        }
        future = ask("describe", {"game": table.id, "ply": 3, "square": "e4"})
        assert future["code"] == "future_ply"
        for square in ("e9", "i1", "E4", 4, None):
            reply = ask("describe", {"game": table.id, "ply": 2, "square": square})
            assert reply["code"] == "bad_request" and "'square'" in reply["error"]
        extra = ask("describe", {"game": table.id, "ply": 2, "square": "e4", "x": 1})
        assert extra["code"] == "bad_request"
    finally:
        table.close()


def test_a_burst_of_previews_leaves_the_move_its_rate_limit(server: LiveServer) -> None:
    """A drag sends many previews; they have a bucket of their own, so the move that ends the
    drag, and the joins before it, are still answered (20 actions at once is their burst)."""
    table = friend_game(server)
    try:
        ucis = ["g1f3", "g1h3", "b1c3", "b1a3", "e2e4"] * 6
        for uci in ucis:
            reply = table.white.call("preview", {"game": table.id, "ply": 0, "uci": uci})
            assert reply["ok"], reply
        # White's join was one action; with 17 more and the move it stays within the burst.
        for _ in range(17):
            assert table.white.call("join", {"game": table.id, "seat": table.white_seat})["ok"]
        moved = table.white.move(table.id, 0, "g1f3")
        assert moved["ok"], moved
    finally:
        table.close()


def test_annotated_pgn_carries_the_threat_annotations_and_the_assisted_header(
    server: LiveServer,
) -> None:
    for assisted in (True, False):
        table = friend_game(server, assisted=assisted)
        try:
            table.play("f2f3", "e7e5", "g2g4", "d8h4")
            url = f"{server.url}/api/games/{table.id}/pgn"
            annotated = requests.get(url, params={"annotated": "1"}, timeout=HTTP_TIMEOUT)
            assert annotated.status_code == 200
            text = annotated.text
            assert f'[Assisted "{"yes" if assisted else "no"}"]' in text
            assert '[Annotator "chesscore threat map"]' in text
            assert "2. g4 Qh4# { [%csl Yh2] [%cal Rh4e1,Yh4h1] } 0-1" in text
            plain = requests.get(url, timeout=HTTP_TIMEOUT).text
            assert f'[Assisted "{"yes" if assisted else "no"}"]' in plain
            assert "[%c" not in plain and "2. g4 Qh4# 0-1" in plain
        finally:
            table.close()


def test_bad_assisted_and_annotated_values_are_refused(server: LiveServer) -> None:
    for value in ("yes", 1, [], {}):
        response = requests.post(
            server.url + "/api/games",
            json={"opponent": "friend", "assisted": value},
            timeout=HTTP_TIMEOUT,
        )
        assert response.status_code == 400
        assert "'assisted'" in response.json()["error"]
    created = create_game(server.url, opponent="computer", assisted=False, color="white")
    assert created["state"]["assisted"] is False and created["state"]["threats"] is None
    assisted = create_game(server.url, opponent="computer", color="white")["state"]
    assert assisted["assisted"] is True
    assert assisted["safety"] == safety_by_name(Board())
    url = f"{server.url}/api/games/{created['game']}/pgn"
    refused = requests.get(url, params={"annotated": "yes"}, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 400 and "'annotated'" in refused.json()["error"]


def test_a_rematch_keeps_the_setting(server: LiveServer) -> None:
    table = friend_game(server, assisted=False)
    try:
        assert table.white.call("resign", {"game": table.id})["ok"]
        assert table.white.call("offer", {"game": table.id, "kind": "rematch"})["ok"]
        reply = table.black.call("accept", {"game": table.id, "kind": "rematch"})
        assert reply["ok"], reply
        assert api_state(server.url, reply["rematch"])["assisted"] is False
    finally:
        table.close()
