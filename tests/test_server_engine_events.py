"""The analysis board's engine over Socket.IO (issue 17), against the real server on 127.0.0.1:
`engine_start` streams `engine_lines` to the asking connection only, lines legal (checked on
python-chess) and scores from White's view with mates as `#N`; a new start replaces the job, a
stop ends it with a last update, a position without moves answers at once, bad payloads are
refused clearly."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import chess
import pytest

from tests.support.game_client import WAIT_SECONDS, GameClient
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("engine_events", {"CHESS_ENGINE_WORKERS": "2"})

START = chess.STARTING_FEN


class EngineClient(GameClient):
    """A connection that records every `engine_lines` it is sent."""

    def __init__(self, url: str) -> None:
        self.lines: list[dict[str, Any]] = []
        super().__init__(url)
        self.client.on("engine_lines", self._record_lines)

    def _record_lines(self, message: dict[str, Any]) -> None:
        with self.condition:
            self.lines.append(message)
            self.condition.notify_all()

    def wait_lines(self, job: int, done: bool = False) -> dict[str, Any]:
        """The first message of `job` (with lines, or the last one when `done`)."""

        def found() -> dict[str, Any] | None:
            for message in self.lines:
                if message["job"] == job and (message["done"] if done else message["lines"]):
                    return message
            return None

        deadline = time.monotonic() + WAIT_SECONDS * 2
        with self.condition:
            while (message := found()) is None:
                left = deadline - time.monotonic()
                assert left > 0, f"no engine lines for job {job}: {self.lines[-3:]}"
                self.condition.wait(left)
        return message


@pytest.fixture
def client(server: LiveServer) -> Iterator[EngineClient]:
    engine = EngineClient(server.url)
    yield engine
    engine.close()


def replay(fen: str, moves: list[str]) -> chess.Board:
    board = chess.Board(fen)
    for uci in moves:
        board.push_uci(uci)
    return board


def test_lines_stream_and_are_legal_with_their_san(client: EngineClient) -> None:
    path = ["e2e4", "e7e5", "g1f3"]
    reply = client.call("engine_start", {"fen": START, "moves": path, "multipv": 3})
    assert reply["ok"], reply
    first = client.wait_lines(reply["job"])
    assert first["fen"] == replay(START, path).fen()
    deeper = client.wait_lines(reply["job"]) if first["depth"] > 1 else first
    assert deeper["depth"] >= 1
    for message in [m for m in client.lines if m["job"] == reply["job"] and m["lines"]]:
        assert [line["rank"] for line in message["lines"]] == [1, 2, 3]
        firsts = {line["uci"][0] for line in message["lines"]}
        assert len(firsts) == 3  # three different moves
        for line in message["lines"]:
            board = replay(START, path)
            sans = []
            for uci in line["uci"]:
                move = chess.Move.from_uci(uci)
                assert move in board.legal_moves, (line, board.fen())
                sans.append(board.san(move))
                board.push(move)
            assert sans == line["san"]
            assert set(line["score"]) in ({"cp"}, {"mate"})
    assert client.call("engine_stop", {})["ok"]
    last = client.wait_lines(reply["job"], done=True)
    assert last["done"] and last["lines"]


@pytest.mark.parametrize(
    "fen",
    [
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",  # White: Ra8#
        "7K/8/6k1/8/8/8/8/r7 b - - 0 1",  # Black: ...Ra8#
    ],
)
def test_mate_in_one_is_a_mate_score_from_whites_view(client: EngineClient, fen: str) -> None:
    board = chess.Board(fen)
    mates = _mates_in_one(board)
    assert mates, "the test position must have a mate in one"
    reply = client.call("engine_start", {"fen": fen, "multipv": 2})
    assert reply["ok"], reply
    best = client.wait_lines(reply["job"], done=True)["lines"][0]
    assert best["score"] == {"mate": 1 if board.turn == chess.WHITE else -1}
    assert best["uci"][0] in mates


def _mates_in_one(board: chess.Board) -> set[str]:
    mates = set()
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            mates.add(move.uci())
        board.pop()
    return mates


def test_a_new_start_replaces_the_job_and_a_stop_ends_it(client: EngineClient) -> None:
    first = client.call("engine_start", {"fen": START, "moves": ["d2d4"]})
    client.wait_lines(first["job"])
    second = client.call("engine_start", {"fen": START, "moves": ["c2c4"]})
    assert second["job"] != first["job"]
    assert client.wait_lines(first["job"], done=True)["done"]  # ended by the replacement
    client.wait_lines(second["job"])
    assert client.call("engine_stop", {}) == {"ok": True}
    done = client.wait_lines(second["job"], done=True)
    # Made by the server at the stop from the last depth it sent: the same depth, nodes and
    # time. A job that ran out its 20 s instead ends with its own `done`, which also counts
    # the nodes and time of the depth its budget cut short.
    sent = [m for m in client.lines if m["job"] == second["job"]]
    assert sent[-1] is done and len(sent) >= 2, sent
    last = sent[-2]
    assert (done["depth"], done["nodes"], done["seconds"]) == (
        last["depth"],
        last["nodes"],
        last["seconds"],
    )
    assert done["lines"] == last["lines"]


def test_a_position_without_moves_answers_done_with_no_lines(client: EngineClient) -> None:
    mated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
    reply = client.call("engine_start", {"fen": mated})
    assert reply["ok"], reply
    message = client.wait_lines(reply["job"], done=True)
    assert message["lines"] == [] and message["done"]


def test_lines_go_to_the_asking_connection_only(server: LiveServer, client: EngineClient) -> None:
    other = EngineClient(server.url)
    try:
        reply = client.call("engine_start", {"fen": START, "moves": ["g1f3"]})
        client.wait_lines(reply["job"])
        client.call("engine_stop", {})
        client.wait_lines(reply["job"], done=True)
        assert other.lines == []
    finally:
        other.close()


@pytest.mark.parametrize(
    ("payload", "code", "words"),
    [
        ("e2e4", "bad_request", "JSON object"),
        ({"moves": []}, "bad_request", "'fen'"),
        ({"fen": "not a fen"}, "bad_fen", "FEN"),
        ({"fen": START, "moves": ["e2e5"]}, "illegal_move", "move 1"),
        ({"fen": START, "multipv": 9}, "bad_request", "multipv"),
        ({"fen": START, "depth": 3}, "bad_request", "unknown field"),
        ({"fen": "4k3/8/8/8/8/8/8/4K2K w - - 0 1"}, "bad_fen", "white kings"),
    ],
)
def test_bad_payloads_are_refused_clearly(
    client: EngineClient, payload: Any, code: str, words: str
) -> None:
    reply = client.call("engine_start", payload)
    assert reply["ok"] is False and reply["code"] == code, reply
    assert words in reply["error"], reply
    assert client.call("engine_stop", {"x": 1})["code"] == "bad_request"
