"""Legal move generation and the attack primitive: checks, pins and checkers, and agreement
with python-chess (the test oracle) over seeded random games. The en passant, castling and
promotion facts of tests/data/rules-edge-cases.md are tested in test_rules_edge_cases.py."""

from __future__ import annotations

import random

import chess
import pytest

from chesscore import WHITE, Board, Move, parse_square, square_name


def test_double_check_leaves_only_king_moves() -> None:
    board = Board.from_fen("4r2k/8/8/8/8/3n4/8/1B2K3 w - - 0 1")
    assert sorted(m.uci() for m in board.legal_moves()) == ["e1d1", "e1d2", "e1f1"]
    assert [square_name(sq) for sq in board.checkers()] == ["d3", "e8"]


def test_king_cannot_flee_along_the_checking_line() -> None:
    board = Board.from_fen("4r2k/8/8/8/8/8/8/4K3 w - - 0 1")
    assert "e1e2" not in {m.uci() for m in board.legal_moves()}
    assert Move.from_uci("e1d1") in board.legal_moves()


def test_attackers_counts_pawns_diagonally_and_stops_sliders() -> None:
    board = Board.from_fen("4k3/8/8/3p4/4P3/2N5/8/R3K3 w - - 0 1")
    d5 = parse_square("d5")
    assert [square_name(sq) for sq in board.attackers(WHITE, d5)] == ["c3", "e4"]
    # The rook on a1 sees along the first rank up to its own king, not beyond.
    d1 = parse_square("d1")
    assert [square_name(sq) for sq in board.attackers(WHITE, d1)] == ["a1", "e1", "c3"]
    assert board.attackers(WHITE, parse_square("f1")) == [parse_square("e1")]
    # A pawn does not attack the square in front of it.
    assert parse_square("e4") not in board.attackers(WHITE, parse_square("e5"))


def test_pins_name_pinned_and_pinner() -> None:
    # The bishop on b1 is beside the king, not behind a piece: no pin.
    assert Board.from_fen("4k3/8/8/8/8/8/4N3/1b2K3 w - - 0 1").pins(WHITE) == []
    board = Board.from_fen("4k3/4r3/8/b7/8/8/3BN3/4K3 w - - 0 1")
    named = [(square_name(a), square_name(b)) for a, b in board.pins(WHITE)]
    assert named == [("d2", "a5"), ("e2", "e7")]
    # A pinned piece keeps only the moves along its pin.
    moves = {m.uci() for m in board.legal_moves()}
    assert "d2c3" in moves and "d2a5" in moves and "d2e3" not in moves
    assert not any(m.startswith("e2") for m in moves)


def _random_boards(seed: int, plies: int) -> list[tuple[Board, chess.Board]]:
    rng = random.Random(seed)
    ours, theirs = Board(), chess.Board()
    positions = []
    for _ in range(plies):
        moves = sorted(m.uci() for m in ours.legal_moves())
        if not moves:
            break
        positions.append((ours.copy(), theirs.copy()))
        uci = rng.choice(moves)
        ours.push_uci(uci)
        theirs.push_uci(uci)
    return positions


@pytest.mark.parametrize(
    "seed", [*range(6), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(6, 60))]
)
def test_agrees_with_python_chess(seed: int) -> None:
    for ours, theirs in _random_boards(seed, 200):
        assert sorted(m.uci() for m in ours.legal_moves()) == sorted(
            m.uci() for m in theirs.legal_moves
        )
        assert ours.is_check() == theirs.is_check()
        assert ours.checkers() == sorted(_to_0x88(sq) for sq in theirs.checkers())
        for color in (chess.WHITE, chess.BLACK):
            ours_color = 0 if color == chess.WHITE else 1
            for sq in chess.SQUARES:
                expected = sorted(_to_0x88(a) for a in theirs.attackers(color, sq))
                assert ours.attackers(ours_color, _to_0x88(sq)) == expected
            expected_pins = sorted(
                _to_0x88(sq)
                for sq in chess.SQUARES
                if theirs.color_at(sq) == color
                and theirs.is_pinned(color, sq)
                and theirs.piece_type_at(sq) != chess.KING
            )
            assert [p for p, _ in ours.pins(ours_color)] == expected_pins


