"""Whole games between two real python-socketio clients against the real server on 127.0.0.1.

Each game is played move by move over WebSockets, every move acknowledged and every state
pushed to both seats (and a spectator where it matters); the ending, the SAN and the FEN are
checked against python-chess, the test oracle, replaying the same moves.
"""

from __future__ import annotations

from collections.abc import Iterator

import chess
import pytest

from tests.support.game_client import FriendGame, GameClient, api_state, create_game
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server


server = module_server("games", {"CHESS_COMPUTER_DELAY": "0.05"})


@pytest.fixture
def table(server: LiveServer) -> Iterator[FriendGame]:
    game = FriendGame(server.url)
    yield game
    game.close()


def oracle(ucis: tuple[str, ...], fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for uci in ucis:
        board.push_uci(uci)
    return board


# name, start FEN (None: the start position), moves, termination, winner, last SAN
DECISIVE_GAMES = [
    ("fools_mate", None, ("f2f3", "e7e5", "g2g4", "d8h4"), "checkmate", "black", "Qh4#"),
    ("stalemate", "k7/8/1Q6/8/8/8/8/7K w - - 0 1", ("b6c7",), "stalemate", None, "Qc7"),
    (
        "scholars_mate",
        None,
        ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"),
        "checkmate",
        "white",
        "Qxf7#",
    ),
    (
        "insufficient_material",
        "8/8/8/4k3/8/8/3p4/4K3 w - - 0 1",
        ("e1d2",),
        "insufficient_material",
        None,
        "Kxd2",
    ),
]


@pytest.mark.parametrize(
    ("fen", "ucis", "termination", "winner", "last_san"),
    [case[1:] for case in DECISIVE_GAMES],
    ids=[case[0] for case in DECISIVE_GAMES],
)
def test_game_ends_by_the_rules(
    server: LiveServer,
    fen: str | None,
    ucis: tuple[str, ...],
    termination: str,
    winner: str | None,
    last_san: str,
) -> None:
    game = FriendGame(server.url, fen=fen)
    try:
        state = game.play(*ucis)
        expected = oracle(ucis, fen or chess.STARTING_FEN)
        assert state["fen"] == expected.fen()
        assert state["status"] == "finished"
        assert state["outcome"]["termination"] == termination
        assert state["outcome"]["winner"] == winner
        assert state["outcome"]["result"] == expected.result()
        assert state["last_move"]["san"] == last_san
        assert state["dests"] is None
        black_view = game.black.wait_version(state["version"])
        assert black_view["outcome"] == state["outcome"]
        after = game.player(state["turn"]).move(game.id, state["ply"], "a1a2")
        assert after["code"] == "game_over"
    finally:
        game.close()


def test_promotion_to_a_knight(server: LiveServer) -> None:
    game = FriendGame(server.url, fen="8/4P1k1/8/8/8/8/8/K7 w - - 0 1")
    try:
        before = game.white.wait_version(game.version)
        assert before["promotions"] == {"e7": ["e8"]}
        assert before["dests"]["e7"] == ["e8"]
        state = game.play("e7e8n")
        assert state["last_move"] == {"uci": "e7e8n", "san": "e8=N+"}
        assert state["moves"] == [state["last_move"]]  # the list is written as JSON directly
        assert state["fen"].startswith("4N3/6k1/")
        assert state["check"] is True
        assert before["checked_king"] is None and state["checked_king"] == "g7"
    finally:
        game.close()


def test_both_castlings(table: FriendGame) -> None:
    ucis = ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "d7d6", "e1g1", "c8e6", "d2d3", "d8d7")
    table.play(*ucis, "b1c3")
    before = table.black.wait_version(table.version)
    assert "c8" in before["dests"]["e8"]
    state = table.play("e8c8")
    sans = [move["san"] for move in state["moves"]]
    assert sans[6] == "O-O" and sans[11] == "O-O-O"
    assert state["fen"] == oracle((*ucis, "b1c3", "e8c8")).fen()
    assert state["fen"].startswith("2kr1bnr/")


