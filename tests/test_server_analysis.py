"""The analysis board's server side (issue 17) against the real server on 127.0.0.1: the HTTP API
(`POST /api/analysis` from a PGN, a FEN or a tree, stored or not, several games to choose from;
reading, PGN export, a game here as a tree and the own-game rule; the pages), its errors and
limits, and the Socket.IO events `analysis_position`, `analysis_preview` and
`analysis_describe` compared with a game's own state, preview and descriptions of the same
position. python-chess is the oracle for positions and PGN."""

from __future__ import annotations

import io
import json
import socket
from typing import Any
from urllib.parse import quote, urlsplit

import chess
import chess.pgn
import pytest
import requests

from server.games.seats import cookie_name
from tests.support.game_client import FriendGame, GameClient
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_pgn_import import CHESSBASE, CHESSCOM, LICHESS, oracle_tree

pytestmark = pytest.mark.server

server = module_server("analysis")
share_server = module_server("analysis_shares")

START = chess.STARTING_FEN
TIMEOUT = 60  # against hanging only: a busy machine answers slowly
# Two rooks checking the king from both sides: no move could give that check, yet the king
# has moves (python-chess: STATUS_IMPOSSIBLE_CHECK, legal moves all the same).
IMPOSSIBLE = "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1"
TWO_WHITE_KINGS = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1"
KNIGHTS = ("g1f3", "g8f6", "f3g1", "f6g8")
PROMOTIONS = {"a7": ["a8"]}


def post(server: LiveServer, path: str, body: Any, **kwargs: Any) -> requests.Response:
    return requests.post(server.url + path, json=body, timeout=TIMEOUT, **kwargs)


def get(server: LiveServer, path: str, **kwargs: Any) -> requests.Response:
    return requests.get(server.url + path, timeout=TIMEOUT, **kwargs)


def sans(tree: dict[str, Any]) -> list[str]:
    """The main line's SAN in a tree."""
    line, node = [], tree["nodes"][0]
    while node["children"]:
        node = tree["nodes"][node["children"][0]]
        line.append(node["san"])
    return line


def page_form(tree: dict[str, Any]) -> dict[str, Any]:
    fields = ("parent", "uci", "comment", "nags", "eval", "clock")
    nodes = [{name: node[name] for name in fields} for node in tree["nodes"]]
    return {"fen": tree["fen"], "headers": tree["headers"], "nodes": nodes}


# -- HTTP: import, store, read, export -----------------------------------------------------------


def test_a_pgn_is_stored_and_reopened_by_its_id(server: LiveServer) -> None:
    created = post(server, "/api/analysis", {"pgn": LICHESS})
    assert created.status_code == 201, created.text
    body = created.json()
    analysis_id, tree = body["id"], body["tree"]
    assert body["ok"] and len(analysis_id) == 8 and tree["id"] == analysis_id
    assert tree["headers"]["White"] == "alice" and tree["result"] == "0-1"
    assert sans(tree) == [
        *("e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5", "Nxf7", "Qxg2"),
        *("Rf1", "Qxe4+", "Be2", "Nf3#"),
    ]
    reread = get(server, f"/api/analysis/{analysis_id}")
    assert reread.status_code == 200
    again = reread.json()
    assert (again["id"], again["tree"]["nodes"], again["tree"]["result"]) == (
        analysis_id,
        tree["nodes"],
        tree["result"],
    )
    # Stored as PGN: the headers come back with the seven-tag roster filled in, and the Result
    # tag as the result token says (the sample's tag disagrees with its token).
    assert {**tree["headers"], "Result": "0-1"}.items() <= again["tree"]["headers"].items()

    text = get(server, f"/api/analysis/{analysis_id}/pgn")
    assert text.status_code == 200 and text.headers["Content-Type"].startswith("text/")
    assert oracle_tree(text.text) == oracle_tree(LICHESS)
    game = chess.pgn.read_game(io.StringIO(text.text))
    assert game is not None and game.variations[0].eval() is not None
    assert "[%csl" not in text.text and "[%clk 0:03:00]" in text.text

    annotated = get(server, f"/api/analysis/{analysis_id}/pgn?annotations=1")
    assert annotated.status_code == 200 and "[%csl Re5]" in annotated.text
    assert "[%cal Re4e1]" in annotated.text  # 12... Qxe4+ checks the king on e1
    assert oracle_tree(annotated.text) == oracle_tree(LICHESS)
    refused(get(server, f"/api/analysis/{analysis_id}/pgn?annotations=yes"), 400, "bad_request")


