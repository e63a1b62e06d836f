"""The trainer's material truths (chesscore.training.material): hanging by the exchange, safe
squares that lose nothing, threats and forks whose piece is not simply lost and whose targets
fall. First the named cases of issue 31 as FENs, then every answer of the four kinds against an
oracle built on python-chess: brute-force exchanges over every capture order with its legal
moves, and the definitions of the drills' docstring written again over them.
"""

from __future__ import annotations

import random

import chess
import pytest

from chesscore import parse_square, square_name
from chesscore.training import Drill, PositionFacts, make_drill
from tests.support.exchange_oracle import exchange_value, gains, is_hanging, passed, taken
from tests.support.positions import sample_fens


def drill(fen: str, kind: str, focus: str | None = None) -> Drill:
    at = parse_square(focus) if focus else None
    made = make_drill(PositionFacts(fen), kind, random.Random(0), None, at)
    assert made is not None
    return made


def names(squares: tuple[int, ...]) -> list[str]:
    return [square_name(sq) for sq in squares]


def ucis(made: Drill) -> list[str]:
    return [move.uci() for move in made.moves]


# The cases the issue names, and their sound counterparts.


def test_a_knight_pinned_to_its_queen_is_safe_nowhere() -> None:
    # The bishop on h5 pins the knight to the undefended queen on d1: every move drops her.
    made = drill("4k3/8/8/7b/8/5N2/PP6/K2Q4 w - - 0 1", "safe", "f3")
    assert names(made.squares) == []
    assert "loses material on d2, d4, e1, e5, g1, g5, h2, h4" in made.reasons[0]


def test_a_knight_not_pinned_is_safe_where_nothing_takes_it() -> None:
    made = drill("4k3/8/8/8/8/5N2/PP6/K2Q4 w - - 0 1", "safe", "f3")
    assert names(made.squares) == ["d2", "d4", "e1", "e5", "g1", "g5", "h2", "h4"]


def test_a_square_is_not_safe_when_the_piece_stops_defending_another() -> None:
    # The knight on c2 defends the bishop the knight on d5 attacks.
    made = drill("4k3/8/2p1p3/3n4/8/4B3/2N5/4K3 w - - 0 1", "safe", "c2")
    assert names(made.squares) == []


def test_a_square_is_not_safe_when_the_move_allows_mate() -> None:
    # The knight on c2 guards a1: from b4 or d4 it lets Ra1 mate; on a1 or a3 the rook takes
    # it; from e1 or e3 it blocks the check.
    made = drill("r3k3/8/8/8/8/8/2N2PPP/6K1 w - - 0 1", "safe", "c2")
    assert names(made.squares) == ["e1", "e3"]


def test_a_fork_whose_piece_is_simply_taken_is_no_fork() -> None:
    # Nd3+ hits the king and the rook, but the queen takes the knight.
    assert ucis(drill("6k1/8/8/2n5/8/8/1R6/3QK3 b - - 0 1", "fork")) == []
    # With the pawn on e4 guarding d3, Qxd3 loses the queen: the fork wins the rook.
    made = drill("6k1/8/8/2n5/4p3/8/1R6/3QK3 b - - 0 1", "fork")
    assert ucis(made) == ["c5d3"]
    assert "the knight attacks rook b2, king e1" in made.reasons[0]


def test_a_capture_simply_taken_back_forks_nothing() -> None:
    # Bxf3 wins a knight and hits the queen and the pawn on e4, but the queen takes it back:
    # an even trade (so it loses nothing), and the bishop forks nothing.
    fen = "rn1qkbnr/ppp2ppp/3p4/4P3/4P1b1/5N2/PPP2PPP/RNBQKB1R b KQkq - 0 4"
    assert ucis(drill(fen, "fork")) == []


def test_a_rook_that_is_just_captured_makes_no_threat() -> None:
    # Rf6 attacks the knight, but gxf6 takes the rook; Rd1 attacks it safely.
    made = drill("6k1/6p1/3n4/8/8/8/8/5RK1 w - - 0 1", "threats")
    assert ucis(made) == ["f1d1"]


def test_a_threat_against_a_defended_piece_worth_no_more_is_none() -> None:
    # Rd1 attacks a rook the king defends: taking it wins nothing.
    assert ucis(drill("8/3rk3/8/8/8/8/8/5RK1 w - - 0 1", "threats")) == []


def test_hanging_means_taking_it_wins_material() -> None:
    # d5 is defended once and attacked twice: NxN NxN BxN wins a knight; c3 is undefended.
    made = drill("4k3/4n3/8/3n4/8/1BN5/8/4K3 w - - 0 1", "hanging")
    assert names(made.squares) == ["c3", "d5"]
    # A pawn defended by a pawn and attacked by a pawn does not hang.
    assert names(drill("4k3/8/4p3/3p4/4P3/5P2/8/4K3 w - - 0 1", "hanging").squares) == []


def test_a_piece_taken_with_a_discovered_check_hangs_though_defended() -> None:
    # From a game of the shipped set: had Black passed, Bxb8 uncovers the queen's check on the
    # f-file, Rxb8 does not answer it, so the knight falls.
    fen = "rnb2bnr/pp1p1kqp/2p5/8/5B2/2N2Q2/PPP3PP/R4RK1 b - - 0 12"
    assert "b8" in names(drill(fen, "hanging").squares)
    assert oracle_hanging(chess.Board(fen)) == names(drill(fen, "hanging").squares)


