"""Text and names a hostile visitor sends, and the hosts the site answers to (issue 26, points
5, 8 and 9), against the real server on 127.0.0.1: lone surrogates are refused at the edge with
a clear error and no traceback, names that hide or imitate are refused, PGN headers are shown
without bidi or control characters and with a `Result` of the four, `/socket.io/` responses
carry the security headers, and a request for another Host gets no socket."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import chess
import pytest
import requests

from server.shared.display import display_headers, display_result, display_value
from server.shared.names import is_look_alike, is_name
from tests.support.game_client import GameClient
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.raw_websocket import open_websocket
from tests.support.server_fixture import module_server
from tests.test_search_bounds import NINE_QUEENS

pytestmark = pytest.mark.server

server = module_server("hostile_text", {"CHESS_REVIEW_DEPTH": "1", "CHESS_ENGINE_WORKERS": "1"})

TIMEOUT = 60  # against hanging only: a request that times out leaves its address's slot taken
PGN = '[Event "E"]\n[White "W"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n'
# JSON text that spells a lone surrogate, in a PGN header, a tree comment and a name.
SURROGATE = "\\ud800"


@pytest.fixture
def client(server: LiveServer) -> Iterator[GameClient]:
    connection = GameClient(server.url)
    yield connection
    connection.close()


def post_raw(server: LiveServer, path: str, text: str) -> requests.Response:
    """POST `text` as it is (JSON that `requests` would not write) to `path`."""
    headers = {"Content-Type": "application/json"}
    return requests.post(server.url + path, data=text.encode(), headers=headers, timeout=TIMEOUT)


def log_text(server: LiveServer) -> str:
    return (server.instance_path / "server.log").read_text(errors="replace")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/analysis", '{"pgn": "[White \\"' + SURROGATE + '\\"]\\n\\n1. e4 *"}', "pgn"),
        ("/api/analysis/export", '{"tree": {"headers": {"Event": "' + SURROGATE + '"}}}', "Event"),
        ("/api/reviews", '{"pgn": "[Event \\"' + SURROGATE + '\\"]\\n\\n1. e4 e5 *"}', "pgn"),
        ("/api/games", '{"opponent": "computer", "name": "A' + SURROGATE + '"}', "name"),
    ],
)
def test_a_lone_surrogate_is_refused_at_the_edge(
    server: LiveServer, path: str, body: str, field: str
) -> None:
    response = post_raw(server, path, body)
    message = refused(response, 400, "bad_request", "not valid Unicode")
    assert field in message
    assert "Traceback" not in log_text(server)


def test_a_surrogate_pair_is_unicode_and_passes(server: LiveServer) -> None:
    body = '{"pgn": "[White \\"\\ud83d\\ude00\\"]\\n\\n1. e4 *", "store": false}'
    response = post_raw(server, "/api/analysis", body)
    assert response.status_code in (200, 201), response.text
    assert response.json()["tree"]["headers"]["White"] == "\U0001f600"


def test_a_lone_surrogate_in_a_socket_event_is_answered(client: GameClient) -> None:
    client.client.eio.send('427["analysis_position",{"fen":"' + SURROGATE + '"}]')
    # The raw frame's ack id 7 is answered; a normal call afterwards still works.
    reply = client.call("analysis_position", {"fen": "8/8/8/8/8/8/8/K6k w - - 0 1"})
    assert "ok" in reply


@pytest.mark.parametrize(
    "name",
    [
        "\u3164" * 20,  # HANGUL FILLER: a letter that draws nothing
        "\u0410n\u043enym\u043eus-1234",  # Cyrillic A and o among Latin letters
        "anonymous-1234",
        "Anonym0us-1234",
        "ANONYMOUS 1234",
        "\uff21\uff4e\uff4e\uff41",  # fullwidth Latin
        "Ann\u202ea",  # right-to-left override
        "Mag\u200bnus",  # zero-width space
        "\u0391lpha",  # a Greek capital alpha before Latin letters
    ],
)
def test_names_that_hide_or_imitate_are_refused(server: LiveServer, name: str) -> None:
    assert not is_name(name)
    response = requests.post(
        server.url + "/api/games", json={"opponent": "computer", "name": name}, timeout=TIMEOUT
    )
    refused(response, 400, "bad_request", "'name'")


@pytest.mark.parametrize(
    "name", ["Anonymous-4821", "Magnus Carlsen", "\u041c\u0430\u0433\u043d\u0443\u0441", "김민수",
             "山田たろう", "أحمد", "Player_1"]
)  # fmt: skip
def test_names_of_one_script_pass(name: str) -> None:
    assert is_name(name)


def test_a_look_alike_of_a_name_in_the_lobby_is_refused(server: LiveServer) -> None:
    owner, other = GameClient(server.url), GameClient(server.url)
    try:
        created = owner.call("seek", {"control": "5+3", "name": "Magnus"})
        assert created["ok"], created
        reply = other.call("seek", {"control": "5+3", "name": "magnus"})
        assert not reply["ok"] and reply["code"] == "bad_request", reply
        assert "reads like" in reply["error"]
        assert other.call("seek", {"control": "5+3", "name": "Hikaru"})["ok"]
    finally:
        owner.close()
        other.close()
    assert is_look_alike("M\u0430gnus", {"Magnus"}) and not is_look_alike("Magnus", {"Magnus"})
    # A sans-serif capital I is a small l; "rn" reads as "m", "vv" as "w".
    assert is_look_alike("Ilya", {"llya"}) and is_look_alike("1lya", {"Ilya"})
    assert is_look_alike("rnagnus", {"Magnus"}) and is_look_alike("Vvesley", {"Wesley"})
    assert not is_look_alike("Ivan", {"Iwan"})


def test_a_look_alike_of_a_player_in_a_game_in_play_is_refused(server: LiveServer) -> None:
    """Not only the lobby's seeks: a name seated in a game in play is in use too."""
    created = requests.post(
        server.url + "/api/games", json={"opponent": "computer", "name": "Fabiano"}, timeout=TIMEOUT
    )
    assert created.status_code == 201, created.text
    visitor = GameClient(server.url)
    try:
        reply = visitor.call("seek", {"control": "5+3", "name": "fabiano"})
        assert not reply["ok"] and reply["code"] == "bad_request", reply
        assert "reads like" in reply["error"]
        assert visitor.call("seek", {"control": "5+3", "name": "Fabiano"})["ok"]  # the same
    finally:
        visitor.close()


