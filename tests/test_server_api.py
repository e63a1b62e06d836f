"""The HTTP JSON API and the game page's links, against the real server on 127.0.0.1.

A script creates a game, reads its state and PGN, moves with its seat token, claims the
friend's seat with the invitation, and gets a clear JSON error for every bad request.
"""

from __future__ import annotations

import io
from typing import Any

import chess
import chess.pgn
import pytest
import requests

from tests.support.game_client import api_state, create_game, invite_token
from tests.support.live_server import LiveServer
from tests.support.positions import attackers_by_color
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server


server = module_server("api", {"CHESS_COMPUTER_DELAY": "0.05"})


def post(
    url: str, path: str, body: Any = None, seat: str | None = None, **kwargs: Any
) -> requests.Response:
    headers = {"Authorization": f"Bearer {seat}"} if seat else {}
    return requests.post(
        url + path, json=body, headers=headers, timeout=10, allow_redirects=False, **kwargs
    )


def test_create_a_game_against_a_friend(server: LiveServer) -> None:
    response = post(
        server.url,
        "/api/games",
        {"opponent": "friend", "color": "black", "clock": {"minutes": 5, "increment": 2}},
    )
    assert response.status_code == 201
    body = response.json()
    game = body["game"]
    assert body["color"] == "black" and len(body["seat"]) == 43
    assert body["links"]["watch"] == f"/game/{game}"
    assert body["links"]["private"] == f"/game/{game}?seat={body['seat']}"
    assert body["links"]["invite"].startswith(f"/game/{game}?invite=")
    assert response.cookies.get(f"seat_{game}") == body["seat"]
    assert "HttpOnly" in response.headers["Set-Cookie"]
    state = body["state"]
    assert state["clock"] == {
        "initial_ms": 300000,
        "increment_ms": 2000,
        "white_ms": 300000,
        "black_ms": 300000,
        "running": None,
    }
    assert state["players"] == {
        "white": {
            "kind": "human",
            "seated": False,
            "name": None,
            "connected": False,
            "rating": None,
        },
        "black": {
            "kind": "human",
            "seated": True,
            "name": None,
            "connected": False,
            "rating": None,
        },
    }
    assert state["dests"] is None  # black created it; white is to move


