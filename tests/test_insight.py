"""What a move changed (chesscore.analysis.insight): forks, discovered attacks, hanging pieces and
pins created or released on known positions, written out by hand; the drag preview; and, over
sampled positions, every reported attack and fork checked against python-chess's attackers.
Changes are read through their wire form (server.threats.wire), by square name.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from chesscore import Board, IllegalMoveError, Move, square_name
from chesscore.analysis.describe import describe_squares
from chesscore.analysis.insight import (
    describe_change,
    describe_last_move,
    make_insight,
    preview,
    relations_of,
)
from chesscore.analysis.see import classify_move, see
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import find_pins, make_xray_map
from server.threats.wire import change_json
from tests.random_games import play_random_game

RUY_LOPEZ = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"


def _change(fen: str, uci: str) -> dict[str, Any]:
    board = Board.from_fen(fen)
    change = describe_change(board, board.parse_uci(uci))
    assert board.fen() == fen  # the board itself is left as it was
    return change_json(change)


def test_a_knight_fork_of_king_and_rook() -> None:
    change = _change("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "b5c7")
    assert change["forks"] == [{"from": "c7", "targets": ["a8", "e8"], "by": "white"}]
    assert change["checkers"] == ["c7"]
    assert change["new_attacks"] == [
        {"from": "c7", "to": "a8", "by": "white"},
        {"from": "c7", "to": "e8", "by": "white"},
    ]
    assert change["discovered"] == []
    assert change["move"] == {
        "uci": "b5c7", "color": "white", "piece": "knight", "from": "b5", "to": "c7",
        "captured": None,
    }  # fmt: skip


def test_a_fork_of_two_defended_pieces_worth_no_more_than_the_forker_is_no_fork() -> None:
    change = _change("2b1k3/1p1p4/8/8/8/1N6/8/4K3 w - - 0 1", "b3c5")  # pawns b7, d7 defended
    assert [(a["from"], a["to"]) for a in change["new_attacks"]] == [("c5", "b7"), ("c5", "d7")]
    assert change["forks"] == []
    change = _change("4k3/8/1r3r2/8/8/4N3/8/4K3 w - - 0 1", "e3d5")  # two rooks
    assert change["forks"] == [{"from": "d5", "targets": ["b6", "f6"], "by": "white"}]
    # Two knights instead: each attacks d5 and takes the forking knight there.
    assert _change("4k3/8/1n3n2/8/8/4N3/8/4K3 w - - 0 1", "e3d5")["forks"] == []


def test_a_discovered_check() -> None:
    change = _change("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3")
    assert change["discovered"] == [{"from": "e1", "to": "e8", "by": "white"}]
    assert change["checkers"] == ["e1"]


def test_taking_a_defender_leaves_a_pawn_hanging_and_pins_two_pieces() -> None:
    change = _change(RUY_LOPEZ, "b5c6")
    assert change["move"]["captured"] == "knight"
    assert change["became_hanging"] == ["e5"]  # the knight c6 defended it
    assert change["no_longer_hanging"] == []  # the bishop is attacked by pawns on c6 as on b5
    assert change["pins_created"] == [
        {"pinner": "c6", "pinned": "b7", "target": "a8", "absolute": False},
        {"pinner": "c6", "pinned": "d7", "target": "e8", "absolute": True},
    ]
    assert change["pins_released"] == []
    assert change["new_attacks"] == [
        {"from": "b7", "to": "c6", "by": "black"},
        {"from": "c6", "to": "b7", "by": "white"},
        {"from": "c6", "to": "d7", "by": "white"},
        {"from": "d7", "to": "c6", "by": "black"},
    ]


def test_a_defending_move_takes_a_piece_off_the_hanging_list() -> None:
    change = _change("4k3/8/1b6/8/3N4/8/2P5/4K3 w - - 0 1", "c2c3")
    assert change["no_longer_hanging"] == ["d4"]
    assert change["became_hanging"] == []


# (FEN, move, pins created, pins released, why)
PIN_CHANGES = [
    ("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "f1b5", [("b5", "c6", "e8")], [], "bishop pins"),
    ("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1", "e8e7", [], [("b5", "c6", "e8")], "king steps off"),
    ("4k3/8/8/4r3/8/8/8/K3R3 b - - 0 1", "e5e6", [], [], "the pinned rook slides along"),
    ("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1", "c6b4", [], [], "a pinned knight: refused"),
    ("4k3/8/2n5/1B6/P7/8/8/4K3 b - - 0 1", "e8d8", [], [("b5", "c6", "e8")],
     "released although the king stays near"),
    ("4k3/3p4/2n5/1B6/8/8/8/4K3 b - - 0 1", "d7d5", [("b5", "c6", "e8")], [],
     "the pawn leaves the line"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "uci", "created", "released", "why"), PIN_CHANGES)
def test_pins_created_and_released(
    fen: str, uci: str, created: list[tuple[str, ...]], released: list[tuple[str, ...]], why: str
) -> None:
    board = Board.from_fen(fen)
    move = Move.from_uci(uci)
    if not board.is_legal(move):
        with pytest.raises(IllegalMoveError, match=uci):
            describe_change(board, move)
        return
    change = change_json(describe_change(board, move))
    assert [(p["pinner"], p["pinned"], p["target"]) for p in change["pins_created"]] == created
    assert [(p["pinner"], p["pinned"], p["target"]) for p in change["pins_released"]] == released


def test_castling_moves_the_rook_too() -> None:
    change = _change("4k3/5n2/8/8/8/8/8/4K2R w K - 0 1", "e1g1")
    assert change["new_attacks"] == [{"from": "f1", "to": "f7", "by": "white"}]
    assert change["discovered"] == []  # the rook moved: its attacks are not discovered ones


def test_the_preview_is_the_position_after_the_move() -> None:
    board = Board.from_fen(RUY_LOPEZ)
    move = board.parse_uci("b5c6")
    shown = preview(board, move)
    after = board.copy()
    after.push(move)
    assert shown.fen == after.fen()
    assert shown.threats == make_threat_map(after)
    assert shown.see == see(board, move) == 0
    assert shown.safety == classify_move(board, move) == "contested"
    assert shown.change == describe_change(board, move)
    assert [square_name(pin.pinned) for pin in shown.pins] == ["b7", "d7"]
    assert board.fen() == RUY_LOPEZ
    assert preview(board, move, make_threat_map(board)) == shown  # with the map the server holds


def test_the_insight_gathers_the_overlay_facts_of_a_position() -> None:
    board = Board.from_fen(RUY_LOPEZ)
    before = board.copy()
    board.push_uci("b5c6")
    insight = make_insight(board)
    assert insight.change == describe_change(before, Move.from_uci("b5c6"))
    assert insight.announcement == "White bishop from b5 takes knight on c6"
    assert insight.xrays == make_xray_map(board)
    assert insight.xrays.pins == find_pins(board)
    assert insight.descriptions == describe_squares(board)
    assert make_insight(board, make_threat_map(board)) == insight
    first = make_insight(Board.from_fen(RUY_LOPEZ))
    assert first.change is None and first.announcement is None  # no move played yet


def test_an_illegal_move_is_refused_and_nothing_changes() -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match="e2e5"):
        preview(board, Move.from_uci("e2e5"))
    with pytest.raises(IllegalMoveError, match="e7e5"):
        describe_change(board, Move.from_uci("e7e5"))
    assert board.fen() == Board().fen()


def _attacks(oracle: chess.Board, frm: str, to: str) -> bool:
    color = oracle.color_at(chess.parse_square(frm))
    return color is not None and chess.parse_square(frm) in oracle.attackers(
        color, chess.parse_square(to)
    )


def test_every_reported_attack_and_fork_is_real() -> None:
    """Over sampled positions and random moves: every new attack, discovered attack and fork
    target is an attack on an enemy piece in python-chess's position after the move."""
    rng = random.Random(7)
    reported = 0
    for seed in range(200, 206):
        game = play_random_game(seed, max_plies=120)
        replay = game.root()
        for move in game.move_stack:
            candidate = rng.choice(replay.legal_moves())
            change = change_json(describe_change(replay, candidate))
            oracle = chess.Board(replay.fen())
            oracle.push(chess.Move.from_uci(candidate.uci()))
            for attack in change["new_attacks"] + change["discovered"]:
                assert _attacks(oracle, attack["from"], attack["to"]), (replay.fen(), attack)
                target = oracle.color_at(chess.parse_square(attack["to"]))
                assert target is not None and target != oracle.color_at(
                    chess.parse_square(attack["from"])
                )
                reported += 1
            for fork in change["forks"]:
                assert all(_attacks(oracle, fork["from"], t) for t in fork["targets"])
                assert len(fork["targets"]) >= 2
            assert change["checkers"] == sorted(chess.square_name(s) for s in oracle.checkers())
            replay.push(move)
    assert reported > 100


def test_the_last_move_described_from_kept_relations_is_the_same_change() -> None:
    """A server keeps each position's piece relations for the next move's change: over seeded
    random games, the change made from them equals the one made from the boards alone."""
    for seed in range(300, 304):
        game = play_random_game(seed, max_plies=100)
        replay = game.root()
        kept = relations_of(replay, *_lists_and_hanging(replay))
        for move in game.move_stack:
            replay.push(move)
            threats = make_threat_map(replay)
            relations = relations_of(replay, threats.attackers, threats.hanging)
            assert describe_last_move(replay, threats, relations, kept) == describe_last_move(
                replay, threats
            )
            kept = relations


def _lists_and_hanging(board: Board) -> tuple[Any, Any]:
    threats = make_threat_map(board)
    return threats.attackers, threats.hanging