def test_store_false_only_parses(server: LiveServer) -> None:
    response = post(server, "/api/analysis", {"pgn": CHESSCOM, "store": False})
    assert response.status_code == 200
    body = response.json()
    assert body["id"] is None and body["tree"]["id"] is None
    assert [node["clock"] for node in body["tree"]["nodes"][1:]] == [179.9, 178.2, 177.0, 175.5]
    refused(post(server, "/api/analysis", {"pgn": CHESSCOM, "store": "no"}), 400, "bad_request")


def test_a_fen_and_a_tree(server: LiveServer) -> None:
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    response = post(server, "/api/analysis", {"fen": fen})
    assert response.status_code == 201
    tree = response.json()["tree"]
    assert tree["fen"] == fen and len(tree["nodes"]) == 1 and tree["notice"] is None
    assert tree["nodes"][0]["fen"] == fen

    played = post(server, "/api/analysis", {"pgn": CHESSBASE, "store": False}).json()["tree"]
    edited = page_form(played)
    edited["nodes"].append(
        {"parent": 1, "uci": "e7e5", "comment": "open", "nags": [6], "eval": {"cp": -20}}
    )
    shared = post(server, "/api/analysis", {"tree": edited})
    assert shared.status_code == 201, shared.text
    analysis_id = shared.json()["id"]
    again = get(server, f"/api/analysis/{analysis_id}").json()["tree"]
    assert sans(again) == sans(played)
    second = again["nodes"][again["nodes"][1]["children"][1]]
    assert (second["san"], second["comment"], second["nags"], second["eval"]) == (
        "e5",
        "open",
        [6],
        {"cp": -20},
    )
    pgn = get(server, f"/api/analysis/{analysis_id}/pgn").text
    assert "1. e4 c5 (1... e5 $6 { open [%eval -0.20] }) 2. Nf3" in " ".join(pgn.split())


def test_several_games_give_a_list_to_choose_from(server: LiveServer) -> None:
    text = "\ufeff" + "\n\n".join([LICHESS, CHESSBASE, CHESSCOM]).replace("\n", "\r\n")
    listed = post(server, "/api/analysis", {"pgn": text})
    assert listed.status_code == 200
    choose = listed.json()["choose"]
    assert choose == [
        {
            "index": 0,
            "white": "alice",
            "black": "bob",
            "result": "1-0",
            "event": "Rated Blitz game",
            "date": "????.??.??",
            "plies": 14,
        },
        {
            "index": 1,
            "white": "Erin",
            "black": "Frank",
            "result": "*",
            "event": "Club",
            "date": "????.??.??",
            "plies": 10,
        },
        {
            "index": 2,
            "white": "carol",
            "black": "dave",
            "result": "1/2-1/2",
            "event": "Live Chess",
            "date": "????.??.??",
            "plies": 4,
        },
    ]
    chosen = post(server, "/api/analysis", {"pgn": text, "game": 1})
    assert chosen.status_code == 201
    assert sans(chosen.json()["tree"]) == [
        "e4",
        "c5",
        "Nf3",
        "d6",
        "d4",
        "cxd4",
        "Nxd4",
        "Nf6",
        "Nc3",
        "a6",
    ]
    for bad in (3, -1, "1", True, 1.0):
        refused(
            post(server, "/api/analysis", {"pgn": text, "game": bad}), 400, "bad_request", "0 to 2"
        )