def test_en_passant(table: FriendGame) -> None:
    state = table.play("e2e4", "a7a6", "e4e5", "d7d5")
    assert "d6" in state["fen"].split()[3]
    state = table.play("e5d6")
    assert state["last_move"]["san"] == "exd6"
    assert state["fen"] == oracle(("e2e4", "a7a6", "e4e5", "d7d5", "e5d6")).fen()


def test_threefold_repetition_is_claimed_by_the_side_to_move(table: FriendGame) -> None:
    shuffle = ("g1f3", "g8f6", "f3g1", "f6g8")
    state = table.play(*shuffle, *shuffle)
    assert state["can_claim_draw"] is True
    assert table.black.call("claim_draw", {"game": table.id})["code"] == "not_your_turn"
    reply = table.white.call("claim_draw", {"game": table.id})
    assert reply["ok"], reply
    state = table.black.wait_version(reply["version"])
    assert state["outcome"] == {
        "termination": "threefold_repetition",
        "winner": None,
        "result": "1/2-1/2",
    }


def test_a_claim_without_a_repetition_is_refused(table: FriendGame) -> None:
    state = table.play("g1f3", "g8f6")
    assert state["can_claim_draw"] is False
    assert table.white.call("claim_draw", {"game": table.id})["code"] == "not_allowed"
    assert api_state(table.url, table.id)["status"] == "playing"


@pytest.mark.parametrize("resigner", ["white", "black"])
def test_resignation(table: FriendGame, resigner: str) -> None:
    table.play("e2e4")
    reply = table.player(resigner).call("resign", {"game": table.id})
    assert reply["ok"], reply
    state = table.white.wait_version(reply["version"])
    winner = "black" if resigner == "white" else "white"
    assert state["outcome"]["termination"] == "resignation"
    assert state["outcome"]["winner"] == winner


def test_draw_by_agreement(table: FriendGame) -> None:
    table.play("d2d4", "d7d5")
    offered = table.white.call("offer", {"game": table.id, "kind": "draw"})
    assert offered["ok"], offered
    state = table.black.wait_version(offered["version"])
    assert state["offers"]["draw"] == "white"
    assert table.white.call("accept", {"game": table.id, "kind": "draw"})["code"] == "not_allowed"
    accepted = table.black.call("accept", {"game": table.id, "kind": "draw"})
    assert accepted["ok"], accepted
    state = table.white.wait_version(accepted["version"])
    assert state["outcome"] == {"termination": "agreement", "winner": None, "result": "1/2-1/2"}


def test_declined_draw_and_moving_on(table: FriendGame) -> None:
    offered = table.white.call("offer", {"game": table.id, "kind": "draw"})
    declined = table.black.call("decline", {"game": table.id, "kind": "draw"})
    assert offered["ok"] and declined["ok"], (offered, declined)
    state = table.white.wait_version(declined["version"])
    assert state["offers"]["draw"] is None and state["status"] == "playing"
    table.version = declined["version"]
    assert table.play("e2e4")["ply"] == 1


def test_takeback(table: FriendGame) -> None:
    table.play("e2e4", "e7e5", "g1f3")
    offered = table.black.call("offer", {"game": table.id, "kind": "takeback"})
    assert offered["ok"], offered
    accepted = table.white.call("accept", {"game": table.id, "kind": "takeback"})
    assert accepted["ok"], accepted
    state = table.black.wait_version(accepted["version"])
    # Black asked on its turn: its own last move and white's reply go back.
    assert state["ply"] == 1 and state["turn"] == "black"
    assert state["fen"] == oracle(("e2e4",)).fen()
    assert [move["uci"] for move in state["moves"]] == ["e2e4"]
    table.version = accepted["version"]
    assert table.play("c7c5")["moves"][-1]["san"] == "c5"


def test_abort_before_both_moved_and_not_after(server: LiveServer) -> None:
    first = FriendGame(server.url)
    second = FriendGame(server.url)
    try:
        first.play("e2e4")
        reply = first.black.call("abort", {"game": first.id})
        assert reply["ok"], reply
        state = first.white.wait_version(reply["version"])
        assert state["status"] == "aborted" and state["outcome"] is None
        second.play("e2e4", "e7e5")
        assert second.white.call("abort", {"game": second.id})["code"] == "not_allowed"
    finally:
        first.close()
        second.close()