def test_review_headers_are_shown_without_bidi_and_with_a_real_result(server: LiveServer) -> None:
    pgn = (
        '[Event "\u202eevil title"]\n[White "An\u0007na"]\n[Black "Ben"]\n'
        '[Result "claim your prize at evil.example"]\n\n1. e4 e5 2. Qh5 Nc6 *\n'
    )
    response = requests.post(server.url + "/api/reviews", json={"pgn": pgn}, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    review_id = response.json()["id"]
    review = requests.get(f"{server.url}/api/reviews/{review_id}", timeout=TIMEOUT).json()
    assert review["headers"]["Event"] == "evil title"
    assert review["headers"]["White"] == "Anna"
    assert review["headers"]["Result"] == "*"
    page = requests.get(f"{server.url}/review/{review_id}", timeout=TIMEOUT)
    assert page.status_code == 200 and "\u202e" not in page.text and "prize" not in page.text


def test_the_analysis_listing_shows_clean_headers(server: LiveServer) -> None:
    games = PGN + "\n" + PGN.replace('"W"', '"W\u202e"').replace('"1-0"', '"you won"')
    response = requests.post(server.url + "/api/analysis", json={"pgn": games}, timeout=TIMEOUT)
    listing: list[dict[str, Any]] = response.json()["choose"]
    assert [game["white"] for game in listing] == ["W", "W"]
    assert [game["result"] for game in listing] == ["1-0", "*"]


def test_display_helpers() -> None:
    assert display_value("a\u2066b\u2069c\u200f\n") == "abc"
    assert display_result("1/2-1/2") == "1/2-1/2" and display_result("draw?") == "*"
    assert display_headers({"Result": "won", "Site": "x\u202ey"}) == {"Result": "*", "Site": "xy"}


def test_socket_io_responses_carry_the_security_headers(server: LiveServer) -> None:
    response = requests.get(server.url + "/socket.io/?EIO=4&transport=polling", timeout=TIMEOUT)
    assert response.status_code == 200
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/socket.io/?EIO=4&transport=polling", "/", "/api/games"])
def test_another_host_is_refused(server: LiveServer, path: str) -> None:
    headers = {"Host": "evil.example", "Origin": "http://evil.example"}
    response = requests.get(server.url + path, headers=headers, timeout=TIMEOUT)
    refused(response, 400, "bad_host", "evil.example")


def test_another_host_gets_no_websocket(server: LiveServer) -> None:
    with pytest.raises(ConnectionError, match="400"):
        open_websocket(server.port, host="evil.example")
    open_websocket(server.port).close()  # the site's own name is upgraded


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST"])
def test_the_site_s_own_names_are_answered(server: LiveServer, host: str) -> None:
    response = requests.get(
        server.url + "/", headers={"Host": f"{host}:{server.port}"}, timeout=TIMEOUT
    )
    assert response.status_code == 200


# Our own engine judges the tries (Stockfish answers one in a fraction of a second, before a
# second try could replace it).
slow_try_server = module_server(
    "hostile_try",
    {"CHESS_STOCKFISH": "none", "CHESS_REVIEW_SECONDS": "4", "CHESS_REVIEW_DEPTH": "40"},
)


def test_a_try_replaced_by_a_newer_one_says_so(slow_try_server: LiveServer) -> None:
    """Two tries from one address on nine queens a side, where depth 1 alone outlasts the
    second's arrival: the newer replaces the older before it has a line, and the older's answer
    says so (it used to say the engine was busy with a live game)."""
    url = slow_try_server.url
    board = chess.Board(NINE_QUEENS)
    pgn = f'[FEN "{NINE_QUEENS}"]\n[SetUp "1"]\n\n1. {board.san(next(iter(board.legal_moves)))} *'
    response = requests.post(url + "/api/reviews", json={"pgn": pgn}, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    review_id = response.json()["id"]
    deadline = time.monotonic() + 300
    while (
        requests.get(f"{url}/api/reviews/{review_id}", timeout=TIMEOUT).json()["status"] != "done"
    ):
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.5)
    first, second = GameClient(url), GameClient(url)
    replies: dict[str, Any] = {}

    def try_move(name: str, client: GameClient, uci: str) -> None:
        replies[name] = client.call("review_try", {"id": review_id, "ply": 1, "uci": uci})

    try:
        tried = [move.uci() for move in board.legal_moves][-2:]
        older = threading.Thread(target=try_move, args=("a", first, tried[0]))
        older.start()
        time.sleep(1)  # the order does not matter to the assertion: one replaces the other
        try_move("b", second, tried[1])
        older.join(timeout=60)
    finally:
        first.close()
        second.close()
    codes = sorted(reply.get("code", "ok") for reply in replies.values())
    assert codes == ["ok", "replaced"], replies
    refusal = next(reply for reply in replies.values() if not reply["ok"])
    assert "newer try" in refusal["error"] and "live game" not in refusal["error"]
