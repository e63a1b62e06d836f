"""A player's own puzzles (server.puzzles.own) on a real server with Debian's Stockfish.

Two accounts play 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Nf3?? (white misses Qxf7#, and leaves the
queen to the knight) Nxh5, and white resigns. White's review marks 4.Nf3 a blunder; once the
review is done, the position before 3...Nf6 with the line 3...Nf6 4.Qxf7# passes the
verification and joins the set as white's own: `next?mine=1` gives it to white (its source the
game's address), black has none, and the shared set's count is unchanged. A visitor without
an account is refused `mine=1`.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_server_accounts import Visitor, new_name
from tests.test_server_profiles import play_game, reviewed

STOCKFISH = "/usr/games/stockfish"
pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(not os.access(STOCKFISH, os.X_OK), reason="needs Debian's stockfish"),
]

server = module_server(
    "puzzles_own",
    {"CHESS_TRUSTED_PROXIES": "1", "CHESS_STOCKFISH": STOCKFISH, "CHESS_REVIEW_NODES": "100000"},
)
GAME = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "g1f3", "f6h5"]
WAIT_SECONDS = 300.0  # the review, then the verification after it, on a loaded machine


def own_puzzle(visitor: Visitor) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        answer = visitor.get("/api/puzzles/next?mine=1")
        if answer.status_code == 200:
            return dict(answer.json()["puzzle"])
        assert answer.status_code == 404, answer.text
        assert time.monotonic() < deadline, "no own puzzle came after the review"
        time.sleep(1.0)


def test_a_missed_mate_becomes_the_players_own_puzzle(server: LiveServer) -> None:
    white, black = Visitor(server.url), Visitor(server.url)
    white.signup(new_name())
    black.signup(new_name())
    total = white.get("/api/puzzles/themes").json()["total"]
    game, seats = play_game(white, black, GAME, clock=False)
    resigned = white.post(
        f"/api/games/{game}/actions", {"action": "resign"}, Authorization=f"Bearer {seats[0]}"
    )
    assert resigned.status_code == 200, resigned.text
    review = white.get(f"/api/reviews/{reviewed(white, game)}").json()
    assert review["plies"][6]["class"] == "blunder"
    puzzle = own_puzzle(white)
    assert puzzle["fen"].startswith("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b")
    assert puzzle["moves"] == ["g8f6", "h5f7"]
    assert puzzle["mine"] is True and puzzle["source"].endswith(f"/game/{game}")
    assert {"mate", "mateIn1"} <= set(puzzle["themes"])
    assert black.get("/api/puzzles/next?mine=1").status_code == 404
    assert white.get("/api/puzzles/themes").json()["total"] == total
    refused(Visitor(server.url).get("/api/puzzles/next?mine=1"), 400, "bad_request", "sign in")
