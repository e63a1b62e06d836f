"""The computer's worker process lives and dies with the server, even after `kill -9`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.support.game_client import GameClient, create_game
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.server


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def is_alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


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
