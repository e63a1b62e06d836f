"""The engine ends on queen-heavy legal positions over the real server (issue 26, point 2):
nine queens a side and 127 legal moves, where depth 1 alone used to run for minutes. The
analysis board's `engine_start` streams lines and ends, a level-8 computer plays its move, and a
one-ply review from that position is done, each long before a generous bound, and a second
visitor's request is answered meanwhile. The order of events is asserted, not durations."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import chess
import pytest
import requests

from tests.support.game_client import GameClient, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_search_bounds import NINE_QUEENS
from tests.test_server_engine_events import EngineClient

pytestmark = pytest.mark.server

server = module_server(
    "hostile_engine",
    {"CHESS_ENGINE_WORKERS": "2", "CHESS_REVIEW_SECONDS": "0.5", "CHESS_COMPUTER_DELAY": "0.05"},
)

BOUND = 180.0  # seconds: several times every budget involved, on a loaded machine


@pytest.fixture
def client(server: LiveServer) -> Iterator[EngineClient]:
    engine = EngineClient(server.url)
    yield engine
    engine.close()


def wait_until(found: Any, what: str) -> Any:
    deadline = time.monotonic() + BOUND
    while (value := found()) is None:
        assert time.monotonic() < deadline, f"no {what} within {BOUND:g} s"
        time.sleep(0.2)
    return value


def test_engine_start_on_nine_queens_streams_lines_and_ends(
    server: LiveServer, client: EngineClient
) -> None:
    reply = client.call("engine_start", {"fen": NINE_QUEENS, "multipv": 3})
    assert reply["ok"], reply
    job = reply["job"]

    def final() -> dict[str, Any] | None:
        with client.condition:
            return next((m for m in client.lines if m["job"] == job and m["done"]), None)

    last = wait_until(final, "final engine update")
    with client.condition:
        updates = [m for m in client.lines if m["job"] == job]
    assert any(m["lines"] for m in updates), updates[-1:]
    legal = chess.Board(NINE_QUEENS).legal_moves
    for line in next(m for m in reversed(updates) if m["lines"])["lines"]:
        assert chess.Move.from_uci(line["uci"][0]) in legal
    assert last["done"]


def test_a_level_8_computer_plays_on_nine_queens(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="black", level=8, fen=NINE_QUEENS)
    player = GameClient(server.url)
    try:
        player.join(created["game"], seat=created["seat"])

        def moved() -> dict[str, Any] | None:
            with player.condition:
                return next((s for s in player.states if s["ply"] >= 1), None)

        state = wait_until(moved, "computer move")
        assert state["ply"] == 1
    finally:
        player.close()


def test_a_one_ply_review_from_nine_queens_is_done(server: LiveServer) -> None:
    board = chess.Board(NINE_QUEENS)
    move = next(iter(board.legal_moves))
    pgn = f'[FEN "{NINE_QUEENS}"]\n[SetUp "1"]\n\n1. {board.san(move)} *\n'
    response = requests.post(server.url + "/api/reviews", json={"pgn": pgn}, timeout=60)
    assert response.status_code == 201, response.text
    review_id = response.json()["id"]

    def done() -> dict[str, Any] | None:
        review = requests.get(f"{server.url}/api/reviews/{review_id}", timeout=60).json()
        assert review["status"] != "failed", review.get("error")
        return review if review["status"] == "done" else None

    review = wait_until(done, "finished review")
    assert len(review["plies"]) == 1 and review["plies"][0]["eval"] is not None