def test_a_long_file_lists_its_first_500_games_and_any_can_be_chosen(
    server: LiveServer,
) -> None:
    text = "".join(f'[Round "{index}"]\n\n1. e4 e5 *\n\n' for index in range(600))
    choose = post(server, "/api/analysis", {"pgn": text}).json()["choose"]
    assert [entry["index"] for entry in choose] == list(range(500))
    chosen = post(server, "/api/analysis", {"pgn": text, "game": 599, "store": False})
    assert chosen.status_code == 200 and chosen.json()["tree"]["headers"]["Round"] == "599"


def test_a_bad_game_in_a_file_is_named_by_its_line(server: LiveServer) -> None:
    text = CHESSCOM + "\n" + LICHESS.replace("4. Nxe5??", "4. Nxe9??")
    line = text.splitlines().index(next(row for row in text.splitlines() if "Nxe9" in row)) + 1
    assert post(server, "/api/analysis", {"pgn": text, "game": 0, "store": False}).ok
    message = refused(
        post(server, "/api/analysis", {"pgn": text, "game": 1, "store": False}), 400, "bad_pgn"
    )
    assert message.startswith(f"line {line}: 4. 'Nxe9??'"), message
    refused(post(server, "/api/analysis", {"pgn": "1. e4 e5 2. Ke3 *"}), 400, "bad_pgn", "line 1")
    refused(post(server, "/api/analysis", {"pgn": ""}), 400, "bad_pgn", "empty PGN")
    refused(post(server, "/api/analysis", {"pgn": 12}), 400, "bad_request")


@pytest.mark.parametrize(
    ("body", "status", "code", "words"),
    [
        ({"fen": "not a fen"}, 400, "bad_fen", ""),
        ({"fen": TWO_WHITE_KINGS}, 400, "bad_fen", "king"),
        ({"fen": 5}, 400, "bad_fen", "FEN string"),
        ({"fen": START, "pgn": "1. e4"}, 400, "bad_request", "exactly one"),
        ({}, 400, "bad_request", "exactly one"),
        ({"fen": START, "color": "white"}, 400, "bad_request", "exactly one"),
        (
            {"tree": {"fen": START, "nodes": [{}, {"parent": 0, "uci": "e2e5"}]}},
            400,
            "bad_tree",
            "node 1",
        ),
        ({"tree": "nodes"}, 400, "bad_tree", ""),
        ([START], 400, "bad_request", "JSON object"),
    ],
    ids=[
        "junk",
        "two_kings",
        "number",
        "two_sources",
        "none",
        "unknown",
        "illegal",
        "tree",
        "list",
    ],
)
def test_bad_requests_are_refused(
    server: LiveServer, body: Any, status: int, code: str, words: str
) -> None:
    refused(post(server, "/api/analysis", body), status, code, words)


def test_an_impossible_double_check_is_accepted_with_a_notice(server: LiveServer) -> None:
    assert chess.Board(IMPOSSIBLE).status() & chess.STATUS_IMPOSSIBLE_CHECK
    response = post(server, "/api/analysis", {"fen": IMPOSSIBLE, "store": False})
    assert response.status_code == 200, response.text
    assert "cannot arise in a game" in response.json()["tree"]["notice"]
    pgn = f'[SetUp "1"]\n[FEN "{IMPOSSIBLE}"]\n\n1... Kd7 *'
    tree = post(server, "/api/analysis", {"pgn": pgn, "store": False}).json()["tree"]
    assert sans(tree) == ["Kd7"] and "cannot arise" in tree["notice"]
    # Play from it stays refused: a game cannot start there.
    game = requests.post(
        server.url + "/api/games", json={"opponent": "friend", "fen": IMPOSSIBLE}, timeout=TIMEOUT
    )
    assert game.status_code == 400, game.text