def test_generation_does_not_change_the_position() -> None:
    for ours, _ in _random_boards(7, 120):
        before = (ours.fen(), ours.key(), list(ours.board), ours.ep_square)
        ours.generate_legal()
        ours.legal_moves()
        ours.destinations()
        assert (ours.fen(), ours.key(), list(ours.board), ours.ep_square) == before


def test_destinations_group_targets_by_origin() -> None:
    board = Board.from_fen("3k4/6P1/8/8/8/8/8/K7 w - - 0 1")
    assert board.destinations() == {"a1": ["a2", "b1", "b2"], "g7": ["g8"]}


def test_promotion_targets_are_the_promoting_destinations() -> None:
    board = Board.from_fen("2nk4/1P4P1/8/8/8/8/6p1/K7 w - - 0 1")
    assert board.promotion_targets() == {"b7": ["b8", "c8"], "g7": ["g8"]}
    board.push_uci("a1a2")
    assert board.promotion_targets() == {"g2": ["g1"]}
    assert Board().promotion_targets() == {}


@pytest.mark.parametrize("seed", range(10))
def test_promotion_targets_agree_with_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    ours, theirs = (
        Board("8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1"),
        chess.Board("8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1"),
    )
    while not theirs.is_game_over():
        expected: dict[str, set[str]] = {}
        for move in theirs.legal_moves:
            if move.promotion:
                origin = chess.square_name(move.from_square)
                expected.setdefault(origin, set()).add(chess.square_name(move.to_square))
        assert ours.promotion_targets() == {k: sorted(v) for k, v in sorted(expected.items())}
        move = rng.choice(list(theirs.legal_moves))
        theirs.push(move)
        ours.push_uci(move.uci())


def _to_0x88(sq: int) -> int:
    return (sq >> 3) * 16 + (sq & 7)


@pytest.mark.parametrize("seed", range(40))
def test_gives_check_without_making_the_move_agrees_with_making_it(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(200):
        moves = board.generate_legal()
        if not moves:
            break
        for move in moves:
            board.push_packed(move)
            expected = board.is_check()
            board.pop_packed()
            assert board.gives_check_packed(move) == expected, Move.from_packed(move)
        board.push_packed(rng.choice(sorted(moves)))


# (FEN, move, gives check?): discovered, double, en passant, castling and promotion checks.
CHECK_FACTS = [
    ("6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", True),
    ("4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", True),
    ("4k3/8/8/8/4P3/8/8/4R1K1 w - - 0 1", "e4e5", False),
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", True),
    ("3k4/6P1/8/8/8/8/8/K7 w - - 0 1", "g7g8q", True),
    ("3k4/6P1/8/8/8/8/8/K7 w - - 0 1", "g7g8n", False),
    ("4k3/8/8/8/8/2B5/3P4/4K3 w - - 0 1", "d2d4", False),
    ("7k/8/8/8/8/8/1P6/B3K3 w - - 0 1", "b2b4", True),
]


@pytest.mark.parametrize(("fen", "uci", "check"), CHECK_FACTS)
def test_check_facts(fen: str, uci: str, check: bool) -> None:
    board = Board.from_fen(fen)
    assert board.gives_check(Move.from_uci(uci)) is check
    board.push_uci(uci)
    assert board.is_check() is check


def _random_position(rng: random.Random) -> str:
    """A random FEN: both kings and up to twelve other pieces anywhere legal for pawns."""
    board = chess.Board(None)
    squares = rng.sample(range(64), rng.randint(2, 14))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for sq in squares[2:]:
        symbols = "NBRQnbrq" if chess.square_rank(sq) in (0, 7) else "PNBRQpnbrq"
        board.set_piece_at(sq, chess.Piece.from_symbol(rng.choice(symbols)))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board.fen()


@pytest.mark.parametrize("seed", range(3))
def test_random_positions_agree_with_python_chess(seed: int) -> None:
    """Odd material (many queens, pieces next to kings, checks from everywhere) that games
    rarely reach: the same legal moves, checkers and pins as the oracle."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(1500):
        fen = _random_position(rng)
        theirs = chess.Board(fen)
        if not theirs.is_valid():
            continue
        ours = Board.from_fen(fen, allow_impossible_checks=True)
        assert sorted(m.uci() for m in ours.legal_moves()) == sorted(
            m.uci() for m in theirs.legal_moves
        ), fen
        assert ours.checkers() == sorted(_to_0x88(sq) for sq in theirs.checkers()), fen
        compared += 1
    assert compared > 300
