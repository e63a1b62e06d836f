"""The computer's worker processes: they live and die with the server, even after `kill -9`,
and a search for a position that changed (a takeback, a resignation, an abort) is stopped at
once, so its address's place in the queue is free for the next search and no stale move is
ever played."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.game_client import GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.processes import children_of, is_alive
from tests.support.server_fixture import module_server
from tests.test_server_engine_pool import Player

pytestmark = pytest.mark.server


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_the_engine_worker_exits_when_the_server_is_killed(tmp_path: Path) -> None:
    server = LiveServer(instance_path=tmp_path / "instance", env={"CHESS_COMPUTER_DELAY": "0"})
    server.start()
    try:
        created = create_game(server.url, opponent="computer", color="white", level=3)
        player = GameClient(server.url)
        try:
            player.join(created["game"], seat=created["seat"])
            assert player.move(created["game"], 0, "e2e4")["ok"]
            assert player.wait_for(lambda state: state["ply"] == 2)["turn"] == "white"
        finally:
            player.close()
        assert server.process is not None
        workers = children_of(server.process.pid)
        assert workers, "the engine level must have started a worker process"
    finally:
        server.kill()
    deadline = time.monotonic() + 20  # a guard against hanging, not a speed requirement
    while any(is_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(is_alive(pid) for pid in workers), (
        f"orphans left: {workers} (from {os.getpid()})"
    )


def engine_workers(pid: int) -> list[int]:
    """The server's children that multiprocessing spawned as workers (not its resource
    tracker)."""
    return [
        child
        for child in children_of(pid)
        if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


WORKERS = 3


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_every_engine_worker_exits_when_the_server_is_killed(tmp_path: Path) -> None:
    env = {"CHESS_COMPUTER_DELAY": "0", "CHESS_ENGINE_WORKERS": str(WORKERS)}
    server = LiveServer(instance_path=tmp_path / "instance", env=env).start()
    workers: list[int] = []
    try:
        # One search per address, so each takes a worker of its own.
        players = [Player(server.url, f"127.0.0.{index + 1}") for index in range(WORKERS)]
        games = [player.computer_first(8) for player in players]
        assert server.process is not None
        deadline = time.monotonic() + 20  # a guard against hanging, not a speed requirement
        while len(engine_workers(server.process.pid)) < WORKERS and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = engine_workers(server.process.pid)
        assert len(workers) == WORKERS, workers
        for player, game in zip(players, games, strict=True):
            assert player.wait_ply(game, 1)["ply"] == 1
    finally:
        server.kill()
    deadline = time.monotonic() + 20
    while any(is_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(is_alive(pid) for pid in workers), f"orphans left: {workers}"


server = module_server("computer", env={"CHESS_COMPUTER_DELAY": "0"})

# How the human stops a game while level 8 thinks about its reply to 1. e4: the request and
# the ply and status the game is left at (a takeback gives the move back, white to play).
STOPS = [
    ("resign", {}, 1, "finished"),
    ("abort", {}, 1, "aborted"),
    ("offer", {"kind": "takeback"}, 0, "playing"),
]


@pytest.mark.parametrize(("action", "fields", "ply", "status"), STOPS)
def test_a_stale_search_is_cancelled_and_frees_the_worker(
    server: LiveServer, action: str, fields: dict[str, str], ply: int, status: str
) -> None:
    first = create_game(server.url, opponent="computer", color="white", level=8)
    second = create_game(server.url, opponent="computer", color="white", level=3)
    human, other = GameClient(server.url), GameClient(server.url)
    try:
        human.join(first["game"], seat=first["seat"])
        other.join(second["game"], seat=second["seat"])
        # A first reply in the second game, so the worker process has started.
        assert other.move(second["game"], 0, "e2e4")["ok"]
        other.wait_for(lambda state: state["ply"] == 2)
        assert human.move(first["game"], 0, "e2e4")["ok"]
        assert human.call(action, {"game": first["game"], **fields})["ok"]
        assert other.move(second["game"], 2, "d2d4")["ok"]
        dests = other.wait_for(lambda state: state["ply"] == 4)["dests"]
        # One more reply: by then the worker has long handed back the stopped search's move.
        origin, targets = next(iter(dests.items()))
        assert other.move(second["game"], 4, origin + targets[0])["ok"]
        other.wait_for(lambda state: state["ply"] == 6)
        state = api_state(server.url, first["game"])
        assert (state["ply"], state["status"]) == (ply, status)
        assert all(seen["ply"] < 2 for seen in human.states), "a stale reply was played"
    finally:
        human.close()
        other.close()
    # How soon the second game's reply comes (the freed worker) is no test's business: level
    # 8's two seconds by the wall clock against a busy machine's slow answers told the cases
    # apart only when idle. A search stopped by its lane's flag is tested in
    # tests/test_levels.py and tests/test_server_engine_pool.py.


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_searches_survive_a_killed_worker(tmp_path: Path) -> None:
    """Killing one worker breaks the whole pool and every search in flight, other addresses'
    too: each is searched again on fresh workers and every game gets its reply."""
    env = {"CHESS_COMPUTER_DELAY": "0", "CHESS_ENGINE_WORKERS": "2"}
    server = LiveServer(instance_path=tmp_path / "instance", env=env).start()
    try:
        players = [Player(server.url, f"127.0.0.{index + 1}") for index in range(2)]
        games = [player.computer_first(8) for player in players]  # two seconds of search each
        assert server.process is not None
        deadline = time.monotonic() + 20  # a guard against hanging, not a speed requirement
        while len(engine_workers(server.process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        os.kill(engine_workers(server.process.pid)[0], signal.SIGKILL)
        for player, game in zip(players, games, strict=True):
            assert player.wait_ply(game, 1)["ply"] == 1
    finally:
        server.stop()
