"""The work pool (server.work): large requests never stall the players, and cost their sender.

A real server on 127.0.0.1 with one worker and room for one waiting job; attackers are other
loopback addresses (tests/support/addresses.py) posting the heaviest export there is, the
annotated PGN of a 5,000-move tree. Nothing is timed: each test asserts what was answered, and
in which order, while large requests were known to be in the pool (a third one refused
`busy`: one runs, one waits). The time bound on a job is tested in tests/test_work_pool.py,
with a job that sleeps: how long a heavy request takes depends on the machine.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from chesscore import Board
from chesscore.analysis.annotate import annotation_of_move
from chesscore.rules.pgn_export import make_tree_pgn
from tests.support.addresses import SourceAddress
from tests.support.big_trees import MAX_MOVES, big_game, big_tree, compact_tree
from tests.support.game_client import GameClient, api_join, api_move, create_game
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

WAIT_SECONDS = 300.0  # a bound on a heavy job on a busy machine, not a speed requirement
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
TINY_BODY = {"tree": {"fen": START_FEN, "nodes": [{}]}, "annotations": False}

server = module_server(
    "offload",
    env={
        "CHESS_COMPUTER_DELAY": "0",
        "CHESS_WORK_PROCESSES": "1",
        "CHESS_WORK_WAITING": "1",
        "CHESS_WORK_SECONDS": str(WAIT_SECONDS),
        "CHESS_WORK_BURST": "40",  # the default, which tests/conftest.py lifts elsewhere
    },
)
# The work units plentiful, so what refuses is the reviews' own bucket.
review_server = module_server(
    "offload_reviews",
    env={
        "CHESS_WORK_BURST": "1000",
        "CHESS_REVIEW_SECONDS": "0.05",
        "CHESS_REVIEW_DEPTH": "1",
    },
)


@pytest.fixture(scope="module")
def heavy_body() -> dict[str, Any]:
    return {"tree": compact_tree(big_tree(MAX_MOVES)), "annotations": True}


def session_from(address: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", SourceAddress(address))
    return session


class Answers:
    """Who was answered what, in the order the answers came."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, str]] = []
        self.condition = threading.Condition()

    def add(self, who: str, response: requests.Response) -> None:
        code = "ok" if response.ok else str(response.json()["code"])
        with self.condition:
            self.seen.append((who, response.status_code, code))
            self.condition.notify_all()

    def wait_for(self, code: str) -> None:
        with self.condition:
            assert self.condition.wait_for(
                lambda: any(seen[2] == code for seen in self.seen), WAIT_SECONDS
            ), self.seen


def post_in_thread(
    url: str, address: str, body: dict[str, Any], answers: Answers
) -> threading.Thread:
    def post() -> None:
        response = session_from(address).post(url, json=body, timeout=WAIT_SECONDS)
        answers.add(address, response)

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def victim(server: LiveServer) -> Iterator[tuple[GameClient, str]]:
    created = create_game(server.url, opponent="computer", color="white", level=1)
    client = GameClient(server.url)
    client.join(created["game"], seat=created["seat"])
    yield client, created["game"]
    client.close()


def test_a_player_is_answered_while_large_requests_work(
    server: LiveServer, victim: tuple[GameClient, str], heavy_body: dict[str, Any]
) -> None:
    export = server.url + "/api/analysis/export"
    assert session_from("127.0.0.9").post(export, json=TINY_BODY, timeout=WAIT_SECONDS).ok
    answers = Answers()
    attackers = ("127.0.0.2", "127.0.0.3", "127.0.0.4")
    threads = [post_in_thread(export, address, heavy_body, answers) for address in attackers]
    # One worker, room for one waiting: a `busy` answer means one export is in the worker and
    # another waits for it.
    answers.wait_for("busy")
    client, game = victim
    assert client.move(game, 0, "e2e4")["ok"]
    client.wait_for(lambda state: state["ply"] == 2)  # the level-1 computer's reply
    page = requests.get(server.url + "/", timeout=WAIT_SECONDS)
    answers.add("victim", page)
    for thread in threads:
        thread.join(WAIT_SECONDS)
    assert sorted(code for _, _, code in answers.seen) == ["busy", "ok", "ok", "ok"], answers.seen
    # The player's reply and the page came while the running export was still in the worker
    # (it takes seconds of CPU; the reply, a level-1 move, milliseconds), and before the
    # waiting one, which could only start after it.
    assert all(who in attackers and code == "ok" for who, _, code in answers.seen[-2:]), (
        answers.seen
    )