def test_state_pgn_and_moves_with_a_token(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game, white = created["game"], created["seat"]
    joined = post(server.url, f"/api/games/{game}/join", {"invite": invite_token(created)})
    assert joined.status_code == 200
    black = joined.json()["seat"]
    assert joined.json()["color"] == "black"
    for ply, (uci, seat) in enumerate([("e2e4", white), ("e7e5", black), ("g1f3", white)]):
        response = post(server.url, f"/api/games/{game}/moves", {"ply": ply, "uci": uci}, seat)
        assert response.status_code == 200, response.text
        assert response.json()["ply"] == ply + 1
    spectator = requests.get(f"{server.url}/api/games/{game}", timeout=10).json()
    assert spectator["role"] == "spectator" and spectator["state"]["dests"] is None
    assert white not in str(spectator) and black not in str(spectator)
    player = requests.get(
        f"{server.url}/api/games/{game}", headers={"Authorization": f"Bearer {black}"}, timeout=10
    ).json()
    assert player["role"] == "black"
    assert player["state"]["dests"]["b8"] == ["a6", "c6"]
    pgn = requests.get(f"{server.url}/api/games/{game}/pgn", timeout=10)
    assert pgn.headers["Content-Type"].startswith("text/x-chess-pgn")
    parsed = chess.pgn.read_game(io.StringIO(pgn.text))
    assert parsed is not None
    assert [move.uci() for move in parsed.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    assert parsed.headers["Result"] == "*"


def test_actions_and_a_finished_games_pgn(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game, white = created["game"], created["seat"]
    assert (
        post(server.url, f"/api/games/{game}/moves", {"ply": 0, "uci": "d2d4"}, white).status_code
        == 200
    )
    resigned = post(server.url, f"/api/games/{game}/actions", {"action": "resign"}, white)
    assert resigned.status_code == 200
    assert resigned.json()["state"]["outcome"]["termination"] == "resignation"
    pgn = requests.get(f"{server.url}/api/games/{game}/pgn", timeout=10).text
    parsed = chess.pgn.read_game(io.StringIO(pgn))
    assert parsed is not None and parsed.headers["Result"] == "0-1"
    assert parsed.headers["Termination"] == "resignation"


def test_a_game_from_a_fen_and_against_the_computer(server: LiveServer) -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    created = create_game(server.url, opponent="computer", color="white", fen=fen)
    assert created["state"]["start_fen"] == fen
    assert created["links"]["invite"] is None
    assert post(
        server.url,
        f"/api/games/{created['game']}/moves",
        {"ply": 0, "uci": "e2e4"},
        created["seat"],
    ).ok
    pgn = requests.get(f"{server.url}/api/games/{created['game']}/pgn", timeout=10).text
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in pgn and '[SetUp "1"]' in pgn


def test_missed_changes_over_http(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game, white = created["game"], created["seat"]
    post(server.url, f"/api/games/{game}/moves", {"ply": 0, "uci": "c2c4"}, white)
    body = requests.get(f"{server.url}/api/games/{game}?since=0", timeout=10).json()
    assert [(c["type"], c["uci"]) for c in body["missed"]] == [("move", "c2c4")]


# path, body, seat ("white", "other", "junk", None), expected status, expected code
BAD_REQUESTS: list[tuple[str, str, Any, str | None, int, str]] = [
    ("no_token", "/moves", {"ply": 0, "uci": "e2e4"}, None, 403, "forbidden"),
    ("other_colours_token", "/moves", {"ply": 0, "uci": "e2e4"}, "black", 409, "not_your_turn"),
    ("junk_token", "/moves", {"ply": 0, "uci": "e2e4"}, "junk", 400, "bad_request"),
    ("other_games_token", "/moves", {"ply": 0, "uci": "e2e4"}, "other", 403, "forbidden"),
    ("missing_ply", "/moves", {"uci": "e2e4"}, "white", 400, "bad_request"),
    ("extra_field", "/moves", {"ply": 0, "uci": "e2e4", "x": 1}, "white", 400, "bad_request"),
    ("illegal", "/moves", {"ply": 0, "uci": "e2e5"}, "white", 409, "illegal_move"),
    ("stale", "/moves", {"ply": -1, "uci": "e2e4"}, "white", 400, "bad_request"),
    ("future", "/moves", {"ply": 7, "uci": "e2e4"}, "white", 409, "future_ply"),
    ("body_not_object", "/moves", ["e2e4"], "white", 400, "bad_request"),
    ("unknown_action", "/actions", {"action": "win"}, "white", 400, "bad_request"),
    ("offer_without_kind", "/actions", {"action": "offer"}, "white", 400, "bad_request"),
    (
        "accept_nothing",
        "/actions",
        {"action": "accept", "kind": "draw"},
        "white",
        409,
        "not_allowed",
    ),
    ("wrong_invite", "/join", {"invite": "A" * 43}, None, 403, "forbidden"),
]


@pytest.mark.parametrize(
    ("path", "body", "seat", "status", "code"),
    [case[1:] for case in BAD_REQUESTS],
    ids=[case[0] for case in BAD_REQUESTS],
)
def test_bad_requests_get_json_errors(
    server: LiveServer, path: str, body: Any, seat: str | None, status: int, code: str
) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    other = create_game(server.url, opponent="friend")
    joined = post(
        server.url, f"/api/games/{created['game']}/join", {"invite": invite_token(created)}
    )
    tokens = {"white": created["seat"], "black": joined.json()["seat"], "other": other["seat"]}
    token = {**tokens, "junk": "x" * 12, None: None}[seat]
    response = post(server.url, f"/api/games/{created['game']}{path}", body, token)
    assert response.status_code == status, response.text
    assert response.json()["ok"] is False
    assert response.json()["code"] == code
    assert response.json()["error"]
    state = requests.get(f"{server.url}/api/games/{created['game']}", timeout=10).json()["state"]
    assert state["version"] == 1  # only the seat claimed by the invitation


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"opponent": "robot"}, "bad_request"),
        ({"opponent": "friend", "color": "green"}, "bad_request"),
        ({"opponent": "friend", "fen": "not a fen"}, "bad_request"),
        ({"opponent": "friend", "fen": "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"}, "bad_request"),
        ({"opponent": "friend", "clock": {"minutes": 0}}, "bad_request"),
        ({"opponent": "friend", "clock": {"minutes": "5"}}, "bad_request"),
        ({"opponent": "friend", "clock": 5}, "bad_request"),
        ({"opponent": "friend", "level": 3}, "bad_request"),
        ({"opponent": "computer", "level": 0}, "bad_request"),
        ({"opponent": "computer", "level": 9}, "bad_request"),
        ({"opponent": "friend", "owner": "me"}, "bad_request"),
        ({}, "bad_request"),
    ],
)
def test_bad_creates_are_refused(server: LiveServer, body: Any, code: str) -> None:
    response = post(server.url, "/api/games", body)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == code


