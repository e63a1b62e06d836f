"""The threat map (chesscore.analysis.threats): its values and their wire form
(server.threats.wire), attackers checked against python-chess, and the derived
checkers, pins and hanging pieces from tables of positions. Squares are compared by name, read
through the wire form."""

from __future__ import annotations

import json

import chess
import pytest

from chesscore import SQUARES as BOARD
from chesscore import Board
from chesscore.analysis.threats import make_threat_map
from server.threats.wire import threats_json
from tests.random_games import play_random_game
from tests.support.exchange_oracle import is_hanging
from tests.support.positions import game_positions

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
TWO_PINS = "4k3/4r3/2n5/1B6/8/8/4N3/4K3 w - - 0 1"

# (FEN, square, white attackers, black attackers)
SQUARES = [
    (START, "f3", ["e2", "g1", "g2"], []),
    (START, "c6", [], ["b7", "b8", "d7"]),
    (START, "e1", ["d1"], []),  # a piece is "attacked" by its own defenders
    (START, "e4", [], []),
    (START, "a8", [], []),
    (KIWIPETE, "d5", ["c3", "e4"], ["b6", "e6", "f6"]),
    (TWO_PINS, "e2", ["b5", "e1"], ["e7"]),
    (TWO_PINS, "d7", [], ["e7", "e8"]),  # the knight on c6 blocks the bishop
]

# (FEN, checkers, pins as (pinned, pinner, king), hanging pieces)
DERIVED = [
    (START, [], [], []),
    ("4k3/8/8/1B6/8/8/8/4K3 b - - 0 1", ["b5"], [], []),
    # Double check: Bxd3 is no answer to it, so the knight does not hang.
    ("4r2k/8/8/8/8/3n4/8/1B2K3 w - - 0 1", ["d3", "e8"], [], []),
    (TWO_PINS, [], [("c6", "b5", "e8"), ("e2", "e7", "e1")], ["c6"]),  # e2 defended
    ("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", [], [], ["d5"]),  # undefended
    ("4k3/8/4p3/3r4/4P3/8/8/4K3 w - - 0 1", [], [], ["d5"]),  # defended, but a pawn attacks
    ("4k3/8/4p3/3n4/8/8/6B1/4K3 w - - 0 1", [], [], []),  # defended, attacked by an equal
    ("4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1", [], [], ["d5"]),  # d1 is defended by its king
    ("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", [], [], []),  # each queen defended by its king
    ("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", [], [], ["d2"]),  # the king can take it
    # Hanging by the exchange, not "undefended or attacked by a cheaper piece":
    ("4k3/8/4p3/3p4/2P1P3/1P3P2/8/4K3 w - - 0 1", [], [], ["d5"]),  # two pawns against one
    ("3rk3/8/8/3n4/8/8/3R4/3QK3 w - - 0 1", [], [], ["d5"]),  # the queen behind the rook
    # d5 is undefended, but its attacker is pinned (the rook on b5 takes along its pin line).
    ("1r2k3/8/8/1R1n4/8/8/8/1K6 w - - 0 1", [], [("b5", "b8", "b1")], ["b5", "b8"]),
]


@pytest.mark.parametrize(("fen", "name", "white", "black"), SQUARES)
def test_attackers_of_a_square(fen: str, name: str, white: list[str], black: list[str]) -> None:
    attackers = threats_json(make_threat_map(Board.from_fen(fen)))["attackers"]
    assert {
        "white": attackers["white"].get(name, []),
        "black": attackers["black"].get(name, []),
    } == {
        "white": white,
        "black": black,
    }


@pytest.mark.parametrize(("fen", "checkers", "pins", "hanging"), DERIVED)
def test_derived_facts(
    fen: str, checkers: list[str], pins: list[tuple[str, str, str]], hanging: list[str]
) -> None:
    threats = threats_json(make_threat_map(Board.from_fen(fen)))
    assert threats["checkers"] == checkers
    expected = [{"pinned": p, "pinner": q, "king": k} for p, q, k in pins]
    assert threats["pins"] == expected
    assert threats["hanging"] == hanging


@pytest.mark.parametrize("fen", [START, KIWIPETE, TWO_PINS])
def test_threat_map_is_plain_json(fen: str) -> None:
    threat_map = make_threat_map(Board.from_fen(fen))
    threats = threats_json(threat_map)
    assert set(threats) == {"attackers", "checkers", "pins", "hanging"}
    assert json.loads(json.dumps(threats)) == threats
    reached = set(threats["attackers"]["white"]) | set(threats["attackers"]["black"])
    assert reached <= set(chess.SQUARE_NAMES)
    # Every one of the 64 squares has its own list in the map, for each colour.
    for by_color in threat_map.attackers:
        assert len({id(by_color[sq]) for sq in BOARD}) == 64


@pytest.mark.parametrize("seed", range(4))
def test_attackers_agree_with_python_chess(seed: int) -> None:
    """Every square of every position of a random game, both colours, sorted by name."""
    final = play_random_game(seed, max_plies=80)
    board, oracle = Board(), chess.Board()
    for move in [*final.move_stack, None]:
        attackers = threats_json(make_threat_map(board))["attackers"]
        for sq in chess.SQUARES:
            name = chess.square_name(sq)
            for color, key in ((chess.WHITE, "white"), (chess.BLACK, "black")):
                theirs = sorted(chess.square_name(s) for s in oracle.attackers(color, sq))
                assert attackers[key].get(name, []) == theirs, (oracle.fen(), name, key)
        if move is not None:
            board.push(move)
            oracle.push(chess.Move.from_uci(move.uci()))


@pytest.mark.parametrize("seed", range(4))
def test_hanging_agrees_with_the_brute_force_exchange(seed: int) -> None:
    """Every position not in check of a random game: the pieces whose capture wins material,
    by python-chess's legal moves with every recapture order tried (in check the other side
    cannot be asked "had the side to move passed"; the table above has such cases)."""
    checked = 0
    for board in game_positions(seed, max_plies=160, stride=2):
        oracle = chess.Board(board.fen())
        if oracle.is_check():
            continue
        theirs = sorted(
            chess.square_name(sq)
            for sq, piece in oracle.piece_map().items()
            if piece.piece_type != chess.KING and is_hanging(oracle, sq)
        )
        assert threats_json(make_threat_map(board))["hanging"] == theirs, oracle.fen()
        checked += 1
    assert checked > 20


def test_pins_agree_with_python_chess() -> None:
    final = play_random_game(5, max_plies=200)
    board, oracle = Board(), chess.Board()
    for move in final.move_stack:
        pinned = sorted(pin["pinned"] for pin in threats_json(make_threat_map(board))["pins"])
        theirs = sorted(
            chess.square_name(sq)
            for sq, piece in oracle.piece_map().items()
            if piece.piece_type != chess.KING and oracle.is_pinned(piece.color, sq)
        )
        assert pinned == theirs, oracle.fen()
        board.push(move)
        oracle.push(chess.Move.from_uci(move.uci()))
