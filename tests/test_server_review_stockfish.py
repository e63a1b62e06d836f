"""Game review by Stockfish (issue 24) against the real server on 127.0.0.1 and the real npm
build under Node: a short game in which a queen is lost to a recapture, reviewed through the
HTTP API and marked a blunder with the queen named; the review naming its engine and budget;
`review_try` judged by Stockfish; a review by our own engine asked for again and reviewed anew
by Stockfish; a live game's computer move taking the only worker from a Stockfish review,
which then resumes; and no engine process left once the server is killed. python-chess is the
oracle for the positions."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from pathlib import Path
from typing import Any

import chess
import pytest
import requests

from server.engine.stockfish import NPM_BUILD
from server.engine.worker import WORKER_NICENESS
from tests.support.game_client import GameClient
from tests.support.live_server import LiveServer
from tests.support.processes import children_of, niceness, survivors
from tests.support.server_fixture import module_server
from tests.test_server_computer import engine_workers
from tests.test_server_review import get, play_while_reviewing, post, random_pgn, wait_review

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(
        shutil.which("node") is None or not NPM_BUILD.is_file(),
        reason="node or the npm Stockfish build is missing",
    ),
]

NODES = 100_000
# A generous bound on a server's start: on a machine whose cores other work holds, importing
# the server's packages alone has taken 15 s.
START_SECONDS = 120
STOCKFISH = {
    "CHESS_STOCKFISH": "",  # the default: the npm lite build under Node
    "CHESS_REVIEW_NODES": str(NODES),
    "CHESS_COMPUTER_DELAY": "0.05",
}
server = module_server("review_stockfish", {**STOCKFISH, "CHESS_ENGINE_WORKERS": "2"})

# 1.e4 e5 2.Qh5 Nc6 3.Qxe5+?? Nxe5: the queen takes a pawn the knight defends, and is lost.
QUEEN_LOST = ("e2e4", "e7e5", "d1h5", "b8c6", "h5e5", "c6e5")
QUEEN_PLY = 5
QUEEN_PGN = """[Event "Casual"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *
"""


@pytest.fixture(scope="module")
def queen_review(server: LiveServer) -> dict[str, Any]:
    response = post(server.url, {"pgn": QUEEN_PGN})
    assert response.status_code == 201, response.text
    return wait_review(server.url, response.json()["id"])


def test_a_queen_lost_to_a_recapture_is_a_blunder_naming_the_queen(
    queen_review: dict[str, Any],
) -> None:
    review = queen_review
    assert review["engine"] == {"name": "Stockfish 19 lite", "nodes": NODES}
    assert review["progress"] == {"done": 7, "total": 7}
    assert [item["uci"] for item in review["plies"]] == list(QUEEN_LOST)
    board = chess.Board()
    for item in review["plies"]:
        board.push_uci(item["uci"])
        assert item["fen"] == board.fen()
        assert item["accuracy"] is not None  # every ply judged, the two halves' seam too
    blunder = review["plies"][QUEEN_PLY - 1]
    assert (blunder["class"], blunder["symbol"]) == ("blunder", "??"), blunder
    assert blunder["eval"]["cp"] < -500, blunder  # White's view: a queen down for a pawn
    recapture = review["plies"][QUEEN_PLY]
    assert recapture["class"] is None, recapture  # taking the queen back is no mistake
    assert review["counts"]["white"]["blunder"] == 1
    assert review["counts"]["black"]["blunder"] == 0
    assert review["accuracy"]["black"] > review["accuracy"]["white"]


def test_the_queens_blunder_names_the_queen(queen_review: dict[str, Any]) -> None:
    blunder = queen_review["plies"][QUEEN_PLY - 1]
    assert blunder["class"] == "blunder"
    text = blunder["explanation"]["text"]
    assert "loses the queen" in text, blunder["explanation"]


def test_a_marks_positions_were_searched_again_deeper(
    server: LiveServer, queen_review: dict[str, Any]
) -> None:
    with sqlite3.connect(server.instance_path / "games.sqlite3") as db:
        (text,) = db.execute(
            "SELECT evals FROM reviews WHERE id = ?", (queen_review["id"],)
        ).fetchone()
    evals = json.loads(text)
    assert [item["index"] for item in evals] == list(range(7))
    again = {item["index"] for item in evals if item["verified"]}
    assert {QUEEN_PLY - 1, QUEEN_PLY} <= again, again  # the blunder's two positions
    for item in queen_review["plies"]:
        if item["class"] in ("mistake", "blunder"):  # no mark on the first search's numbers
            assert {item["ply"] - 1, item["ply"]} <= again, item
    for item in evals:
        # Searched again at three times the nodes: more than the first search may take.
        assert item["nodes"] > (NODES if item["verified"] else 0), item
        assert item["depth"] >= 8, item


def test_the_review_carries_the_accuracy_by_phase_and_so_far(
    queen_review: dict[str, Any],
) -> None:
    review = queen_review
    assert review["phases"] == {"middlegame": None, "endgame": None}  # six plies of opening
    for color in ("white", "black"):
        accuracy = review["accuracy"][color]
        assert review["phase_accuracy"][color] == {
            "opening": accuracy, "middlegame": None, "endgame": None
        }  # fmt: skip
    so_far = review["accuracy_so_far"]
    assert len(so_far) == len(QUEEN_LOST)
    assert so_far[0]["black"] is None and so_far[0]["white"] is not None
    assert so_far[-1] == review["accuracy"]
    assert so_far[QUEEN_PLY - 1]["white"] < so_far[QUEEN_PLY - 2]["white"]  # the blunder


def test_a_try_is_judged_by_stockfish(server: LiveServer, queen_review: dict[str, Any]) -> None:
    client = GameClient(server.url)
    try:
        review_id = queen_review["id"]
        # 3. Nc3, a move the review has no evaluation of: Stockfish in the pool judges it
        # (not lost, not good either: 3... Nf6 gains a tempo on the queen).
        reply = client.call("review_try", {"id": review_id, "ply": QUEEN_PLY, "uci": "b1c3"})
        assert reply["ok"] and "cp" in reply["eval"] and abs(reply["eval"]["cp"]) < 300, reply
        # The best move, known from the review: accepted.
        best = queen_review["plies"][QUEEN_PLY - 1]["best"]
        reply = client.call("review_try", {"id": review_id, "ply": QUEEN_PLY, "uci": best["uci"]})
        assert reply["ok"] and reply["accepted"] is True and reply["margin"] == 0, reply
        # 3. Qxf7+, another queen lost, to the king: refused.
        reply = client.call("review_try", {"id": review_id, "ply": QUEEN_PLY, "uci": "h5f7"})
        assert reply["ok"] and reply["accepted"] is False, reply
        assert reply["eval"]["cp"] < -500, reply
    finally:
        client.close()


def test_our_engines_review_is_reviewed_again_by_stockfish(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    ours_env = {"CHESS_STOCKFISH": "none", "CHESS_REVIEW_SECONDS": "60", "CHESS_REVIEW_DEPTH": "3"}
    own = LiveServer(instance, env={**STOCKFISH, **ours_env})
    own.start(START_SECONDS)
    try:
        first = post(own.url, {"pgn": QUEEN_PGN}).json()
        ours = wait_review(own.url, first["id"])
        assert ours["engine"] == {"name": "our engine", "seconds": 60.0, "depth": 3}
        assert post(own.url, {"pgn": QUEEN_PGN}).json()["id"] == first["id"]  # the same engine
    finally:
        own.stop()
    stockfish = LiveServer(instance, env=STOCKFISH)
    stockfish.start(START_SECONDS)
    try:
        again = post(stockfish.url, {"pgn": QUEEN_PGN})
        assert again.status_code == 201, again.text
        assert again.json()["id"] != first["id"]
        review = wait_review(stockfish.url, again.json()["id"])
        assert review["engine"]["name"] == "Stockfish 19 lite"
        assert post(stockfish.url, {"pgn": QUEEN_PGN}).json()["id"] == review["id"]
        old = get(stockfish.url, f"/api/reviews/{first['id']}").json()
        assert old["engine"]["name"] == "our engine"  # the old one is still there to read
    finally:
        stockfish.stop()
    said = [line for line in (instance / "server.log").read_text().splitlines()
            if line.startswith("Game reviews: ")]  # fmt: skip
    assert said[0].startswith("Game reviews: evaluated by our own engine"), said
    assert said[1].startswith("Game reviews: evaluated by Stockfish 19 lite: "), said
    assert said[1].endswith("stockfish-19-lite-single.js"), said


def test_a_live_games_move_preempts_a_stockfish_review(tmp_path: Path) -> None:
    """One worker: the computer's reply can only be searched when the review's Stockfish is
    stopped and gives its lane up; the review then resumes and ends complete."""
    # 150,000 nodes a position: about 6 s for 17 positions at 450k nps, long enough for two
    # computer moves of level 3 (0.2 s each, a time bound that no load stretches, while the
    # review's nodes slow with the load: minutes at load 15, where 300,000 ran past 400 s).
    env = {**STOCKFISH, "CHESS_ENGINE_WORKERS": "1", "CHESS_REVIEW_NODES": "150000"}
    live = LiveServer(tmp_path / "instance", env=env)
    live.start(START_SECONDS)
    player: GameClient | None = None
    try:
        response = post(live.url, {"pgn": random_pgn(5, 16)})
        assert response.status_code == 201, response.text
        review_id = response.json()["id"]
        player = play_while_reviewing(live.url, review_id)
        review = wait_review(live.url, review_id)
        assert review["progress"] == {"done": 17, "total": 17}
        assert all(item["accuracy"] is not None for item in review["plies"])
    finally:
        if player is not None:
            player.close()
        live.stop()


def node_engines(pid: int) -> list[int]:
    """The engine processes (Node) of the server's workers."""
    return [
        child
        for worker in engine_workers(pid)
        for child in children_of(worker)
        if b"stockfish" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_no_engine_is_left_when_the_server_is_killed(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "instance", env={**STOCKFISH, "CHESS_ENGINE_WORKERS": "2"})
    live.start(START_SECONDS)
    engines: list[int] = []
    try:
        response = post(live.url, {"pgn": random_pgn(7, 30)})
        assert response.status_code == 201, response.text
        review_id = response.json()["id"]
        deadline = time.monotonic() + 120  # a guard against hanging, not a speed requirement
        assert live.process is not None
        while len(engines) < 2 and time.monotonic() < deadline:
            engines = node_engines(live.process.pid)
            time.sleep(0.2)
        assert len(engines) == 2, engines  # one Stockfish per worker, both on the review
        assert all(niceness(pid) >= WORKER_NICENESS for pid in engines)  # players go first
        wait_review(live.url, review_id)
        assert sorted(node_engines(live.process.pid)) == sorted(engines)  # kept warm
    finally:
        live.kill()
    assert survivors(engines, 20) == [], f"engines left: {engines}"


BROKEN_ENGINE = """#!/bin/sh
# Shakes hands like a UCI engine, then dies on every search.
while read -r line; do
  case "$line" in
    uci) echo "id name Broken"; echo uciok ;;
    isready) echo readyok ;;
    go*) exit 1 ;;
  esac
done
"""


def test_a_review_the_engine_cannot_finish_fails_alone(tmp_path: Path) -> None:
    """An engine that dies on every search: each review ends `failed` with an error, one
    after the other (the queue goes on), and the server still answers."""
    engine = tmp_path / "broken-engine"
    engine.write_text(BROKEN_ENGINE)
    engine.chmod(0o755)
    env = {**STOCKFISH, "CHESS_STOCKFISH": str(engine), "CHESS_ENGINE_WORKERS": "1"}
    live = LiveServer(tmp_path / "instance", env=env)
    live.start(START_SECONDS)
    try:
        ids = [post(live.url, {"pgn": random_pgn(seed, 6)}).json()["id"] for seed in (1, 2)]
        for review_id in ids:
            review = wait_failed(live.url, review_id)
            assert review["engine"]["name"] == "Broken"
            assert review["error"] == "the engine could not review this game", review
        assert get(live.url, "/api/reviews/" + ids[0]).status_code == 200
        french = requests.get(
            live.url + "/api/reviews/" + ids[0],
            headers={"Accept-Language": "fr-FR,fr;q=0.9"},
            timeout=30,
        ).json()
        assert french["error"] == "le moteur n'a pas pu analyser cette partie", french
        log = (tmp_path / "instance" / "server.log").read_text()
        assert f"Game reviews: evaluated by Broken: {engine}" in log
    finally:
        live.stop()


def wait_failed(url: str, review_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 180  # a guard against hanging, not a speed requirement
    while True:
        review: dict[str, Any] = get(url, f"/api/reviews/{review_id}").json()
        assert review["status"] != "done", review
        if review["status"] == "failed":
            return review
        assert time.monotonic() < deadline, f"review {review_id} is still {review['status']}"
        time.sleep(0.2)