def test_transport_level_errors_are_json(server: LiveServer) -> None:
    not_json = requests.post(server.url + "/api/games", data="opponent=friend", timeout=10)
    assert not_json.status_code == 400 and not_json.json()["code"] == "bad_request"
    broken = requests.post(
        server.url + "/api/games",
        data="{",
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert broken.status_code == 400 and broken.json()["code"] == "bad_request"
    huge = requests.post(
        server.url + "/api/games", json={"opponent": "friend", "pad": "x" * 10_000}, timeout=10
    )
    assert huge.status_code == 413 and huge.json()["code"] == "payload_too_large"
    missing = requests.get(server.url + "/api/games/AAAAAAAAAAAA", timeout=10)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    route = requests.get(server.url + "/api/nothing", timeout=10)
    assert route.status_code == 404 and route.json()["code"] == "not_found"


def test_the_invitation_is_claimed_once(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    path = f"/api/games/{created['game']}/join"
    first = post(server.url, path, {"invite": invite_token(created)})
    second = post(server.url, path, {"invite": invite_token(created)})
    assert first.status_code == 200 and first.json()["color"] == "black"
    assert second.status_code == 409 and second.json()["code"] == "seat_taken"


def test_game_page_links(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game = created["game"]
    page = requests.get(f"{server.url}/game/{game}", timeout=10)
    assert page.status_code == 200 and "<html" in page.text
    private = requests.get(
        server.url + created["links"]["private"], allow_redirects=False, timeout=10
    )
    assert private.status_code == 302 and private.headers["Location"].endswith(f"/game/{game}")
    assert private.cookies.get(f"seat_{game}") == created["seat"]
    invited = requests.get(
        server.url + created["links"]["invite"], allow_redirects=False, timeout=10
    )
    friend_seat = invited.cookies.get(f"seat_{game}")
    assert invited.status_code == 302 and friend_seat and friend_seat != created["seat"]
    late = requests.get(server.url + created["links"]["invite"], allow_redirects=False, timeout=10)
    assert late.status_code == 302 and f"seat_{game}" not in late.cookies
    forged = requests.get(
        f"{server.url}/game/{game}?seat={'A' * 43}", allow_redirects=False, timeout=10
    )
    assert forged.status_code == 403
    assert requests.get(f"{server.url}/game/AAAAAAAAAAAA", timeout=10).status_code == 404


def test_earlier_positions(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    game, white = created["game"], created["seat"]
    joined = post(server.url, f"/api/games/{game}/join", {"invite": invite_token(created)})
    ucis = ["e2e4", "d7d5", "e4d5"]
    for ply, uci in enumerate(ucis):
        seat = white if ply % 2 == 0 else joined.json()["seat"]
        assert post(server.url, f"/api/games/{game}/moves", {"ply": ply, "uci": uci}, seat).ok
    board = chess.Board()
    for ply in range(len(ucis) + 1):
        body = requests.get(f"{server.url}/api/games/{game}/positions/{ply}", timeout=10).json()
        assert body["fen"] == board.fen() and body["ply"] == ply
        assert body["threats"]["attackers"] == attackers_by_color(board.fen())
        if ply < len(ucis):
            board.push_uci(ucis[ply])
    assert body["last_move"] == {"uci": "e4d5", "san": "exd5"}
    beyond = requests.get(f"{server.url}/api/games/{game}/positions/9", timeout=10)
    assert beyond.status_code == 404 and beyond.json()["code"] == "not_found"


def test_positions_and_the_state_name_the_king_in_check(server: LiveServer) -> None:
    """`checked_king` is the square the page draws the checkers' arrows to (python-chess's
    king of the side to move when in check), in the state and in an earlier position."""
    fen = "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"
    created = create_game(server.url, opponent="friend", color="white", fen=fen)
    game, white = created["game"], created["seat"]
    post(server.url, f"/api/games/{game}/join", {"invite": invite_token(created)})
    assert post(server.url, f"/api/games/{game}/moves", {"ply": 0, "uci": "d1h5"}, white).ok
    state = api_state(server.url, game)
    assert state["check"] is True and state["checked_king"] == "e8"
    board = chess.Board(fen)
    for ply, uci in enumerate(["d1h5", None]):
        body = requests.get(f"{server.url}/api/games/{game}/positions/{ply}", timeout=10).json()
        king = board.king(board.turn)
        expected = chess.square_name(king) if board.is_check() and king is not None else None
        assert body["checked_king"] == expected
        if uci:
            board.push_uci(uci)
    assert expected == "e8"