def test_export_writes_the_page_s_tree(server: LiveServer) -> None:
    tree = post(server, "/api/analysis", {"pgn": LICHESS, "store": False}).json()["tree"]
    plain = post(server, "/api/analysis/export", {"tree": page_form(tree)})
    assert plain.status_code == 200 and plain.headers["Content-Type"].startswith("text/")
    assert oracle_tree(plain.text) == oracle_tree(LICHESS) and "[%csl" not in plain.text
    annotated = post(server, "/api/analysis/export", {"tree": page_form(tree), "annotations": True})
    assert "[%csl Re5]" in annotated.text and "[%eval #-3]" in annotated.text
    bad = page_form(tree)
    bad["nodes"][5]["uci"] = "a1a8"
    refused(post(server, "/api/analysis/export", {"tree": bad}), 400, "bad_tree", "node 5")
    refused(post(server, "/api/analysis/export", {"pgn": LICHESS}), 400, "bad_request")
    refused(
        post(server, "/api/analysis/export", {"tree": page_form(tree), "annotations": 1}),
        400,
        "bad_request",
    )


def nested(levels: int) -> dict[str, Any]:
    """A page tree with variations nested `levels` deep (see tests/test_analysis_tree.py)."""
    nodes: list[dict[str, Any]] = [{"parent": None}]
    parent = 0
    for level in range(levels):
        nodes.append({"parent": parent, "uci": ("h2h3", "h7h6")[level % 2]})
        nodes.append({"parent": parent, "uci": KNIGHTS[level % 4]})
        parent = len(nodes) - 1
    return {"fen": START, "nodes": nodes}


def test_variations_nested_as_deep_as_a_path_are_refused_not_crashed_on(
    server: LiveServer,
) -> None:
    deep = nested(999)
    refused(post(server, "/api/analysis/export", {"tree": deep}), 400, "bad_tree", "nest deeper")
    refused(post(server, "/api/analysis", {"tree": deep}), 400, "bad_tree", "nest deeper")
    assert post(server, "/api/analysis/export", {"tree": nested(64)}).status_code == 200


def test_unknown_ids(server: LiveServer) -> None:
    for path in ("/api/analysis/AAAAAAAA", "/api/analysis/zz", "/api/analysis/AAAAAAAA/pgn"):
        refused(get(server, path), 404, "not_found")
    refused(get(server, "/api/analysis/game/AAAAAAAAAAAA"), 404, "not_found")
    refused(get(server, "/api/analysis/game/nope"), 404, "not_found")


# -- HTTP: limits -------------------------------------------------------------------------------


def test_large_bodies_here_and_the_4_kb_limit_elsewhere(server: LiveServer) -> None:
    games = "\n\n".join([LICHESS] * 40)  # about 20 KB
    assert len(games) > 4096
    listed = post(server, "/api/analysis", {"pgn": games, "store": False})
    assert listed.status_code == 200 and len(listed.json()["choose"]) == 40
    elsewhere = post(server, "/api/games", {"opponent": "friend", "pad": games})
    refused(elsewhere, 413, "payload_too_large")
    huge = post(server, "/api/analysis", {"pgn": "x" * (1024 * 1024)})
    refused(huge, 413, "payload_too_large")


def test_an_oversized_body_is_refused_before_it_is_sent(server: LiveServer) -> None:
    """A client announcing 2 MB gets its 413 at once: the server does not wait for a body it
    will refuse (the socket's timeout fails the test if it does)."""
    address = urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port), timeout=5) as sock:
        head = (
            "POST /api/analysis HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {2 * 1024 * 1024}\r\n\r\n"
        )
        sock.sendall(head.encode() + b'{"pgn": "')
        answer = ""
        while '"code"' not in answer:
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk.decode(errors="replace")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert '"payload_too_large"' in answer


def test_sharing_is_rate_limited_per_address(share_server: LiveServer) -> None:
    replies = [post(share_server, "/api/analysis", {"fen": START}) for _ in range(21)]
    assert [reply.status_code for reply in replies[:20]] == [201] * 20
    refused(replies[20], 429, "rate_limited")
    assert int(replies[20].headers["Retry-After"]) > 0
    # Parsing without storing is not a share.
    assert post(share_server, "/api/analysis", {"fen": START, "store": False}).status_code == 200