def test_a_large_export_gives_the_same_pgn_from_the_pool(server: LiveServer) -> None:
    tree = big_tree(300)
    response = requests.post(
        server.url + "/api/analysis/export",
        json={"tree": tree, "annotations": True},
        timeout=WAIT_SECONDS,
    )
    assert response.ok, response.text
    assert response.text == make_tree_pgn(big_game(300), annotation_of_move)


def test_large_bodies_are_refused_by_their_cost_before_they_are_decoded(server: LiveServer) -> None:
    junk = b"[" + b" " * (1024 * 1024 - 100)
    session = session_from("127.0.0.6")
    headers = {"Content-Type": "application/json"}
    answers = [
        session.post(
            server.url + "/api/analysis/export", data=junk, headers=headers, timeout=WAIT_SECONDS
        )
        for _ in range(3)
    ]
    for answer in answers[:2]:
        refused(answer, 400, "bad_request", "not valid JSON")
    refused(answers[2], 429, "rate_limited", "this request costs 17 units")
    assert "Retry-After" in answers[2].headers


def test_review_posts_are_refused_by_the_rate_limit_before_the_pgn_is_read(
    review_server: LiveServer,
) -> None:
    session = session_from("127.0.0.7")
    reviews = review_server.url + "/api/reviews"
    statuses = [
        session.post(reviews, json={"pgn": "1. e4 e5 *"}, timeout=WAIT_SECONDS).status_code
        for _ in range(20)  # REVIEW_BURST: the same game again costs a token too
    ]
    assert statuses == [201] + [200] * 19
    junk = json.dumps({"pgn": "1. e4 (" * 140_000})
    response = session.post(
        reviews, data=junk, headers={"Content-Type": "application/json"}, timeout=WAIT_SECONDS
    )
    refused(response, 429, "rate_limited", "too many reviews")


def test_a_games_annotated_pgn_is_written_in_the_pool(server: LiveServer) -> None:
    created = create_game(server.url, opponent="friend", color="white")
    seats = {"white": created["seat"], "black": api_join(server.url, created)}
    for ply, uci in enumerate(("e2e4", "e7e5", "g1f3", "b8c6", "f1b5")):
        api_move(server.url, created["game"], seats["white" if ply % 2 == 0 else "black"], ply, uci)
    url = f"{server.url}/api/games/{created['game']}/pgn"
    annotated = requests.get(url + "?annotated=1", timeout=WAIT_SECONDS)
    plain = requests.get(url, timeout=WAIT_SECONDS)
    assert annotated.ok and plain.ok, annotated.text
    assert '[Annotator "chesscore threat map"]' in annotated.text and "[%csl" in annotated.text
    assert "1. e4" in annotated.text and "3. Bb5" in annotated.text
    assert "[%csl" not in plain.text


def test_a_long_analysis_path_is_replayed_in_the_pool_with_the_same_answers(
    server: LiveServer,
) -> None:
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 100 + ["e2e4"]
    board = Board()
    for uci in moves:
        board.push_uci(uci)
    client = GameClient(server.url)
    try:
        reply = client.call("analysis_position", {"fen": START_FEN, "moves": moves})
        assert reply["ok"], reply
        assert reply["position"]["fen"] == board.fen()
        assert reply["position"]["last_move"] == {"uci": "e2e4", "san": "e4"}
        wrong = [*moves[:300], "e2e5", *moves[301:]]
        refused_path = client.call("analysis_position", {"fen": START_FEN, "moves": wrong})
        assert refused_path["code"] == "illegal_move", refused_path
        assert "move 301 of the path, 'e2e5'" in refused_path["error"]
    finally:
        client.close()