def test_rematch_swaps_colours(table: FriendGame) -> None:
    table.play("e2e4")
    table.white.call("resign", {"game": table.id})
    offered = table.white.call("offer", {"game": table.id, "kind": "rematch"})
    assert offered["ok"], offered
    accepted = table.black.call("accept", {"game": table.id, "kind": "rematch"})
    assert accepted["ok"], accepted
    new_id = accepted["rematch"]
    to_white, to_black = table.white.wait_rematch(), table.black.wait_rematch()
    assert to_white["color"] == "black" and to_black["color"] == "white"
    assert to_white["rematch"] == to_black["rematch"] == new_id
    # The old white now plays black in the new game, the old black opens it.
    table.black.join(new_id, seat=to_black["seat"])
    table.white.join(new_id, seat=to_white["seat"])
    assert table.black.move(new_id, 0, "d2d4")["ok"]
    assert table.white.move(new_id, 1, "d7d5")["ok"]
    assert api_state(table.url, table.id)["rematch"] == new_id


def test_time_forfeit_decided_by_the_server(server: LiveServer) -> None:
    game = FriendGame(server.url, clock={"minutes": 0.02, "increment": 0})
    try:
        state = game.play("e2e4", "e7e5")
        assert state["clock"]["running"] == "white"
        flagged = game.black.wait_for(lambda s: s["status"] == "finished")
        assert flagged["outcome"] == {
            "termination": "time_forfeit",
            "winner": "black",
            "result": "0-1",
        }
        assert flagged["clock"]["white_ms"] == 0
        assert game.white.move(game.id, 2, "g1f3")["code"] == "game_over"
    finally:
        game.close()


def test_a_flag_against_a_lone_king_is_a_draw(server: LiveServer) -> None:
    game = FriendGame(
        server.url, fen="8/8/8/4k3/8/8/8/4K2Q w - - 0 1", clock={"minutes": 0.02, "increment": 0}
    )
    try:
        game.play("h1h2", "e5e6")
        flagged = game.white.wait_for(lambda s: s["status"] == "finished")
        assert flagged["outcome"] == {
            "termination": "time_forfeit",
            "winner": None,
            "result": "1/2-1/2",
        }
    finally:
        game.close()


def test_spectator_sees_every_move_and_can_do_nothing_else(table: FriendGame) -> None:
    watcher = GameClient(table.url)
    try:
        joined = watcher.join(table.id)
        assert joined["role"] == "spectator"
        assert "seat" not in joined
        ucis = ("f2f3", "e7e5", "g2g4", "d8h4")
        for index, uci in enumerate(ucis):
            table.play(uci)
            seen = watcher.wait_version(table.version)
            assert seen["moves"][-1]["uci"] == uci and seen["dests"] is None
            refused = watcher.move(table.id, index + 1, "a2a3")
            assert refused["code"] == "forbidden"
            for event, extra in (("resign", {}), ("offer", {"kind": "draw"}), ("abort", {})):
                assert watcher.call(event, {"game": table.id, **extra})["code"] in (
                    "forbidden",
                    "game_over",
                )
        assert watcher.states[-1]["outcome"]["termination"] == "checkmate"
        versions = [state["version"] for state in watcher.states]
        assert versions == sorted(set(versions))
        assert all(
            table.white_seat not in str(s) and table.black_seat not in str(s)
            for s in watcher.states
        )
    finally:
        watcher.close()


def test_the_computer_answers_every_move(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="white")
    player = GameClient(server.url)
    try:
        state = player.join(created["game"], seat=created["seat"])["state"]
        assert state["players"]["black"]["kind"] == "computer"
        for _ in range(10):
            square, targets = sorted(state["dests"].items())[0]
            reply = player.move(created["game"], state["ply"], square + targets[0])
            assert reply["ok"], reply
            state = player.wait_for(
                lambda s, ply=reply["ply"]: s["ply"] == ply + 1 or s["status"] != "playing"
            )
            if state["status"] != "playing":
                break
            assert state["turn"] == "white" and state["dests"]
        board = oracle(tuple(move["uci"] for move in state["moves"]))
        assert board.fen() == state["fen"]
    finally:
        player.close()


