"""The work pool (server.work): large requests never stall the players, and cost their sender.

A real server on 127.0.0.1 with one worker and room for one waiting job; attackers are other
loopback addresses (tests/support/addresses.py) posting the heaviest export there is, the
annotated PGN of a 5,000-move tree. Nothing is timed: each test asserts what was answered, and
in which order, while a large request was known to be in the worker (its address's next
request refused as one in flight).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from chesscore.analysis.annotate import annotation_of_move
from chesscore.rules.pgn_export import make_tree_pgn
from tests.support.addresses import SourceAddress
from tests.support.big_trees import MAX_MOVES, big_game, big_tree, compact_tree
from tests.support.game_client import GameClient, create_game
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
    },
)
strict_server = module_server(
    "offload_strict",
    env={
        "CHESS_WORK_SECONDS": "1",
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

    def index(self, who: str) -> int:
        return next(i for i, seen in enumerate(self.seen) if seen[0] == who)


def post_in_thread(
    url: str, address: str, body: dict[str, Any], answers: Answers
) -> threading.Thread:
    def post() -> None:
        response = session_from(address).post(url, json=body, timeout=WAIT_SECONDS)
        answers.add(address, response)

    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    return thread


def wait_in_flight(url: str, address: str) -> None:
    """Return once `address`'s large request is in the worker: its next one is refused."""
    session = session_from(address)
    for _ in range(600):
        response = session.post(url, json=TINY_BODY, timeout=WAIT_SECONDS)
        if response.status_code == 429 and "one large request" in response.json()["error"]:
            return
        time.sleep(0.05)
    raise AssertionError(f"the request of {address} was never seen in flight")


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
    running = post_in_thread(export, "127.0.0.2", heavy_body, answers)
    wait_in_flight(export, "127.0.0.2")
    others = [
        post_in_thread(export, address, heavy_body, answers)
        for address in ("127.0.0.3", "127.0.0.4")
    ]
    answers.wait_for("busy")  # one waits for the worker, the other finds no room to wait
    client, game = victim
    assert client.move(game, 0, "e2e4")["ok"]
    client.wait_for(lambda state: state["ply"] == 2)  # the level-1 computer's reply
    page = requests.get(server.url + "/", timeout=WAIT_SECONDS)
    answers.add("victim", page)
    for thread in (running, *others):
        thread.join(WAIT_SECONDS)
    codes = sorted(code for who, _, code in answers.seen if who != "victim")
    assert codes == ["busy", "ok", "ok"], answers.seen
    # The player's reply and the page came while the first export was still in the worker,
    # and the waiting one behind it.
    assert answers.index("victim") < answers.index("127.0.0.2"), answers.seen
    waiting = next(
        who for who, _, code in answers.seen if code == "ok" and who not in ("127.0.0.2", "victim")
    )
    assert answers.index("victim") < answers.index(waiting), answers.seen


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


def test_a_job_past_its_time_bound_is_stopped_and_its_worker_replaced(
    strict_server: LiveServer, heavy_body: dict[str, Any]
) -> None:
    export = strict_server.url + "/api/analysis/export"
    assert requests.post(export, json=TINY_BODY, timeout=WAIT_SECONDS).ok  # the worker is up
    refused(requests.post(export, json=heavy_body, timeout=WAIT_SECONDS), 422, "too_slow", "1 s")
    after = requests.post(export, json=TINY_BODY, timeout=WAIT_SECONDS)
    assert after.ok and after.text.startswith("[Event"), after.text


def test_review_posts_are_refused_by_the_rate_limit_before_the_pgn_is_read(
    strict_server: LiveServer,
) -> None:
    session = session_from("127.0.0.7")
    reviews = strict_server.url + "/api/reviews"
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