# -- games here as trees, and the pages ----------------------------------------------------------


def test_a_game_here_opens_for_analysis_by_the_own_game_rule(server: LiveServer) -> None:
    table = FriendGame(server.url)
    try:
        table.play("e2e4", "e7e5", "g1f3")
        path = f"/api/analysis/game/{table.id}"
        watcher = get(server, path)  # no seat: a spectator
        assert watcher.status_code == 200, watcher.text
        tree = watcher.json()["tree"]
        assert sans(tree) == ["e4", "e5", "Nf3"] and watcher.json()["id"] is None
        assert tree["nodes"][-1]["fen"] == table.white.states[-1]["fen"]
        assert get(server, f"/analysis/{table.id}").status_code == 200

        bearer = {"Authorization": f"Bearer {table.black_seat}"}
        refused(get(server, path, headers=bearer), 403, "forbidden", "your own game")
        cookie = {cookie_name(table.id): table.white_seat}
        refused(get(server, path, cookies=cookie), 403, "forbidden")
        assert get(server, f"/analysis/{table.id}", cookies=cookie).status_code == 403
        assert get(server, f"/analysis/{table.id}", headers=bearer).status_code == 403
        # Someone else's seat token, or junk, is no seat in this game.
        assert get(server, path, headers={"Authorization": "Bearer nonsense"}).status_code == 200

        reply = table.black.call("resign", {"game": table.id})
        assert reply["ok"], reply
        table.white.wait_version(reply["version"])
        finished = get(server, path, headers=bearer)
        assert finished.status_code == 200
        assert finished.json()["tree"]["result"] == "1-0"
        assert get(server, f"/analysis/{table.id}", cookies=cookie).status_code == 200
    finally:
        table.close()


def test_the_pages(server: LiveServer) -> None:
    analysis_id = post(server, "/api/analysis", {"fen": START}).json()["id"]
    for path in ("/analysis", f"/analysis?fen={quote(START)}", f"/analysis/{analysis_id}"):
        page = get(server, path)
        assert page.status_code == 200 and "text/html" in page.headers["Content-Type"], path
    for path in ("/analysis/AAAAAAAA", "/analysis/AAAAAAAAAAAA", "/analysis/x", "/analysis/%00"):
        assert get(server, path).status_code == 404, path


# -- Socket.IO ----------------------------------------------------------------------------------


@pytest.fixture
def client(server: LiveServer) -> Any:
    connection = GameClient(server.url)
    yield connection
    connection.close()


def position(client: GameClient, fen: str, moves: list[str]) -> dict[str, Any]:
    reply = client.call("analysis_position", {"fen": fen, "moves": moves})
    assert reply["ok"], reply
    return dict(reply["position"])


def test_position_facts_equal_a_game_s_state(server: LiveServer, client: GameClient) -> None:
    table = FriendGame(server.url)
    watcher = GameClient(server.url)
    try:
        watcher.join(table.id)
        moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5"]
        table.play(*moves)
        spectator = watcher.wait_version(table.version)
        mover = table.black.wait_version(table.version)  # black to move: dests and safety
        facts = position(client, START, moves)
        for name in ("fen", "ply", "turn", "check", "checked_king", "last_move", "threats"):
            assert facts[name] == spectator[name], name
        for name in ("insight", "announcement", "opening"):
            assert facts[name] == spectator[name], name
        assert facts["safety"] == mover["safety"] and facts["safety"]
        assert facts["dests"] == mover["dests"]
        assert facts["status"] == "playing" and facts["outcome"] is None
        assert facts["notice"] is None
        board = chess.Board()
        for uci in moves:
            board.push_uci(uci)
        assert facts["fen"] == board.fen()
        expected = {}
        for move in board.legal_moves:
            expected.setdefault(chess.square_name(move.from_square), []).append(
                chess.square_name(move.to_square)
            )
        assert {key: sorted(value) for key, value in facts["dests"].items()} == {
            key: sorted(value) for key, value in expected.items()
        }
    finally:
        watcher.close()
        table.close()