def test_no_hanging_drill_in_check() -> None:
    quiet = PositionFacts("4k3/8/8/8/8/8/6r1/R3K3 w - - 0 1")
    assert make_drill(quiet, "hanging", random.Random(0)) is not None
    checked = PositionFacts("4k3/8/8/8/8/8/8/R3K2r w - - 0 1")  # the rook on h1 checks
    assert make_drill(checked, "hanging", random.Random(0)) is None


# The oracle: python-chess's legal moves, exchanges by brute force (tests/support/exchange_oracle).


def oracle_hanging(board: chess.Board) -> list[str] | None:
    if board.is_check():
        return None
    found = {sq for sq, value in gains(board).items() if value > 0}
    found |= {sq for sq, value in gains(passed(board)).items() if value > 0}
    return sorted(chess.square_name(sq) for sq in found if sq >= 0)


def loses_material(board: chess.Board, move: chess.Move) -> bool:
    if exchange_value(board, move) < 0:
        return True
    rest = {} if board.is_check() else gains(passed(board))
    besides = max([0, *(v for sq, v in rest.items() if sq != move.from_square)])
    board.push(move)
    answer = max([0, *gains(board).values()])
    mate = any(gives_mate(board, reply) for reply in board.legal_moves)
    board.pop()
    return taken(board, move) - answer < -besides or mate


def gives_mate(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    mate = board.is_checkmate()
    board.pop()
    return mate


def wins_by_taking(board: chess.Board, origin: int, target: int) -> bool:
    """The side to move takes `target` with the piece on `origin` and wins material."""
    values = [
        exchange_value(board, move)
        for move in board.legal_moves
        if move.from_square == origin and move.to_square == target
    ]
    return bool(values) and max(values) > 0


def falling(after: chess.Board, origin: int, targets: list[int]) -> list[int]:
    if not after.is_check():
        mover = passed(after)
        return [t for t in targets if wins_by_taking(mover, origin, t)]
    left = list(targets)
    for reply in after.legal_moves:
        if reply.to_square == origin:
            if exchange_value(after, reply) >= 0:
                return []
            continue
        after.push(reply)
        left = [t for t in left if wins_by_taking(after, origin, t)]
        after.pop()
    return left


def oracle_moves(board: chess.Board, kind: str) -> list[str]:
    found = set()
    for move in board.legal_moves:
        piece = board.piece_at(move.from_square)
        assert piece is not None
        before = board.attacks(move.from_square)
        check, capture = board.gives_check(move), board.is_capture(move)
        board.push(move)
        attacked = [sq for sq in board.attacks(move.to_square) if board.color_at(sq) == board.turn]
        kings = [sq for sq in attacked if board.piece_type_at(sq) == chess.KING]
        others = [sq for sq in attacked if board.piece_type_at(sq) != chess.KING]
        new = [sq for sq in others if sq not in before]
        if kind == "threats" and (check or capture or not new):
            board.pop()
            continue
        if kind == "fork" and len(attacked) < 2:
            board.pop()
            continue
        won = falling(board, move.to_square, new if kind == "threats" else others)
        if is_hanging(board, move.to_square):  # taken back: the piece threatens nothing
            won, kings = [], []
        board.pop()
        enough = len(won) + len(kings) >= 2 if kind == "fork" else bool(won)
        if enough and not loses_material(board, move):
            found.add(move.uci()[:4])
    return sorted(found)


SMALL = [
    "4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1",
    "4k3/3r4/3p4/8/3R4/3R4/8/4K3 w - - 0 1",
    "3rk3/8/1b6/8/3B4/2N5/8/3RK3 w - - 0 1",
    "4k3/8/2p1p3/3n4/8/4B3/2N5/4K3 w - - 0 1",
    "2r1k3/8/8/2n5/8/8/2Q5/2R1K3 w - - 0 1",
    "4k3/8/8/7b/8/5N2/PP6/K2Q4 w - - 0 1",
    "6k1/8/8/2n5/4p3/8/1R6/3QK3 b - - 0 1",
    "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1",
    "4k3/4n3/8/3n4/8/1BN5/8/4K3 w - - 0 1",
    "r3k3/8/8/8/8/8/5PPP/2R3K1 w - - 0 1",
    "r3k3/8/8/8/8/8/2N2PPP/6K1 w - - 0 1",
]
# Positions of random games with few pieces left (the brute force stays quick there).
SPARSE = [fen for fen in sample_fens(range(40, 44), max_plies=200, stride=9)
          if len(chess.Board(fen).piece_map()) <= 16][:12]  # fmt: skip


@pytest.mark.parametrize("fen", SMALL + SPARSE)
def test_answers_match_the_brute_force_oracle(fen: str) -> None:
    board = chess.Board(fen)
    facts = PositionFacts(fen)
    rng = random.Random(0)
    hanging = make_drill(facts, "hanging", rng)
    expected = oracle_hanging(board)
    assert (None if hanging is None else names(hanging.squares)) == expected
    for kind in ("threats", "fork"):
        made = make_drill(facts, kind, rng)
        assert made is not None
        assert sorted(m.uci()[:4] for m in made.moves) == oracle_moves(board, kind), kind
    for origin in {move.from_square for move in board.legal_moves}:
        if board.piece_type_at(origin) == chess.KING:
            continue
        at = parse_square(chess.square_name(origin))
        safe = make_drill(facts, "safe", rng, None, at)
        assert safe is not None
        expected_safe = {
            chess.square_name(move.to_square)
            for move in board.legal_moves
            if move.from_square == origin
            and move.promotion in (None, chess.QUEEN)
            and not loses_material(board, move)
        }
        assert set(names(safe.squares)) == expected_safe, chess.square_name(origin)
