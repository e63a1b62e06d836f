"""Coming back: a dropped client gets exactly what it missed, and games survive `kill -9`.

A client that lost its connection joins again with the last version it saw and must receive
exactly the changes made meanwhile, in order, plus the state. A server killed with SIGKILL (no
chance to flush anything) and started again on the same instance folder must hold every
acknowledged move, and the players must be able to reconnect and finish the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.game_client import FriendGame, GameClient, api_move, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server


server = module_server("reconnect")


def test_a_dropped_player_gets_exactly_what_it_missed(server: LiveServer) -> None:
    table = FriendGame(server.url)
    try:
        state = table.play("e2e4", "e7e5")
        seen = table.black.wait_version(state["version"])["version"]
        table.black.close()
        # Play on while black is away: white over Socket.IO, black's seat through the HTTP API.
        played = [("g1f3", "white"), ("b8c6", "black"), ("f1b5", "white")]
        for ply, (uci, side) in enumerate(played, start=2):
            if side == "white":
                assert table.white.move(table.id, ply, uci)["ok"]
            else:
                api_move(server.url, table.id, table.black_seat, ply, uci)
        back = GameClient(server.url)
        try:
            reply = back.join(table.id, seat=table.black_seat, since=seen)
            missed = reply["missed"]
            assert [change["version"] for change in missed] == [seen + 1, seen + 2, seen + 3]
            assert [(c["type"], c["uci"], c["by"]) for c in missed] == [
                ("move", uci, side) for uci, side in played
            ]
            assert [c["ply"] for c in missed] == [2, 3, 4]
            assert reply["state"]["version"] == seen + 3
            assert reply["state"]["ply"] == 5 and reply["state"]["turn"] == "black"
            assert reply["state"]["dests"], "black is to move and must get its moves"
            assert back.move(table.id, 5, "a7a6")["ok"]
        finally:
            back.close()
    finally:
        table.close()


def test_a_dropped_spectator_gets_exactly_what_it_missed(server: LiveServer) -> None:
    table = FriendGame(server.url)
    watcher = GameClient(server.url)
    try:
        seen = watcher.join(table.id)["state"]["version"]
        watcher.close()
        table.play("d2d4", "d7d5")
        offered = table.white.call("offer", {"game": table.id, "kind": "draw"})
        declined = table.black.call("decline", {"game": table.id, "kind": "draw"})
        assert offered["ok"] and declined["ok"]
        watcher = GameClient(server.url)
        missed = watcher.join(table.id, since=seen)["missed"]
        assert [c["type"] for c in missed] == ["move", "move", "offer", "decline"]
        assert [c["version"] for c in missed] == list(range(seen + 1, seen + 5))
        assert missed[2] == {"version": seen + 3, "type": "offer", "by": "white", "kind": "draw"}
    finally:
        watcher.close()
        table.close()


@pytest.mark.parametrize(
    ("since", "expected"),
    [("current", []), ("future", None), ("negative", None), (None, None)],
)
def test_since_that_is_not_a_version_gives_the_whole_state(
    server: LiveServer, since: str | None, expected: list[object] | None
) -> None:
    table = FriendGame(server.url)
    watcher = GameClient(server.url)
    try:
        version = table.play("e2e4")["version"]
        value = {"current": version, "future": version + 5, "negative": -1, None: None}[since]
        reply = watcher.join(table.id, since=value)
        assert reply["missed"] == expected
        assert reply["state"]["version"] == version
    finally:
        watcher.close()
        table.close()


def test_the_seat_cookie_brings_a_player_back(server: LiveServer) -> None:
    table = FriendGame(server.url)
    browser = GameClient(server.url, headers={"Cookie": f"seat_{table.id}={table.black_seat}"})
    try:
        assert browser.join(table.id)["role"] == "black"
    finally:
        browser.close()
        table.close()


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(instance_path=tmp_path / "instance", env={"CHESS_COMPUTER_DELAY": "2.0"})
    live.start()
    yield live
    live.stop()


def test_kill_9_then_restart_keeps_every_acknowledged_move(restartable: LiveServer) -> None:
    table = FriendGame(restartable.url)
    state = table.play("f2f3", "e7e5", "g2g4")
    table.close()
    restartable.kill()
    restartable.start()
    white, black = GameClient(restartable.url), GameClient(restartable.url)
    try:
        again = black.join(table.id, seat=table.black_seat, since=state["version"])
        assert again["missed"] == []
        assert again["state"]["fen"] == state["fen"]
        assert again["state"]["ply"] == state["ply"] == 3
        assert again["role"] == "black"
        white.join(table.id, seat=table.white_seat)
        reply = black.move(table.id, 3, "d8h4")
        assert reply["ok"], reply
        final = white.wait_version(reply["version"])
        assert final["outcome"]["termination"] == "checkmate"
        assert final["outcome"]["winner"] == "black"
    finally:
        white.close()
        black.close()


@pytest.fixture
def slow_computer(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose computer waits 20 s before its reply: long enough that a restart (up to
    20 s on a machine at load 15, timed from the resume that re-arms the reply) and the join are
    over before it."""
    live = LiveServer(instance_path=tmp_path / "instance", env={"CHESS_COMPUTER_DELAY": "20"})
    live.start()
    yield live
    live.stop()


def test_the_computer_answers_after_a_restart(slow_computer: LiveServer) -> None:
    restartable = slow_computer
    created = create_game(restartable.url, opponent="computer", color="white")
    player = GameClient(restartable.url)
    reply = player.join(created["game"], seat=created["seat"])
    assert player.move(created["game"], 0, "e2e4")["ok"]
    player.close()
    # Killed before the computer's delay is over: its reply was never played.
    restartable.kill()
    restartable.start()
    assert reply["state"]["players"]["black"]["kind"] == "computer"
    player = GameClient(restartable.url)
    try:
        joined = player.join(created["game"], seat=created["seat"])
        assert joined["state"]["ply"] == 1, "the reply must come from the restarted server"
        state = player.wait_for(lambda s: s["ply"] == 2)
        assert state["turn"] == "white"
        assert api_state(restartable.url, created["game"])["moves"][0]["uci"] == "e2e4"
    finally:
        player.close()


def test_a_clock_keeps_running_across_a_restart(restartable: LiveServer) -> None:
    table = FriendGame(restartable.url, clock={"minutes": 0.05, "increment": 0})
    state = table.play("e2e4", "e7e5")
    assert state["clock"]["running"] == "white"
    table.close()
    restartable.kill()
    restartable.start()
    watcher = GameClient(restartable.url)
    try:
        watcher.join(table.id)
        final = watcher.wait_for(lambda s: s["status"] == "finished")
        assert final["outcome"] == {
            "termination": "time_forfeit",
            "winner": "black",
            "result": "0-1",
        }
        assert final["ply"] == 2
    finally:
        watcher.close()