def test_a_new_move_and_a_san_move(client: GameClient) -> None:
    made = position(client, START, ["e2e4", "e7e5", "g1f3"])
    assert made["last_move"] == {"uci": "g1f3", "san": "Nf3"} and made["ply"] == 3
    assert made["turn"] == "black"
    by_san = position(client, START, ["e2e4", "e7e5", "Nf3"])
    assert by_san == made
    castle = position(client, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["O-O-O"])
    assert castle["last_move"] == {"uci": "e1c1", "san": "O-O-O"}
    promotion = position(client, "8/P6k/8/8/8/8/8/K7 w - - 0 1", ["a7a8q"])
    assert promotion["last_move"]["san"] == "a8=Q"
    assert position(client, "8/P6k/8/8/8/8/8/K7 w - - 0 1", [])["promotions"] == PROMOTIONS
    start = position(client, START, [])
    assert start["last_move"] is None and start["ply"] == 0 and len(start["dests"]) == 10


def test_an_illegal_move_is_named_with_its_index(client: GameClient) -> None:
    reply = client.call("analysis_position", {"fen": START, "moves": ["e2e4", "e2e4", "g1f3"]})
    assert reply["ok"] is False and reply["code"] == "illegal_move"
    assert "move 2 of the path, 'e2e4'" in reply["error"]
    reply = client.call("analysis_position", {"fen": START, "moves": ["e2e4", "Nf6", "g1f3"]})
    assert reply["code"] == "illegal_move" and "move 2" in reply["error"]  # SAN only last
    reply = client.call("analysis_position", {"fen": START, "moves": ["e2e4", "Ke2"]})
    assert reply["code"] == "illegal_move" and "move 2 of the path, 'Ke2'" in reply["error"]


def test_a_path_of_a_thousand_moves_in_one_frame(client: GameClient) -> None:
    moves = [KNIGHTS[index % 4] for index in range(1000)]
    frame = json.dumps({"fen": START, "moves": moves})
    assert 7000 < len(frame) < 16384  # one Socket.IO frame
    facts = position(client, START, moves)
    assert facts["ply"] == 1000 and facts["fen"].split()[:4] == START.split()[:4]
    # The knights repeated the position far beyond five times: the game would be over.
    assert facts["status"] == "over" and facts["outcome"] is not None and facts["dests"] == {}
    reply = client.call("analysis_position", {"fen": START, "moves": [*moves, "g1f3"]})
    assert reply["ok"] is False and reply["code"] == "bad_request" and "1000" in reply["error"]


@pytest.mark.parametrize(
    ("fen", "moves", "winner"),
    [
        (START, ["f2f3", "e7e5", "g2g4", "d8h4"], "black"),
        ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", ["f7f8"], "white"),
        ("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", ["f7e7"], None),
    ],
    ids=["fools_mate", "back_rank", "still_playing"],
)
def test_game_over_positions(
    client: GameClient, fen: str, moves: list[str], winner: str | None
) -> None:
    facts = position(client, fen, moves)
    board = chess.Board(fen)
    for uci in moves:
        board.push_uci(uci)
    outcome = board.outcome()
    if outcome is None:
        assert facts["status"] == "playing" and facts["outcome"] is None
        assert facts["dests"]
        return
    assert facts["status"] == "over" and facts["dests"] == {} and facts["safety"] is None
    assert facts["outcome"] is not None
    assert facts["check"] == board.is_check()
    assert (winner is None) == (outcome.winner is None)
    assert json.dumps(facts["outcome"]).count(winner or "draw") >= 1


def test_a_stalemate(client: GameClient) -> None:
    facts = position(client, "7k/8/6QK/8/8/8/8/8 b - - 0 1", [])
    assert facts["status"] == "over" and facts["dests"] == {} and not facts["check"]
    assert "stalemate" in json.dumps(facts["outcome"])