def test_the_computer_plays_first_when_it_has_white(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="black")
    player = GameClient(server.url)
    try:
        player.join(created["game"], seat=created["seat"])
        state = player.wait_for(lambda s: s["ply"] == 1)
        assert state["turn"] == "black" and state["dests"]
    finally:
        player.close()


def test_a_takeback_against_the_computer_is_accepted_at_once(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="white")
    player = GameClient(server.url)
    try:
        player.join(created["game"], seat=created["seat"])
        assert player.move(created["game"], 0, "e2e4")["ok"]
        player.wait_for(lambda s: s["ply"] == 2)
        reply = player.call("offer", {"game": created["game"], "kind": "takeback"})
        assert reply["ok"], reply
        state = player.wait_version(reply["version"])
        assert state["ply"] == 0 and state["turn"] == "white"
        refused = player.call("offer", {"game": created["game"], "kind": "draw"})
        assert refused["code"] == "not_allowed"
    finally:
        player.close()


@pytest.mark.parametrize("level", [2, 3, 5])
def test_engine_levels_answer_from_the_worker_process(server: LiveServer, level: int) -> None:
    created = create_game(server.url, opponent="computer", color="white", level=level)
    player = GameClient(server.url)
    try:
        state = player.join(created["game"], seat=created["seat"])["state"]
        assert state["level"] == level
        for ply, uci in ((0, "e2e4"), (2, "d2d4")):
            assert player.move(created["game"], ply, uci)["ok"]
            state = player.wait_for(lambda s, after=ply + 2: s["ply"] == after)
        replies = [move["uci"] for move in state["moves"][1::2]]
        assert oracle(tuple(move["uci"] for move in state["moves"])).fen() == state["fen"]
        assert len(replies) == 2
    finally:
        player.close()


def test_fifty_move_rule_claim(server: LiveServer) -> None:
    game = FriendGame(server.url, fen="8/8/4k3/8/8/4K3/8/7R w - - 98 80")
    try:
        state = game.play("h1h2")
        assert state["can_claim_draw"] is True  # black's next quiet move makes fifty moves
        reply = game.black.call("claim_draw", {"game": game.id})
        assert reply["ok"], reply
        final = game.white.wait_version(reply["version"])
        assert final["outcome"]["termination"] == "fifty_moves"
    finally:
        game.close()


def test_a_rematch_with_the_computer_swaps_colours_and_it_opens(server: LiveServer) -> None:
    created = create_game(server.url, opponent="computer", color="white")
    player = GameClient(server.url)
    try:
        player.join(created["game"], seat=created["seat"])
        assert player.call("resign", {"game": created["game"]})["ok"]
        reply = player.call("offer", {"game": created["game"], "kind": "rematch"})
        assert reply["ok"], reply
        rematch = player.wait_rematch()
        assert rematch["rematch"] == reply["rematch"] and rematch["color"] == "black"
        joined = player.join(rematch["rematch"], seat=rematch["seat"])
        assert joined["role"] == "black"
        opened = player.wait_for(lambda s: s["game"] == rematch["rematch"] and s["ply"] == 1)
        assert opened["turn"] == "black" and opened["players"]["white"]["kind"] == "computer"
    finally:
        player.close()


def test_the_opponent_never_receives_a_seat_token(table: FriendGame) -> None:
    table.play("e2e4", "e7e5")
    offered = table.white.call("offer", {"game": table.id, "kind": "draw"})
    assert offered["ok"]
    table.black.wait_version(offered["version"])
    back = GameClient(table.url)
    try:
        missed = back.join(table.id, seat=table.black_seat, since=0)["missed"]
        assert [change["type"] for change in missed] == ["seat", "move", "move", "offer"]
        assert table.white_seat not in str(missed)
    finally:
        back.close()
    assert table.white_seat not in str(table.black.states)
    assert table.black_seat not in str(table.white.states)