def test_an_impossible_root_over_socket_io(client: GameClient) -> None:
    facts = position(client, IMPOSSIBLE, [])
    assert "cannot arise in a game" in facts["notice"]
    assert facts["check"] and sorted(facts["dests"]["e8"]) == ["d7", "e7", "f7"]
    assert sorted(
        chess.square_name(move.to_square) for move in chess.Board(IMPOSSIBLE).legal_moves
    ) == ["d7", "e7", "f7"]
    after = position(client, IMPOSSIBLE, ["e8e7"])
    assert after["notice"] == facts["notice"] and after["last_move"]["san"] == "Ke7"
    reply = client.call("analysis_position", {"fen": TWO_WHITE_KINGS, "moves": []})
    assert reply["ok"] is False and reply["code"] == "bad_fen"


def test_preview_and_describe_equal_the_game_s(server: LiveServer, client: GameClient) -> None:
    table = FriendGame(server.url)
    try:
        moves = ["e2e4", "e7e5", "g1f3", "b8c6"]
        state = table.play(*moves)
        ply = state["ply"]
        game = table.white.call("preview", {"game": table.id, "ply": ply, "uci": "f1b5"})
        ours = client.call("analysis_preview", {"fen": START, "moves": moves, "uci": "f1b5"})
        assert game["ok"] and ours == game
        for square in ("e5", "c6", "f3", "a1", "h8"):
            theirs = table.white.call("describe", {"game": table.id, "ply": ply, "square": square})
            mine = client.call(
                "analysis_describe", {"fen": START, "moves": moves, "square": square}
            )
            assert theirs["ok"] and mine == theirs, square
    finally:
        table.close()


JUNK: list[tuple[str, Any, str]] = [
    ("analysis_position", None, "bad_request"),
    ("analysis_position", [], "bad_request"),
    ("analysis_position", "e2e4", "bad_request"),
    ("analysis_position", {"moves": []}, "bad_request"),
    ("analysis_position", {"fen": 42, "moves": []}, "bad_request"),
    ("analysis_position", {"fen": "x" * 5000, "moves": []}, "bad_request"),
    ("analysis_position", {"fen": "not a fen", "moves": []}, "bad_fen"),
    ("analysis_position", {"fen": START, "moves": "e2e4"}, "bad_request"),
    ("analysis_position", {"fen": START, "moves": [42]}, "bad_request"),
    ("analysis_position", {"fen": START, "moves": [None]}, "bad_request"),
    ("analysis_position", {"fen": START, "moves": ["e2e4", ""]}, "bad_request"),
    ("analysis_position", {"fen": START, "moves": ["x" * 50]}, "bad_request"),
    ("analysis_position", {"fen": START, "moves": [], "extra": 1}, "bad_request"),
    ("analysis_preview", {"fen": START, "moves": []}, "bad_request"),
    ("analysis_preview", {"fen": START, "moves": [], "uci": "e2e5"}, "illegal_move"),
    ("analysis_preview", {"fen": START, "moves": [], "uci": "zz"}, "bad_request"),
    ("analysis_preview", {"fen": START, "moves": [], "move": "e2e4"}, "bad_request"),
    ("analysis_describe", {"fen": START, "moves": [], "square": "i9"}, "bad_request"),
    ("analysis_describe", {"fen": START, "moves": []}, "bad_request"),
    ("analysis_describe", {"fen": START, "moves": ["e2e5"], "square": "e4"}, "illegal_move"),
]


@pytest.mark.parametrize(
    ("event", "payload", "code"), JUNK, ids=[f"{e}-{i}" for i, (e, _, _) in enumerate(JUNK)]
)
def test_junk_payloads_are_answered_with_a_clear_error(
    client: GameClient, event: str, payload: Any, code: str
) -> None:
    reply = client.call(event, payload)
    assert reply["ok"] is False and reply["code"] == code, reply
    assert isinstance(reply["error"], str) and reply["error"]
    assert position(client, START, ["e2e4"])["last_move"]["san"] == "e4"  # still served
