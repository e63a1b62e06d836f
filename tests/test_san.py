"""SAN writing and reading (chesscore.rules.san): tables of positions, plus round trips over games.

The expected SAN strings were checked with python-chess; the property tests compare every
legal move of seeded random games with python-chess and read each SAN back.
"""

from __future__ import annotations

import chess
import pytest

from chesscore import (
    AmbiguousMoveError,
    Board,
    ChessError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from chesscore.rules.san import make_san, parse_san
from tests.random_games import play_random_game

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CASTLE = "6k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"
QUEENS = "6k1/8/8/8/Q3Q3/8/8/Q5K1 w - - 0 1"
BACK_RANK = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
PAWN_TAKES = "k7/8/8/3p4/4P3/8/8/7K w - - 0 1"
EN_PASSANT = "k7/8/8/3pP3/8/8/8/7K w - d6 0 1"
PROMOTE = "k7/4P3/8/8/8/8/8/7K w - - 0 1"
TWO_ROOKS = "7k/8/8/8/8/8/8/R4RK1 w - - 0 1"

# (FEN, move in UCI, its SAN)
WRITTEN = [
    (CASTLE, "e1g1", "O-O"),
    (CASTLE, "e1c1", "O-O-O"),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+"),
    ("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", "e8c8", "O-O-O"),
    (CASTLE, "a1d1", "Rd1"),
    (TWO_ROOKS, "a1d1", "Rad1"),
    ("7k/8/8/8/R7/8/8/R5K1 w - - 0 1", "a1a2", "R1a2"),
    (QUEENS, "a4b3", "Qb3+"),
    (QUEENS, "e4b1", "Qeb1"),
    (QUEENS, "a1c3", "Qc3"),
    (QUEENS, "a4c2", "Qac2"),
    (QUEENS, "a1a2", "Q1a2+"),
    (QUEENS, "e4e8", "Qee8+"),
    ("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"),
    ("7k/8/8/8/8/2N3N1/8/6K1 w - - 0 1", "c3e2", "Nce2"),
    ("7k/8/8/8/8/2N5/8/2N3K1 w - - 0 1", "c1e2", "N1e2"),
    ("4k3/8/8/8/8/8/3N1N2/4K3 w - - 0 1", "d2e4", "Nde4"),
    ("4k3/8/8/8/8/1N6/8/1N1NK3 w - - 0 1", "d1c3", "Ndc3"),
    ("4k3/8/8/8/8/1N6/8/1N1NK3 w - - 0 1", "b3c5", "Nc5"),
    ("4k3/4r3/8/8/8/1N6/4N3/4K3 w - - 0 1", "b3d4", "Nd4"),  # the other knight is pinned
    (PAWN_TAKES, "e4d5", "exd5"),
    (EN_PASSANT, "e5d6", "exd6"),
    ("6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", "exd6#"),
    (PROMOTE, "e7e8q", "e8=Q+"),
    (PROMOTE, "e7e8n", "e8=N"),
    ("3r3k/4P3/8/8/8/8/8/7K w - - 0 1", "e7d8r", "exd8=R+"),
    ("8/8/8/8/8/5k2/6p1/4K3 b - - 0 1", "g2g1q", "g1=Q+"),
    ("8/8/8/8/8/5k2/6p1/4K2R b - - 0 1", "g2h1n", "gxh1=N"),
    (BACK_RANK, "a1a8", "Ra8#"),
    (BACK_RANK, "a1a7", "Ra7"),
    ("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", "f3f7", "Qxf7#"),
    (START, "g1f3", "Nf3"),
    (START, "e2e4", "e4"),
]

# (FEN, text as people type it, the move it means)
TOLERATED = [
    (CASTLE, "0-0", "e1g1"),
    (CASTLE, "0-0-0", "e1c1"),
    (CASTLE, "O-O-O", "e1c1"),
    (CASTLE, "O-O+", "e1g1"),
    (CASTLE, "Ra7", "a1a7"),
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O", "e1c1"),  # the check mark left out
    (BACK_RANK, "Ra8", "a1a8"),
    (BACK_RANK, "Ra8+", "a1a8"),  # mate written as check
    (BACK_RANK, "Ra8!!", "a1a8"),
    (BACK_RANK, "Ra7?!", "a1a7"),
    (BACK_RANK, " Ra7 ", "a1a7"),
    (PROMOTE, "e8Q", "e7e8q"),
    (PROMOTE, "e8q", "e7e8q"),
    (PROMOTE, "e8=R", "e7e8r"),
    (EN_PASSANT, "exd6 e.p.", "e5d6"),
    (EN_PASSANT, "exd6e.p.", "e5d6"),
    (PAWN_TAKES, "ed5", "e4d5"),
    (TWO_ROOKS, "Ra1d1", "a1d1"),
    (START, "e2e4", "e2e4"),
    (START, "Ng1f3", "g1f3"),
]

# (FEN, text, the error it must raise)
REFUSED = [
    (START, "", InvalidMoveError),
    (START, "e9", InvalidMoveError),
    (START, "Pe4", InvalidMoveError),
    (START, "Ke2=Q", InvalidMoveError),
    (START, "xe4", InvalidMoveError),
    (START, "O-O-O-O", InvalidMoveError),
    (START, "e4 e5", InvalidMoveError),
    (START, "nf3", InvalidMoveError),
    (PROMOTE, "e8=K", InvalidMoveError),
    (PROMOTE, "e8=P", InvalidMoveError),
    (START, "e5", IllegalMoveError),
    (START, "Nf4", IllegalMoveError),
    (START, "O-O", IllegalMoveError),
    (PAWN_TAKES, "d5", IllegalMoveError),  # a pawn capture must name its file
    (PAWN_TAKES, "Nxd5", IllegalMoveError),
    (START, "Nxf3", IllegalMoveError),  # nothing to take on f3
    (PROMOTE, "e8", IllegalMoveError),  # a promotion must name its piece
    (CASTLE, "Kg1", IllegalMoveError),  # castling is O-O
    ("6k1/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", IllegalMoveError),
    (TWO_ROOKS, "Rd1", AmbiguousMoveError),
    (TWO_ROOKS, "R1d1", AmbiguousMoveError),  # both rooks are on rank 1
    (QUEENS, "Qaa2", AmbiguousMoveError),
]


@pytest.mark.parametrize(("fen", "uci", "san"), WRITTEN)
def test_make_san(fen: str, uci: str, san: str) -> None:
    board = Board.from_fen(fen)
    assert make_san(board, Move.from_uci(uci)) == san
    assert board.fen() == fen  # writing SAN leaves the board as it was


@pytest.mark.parametrize(("fen", "uci", "san"), WRITTEN)
def test_parse_san_reads_what_make_san_writes(fen: str, uci: str, san: str) -> None:
    assert parse_san(Board.from_fen(fen), san).uci() == uci


@pytest.mark.parametrize(("fen", "text", "uci"), TOLERATED)
def test_parse_san_tolerates_what_people_type(fen: str, text: str, uci: str) -> None:
    assert parse_san(Board.from_fen(fen), text).uci() == uci


@pytest.mark.parametrize(("fen", "text", "error"), REFUSED)
def test_parse_san_refuses(fen: str, text: str, error: type[ChessError]) -> None:
    board = Board.from_fen(fen)
    with pytest.raises(error) as raised:
        parse_san(board, text)
    assert repr(text) in str(raised.value)
    assert fen in str(raised.value)  # the message names the position
    assert board.fen() == fen


def test_make_san_refuses_an_illegal_move() -> None:
    with pytest.raises(IllegalMoveError, match="e2e5"):
        make_san(Board(), Move.from_uci("e2e5"))


def test_board_methods_delegate_to_san() -> None:
    board = Board()
    assert board.san(Move.from_uci("g1f3")) == "Nf3"
    assert board.push_san("Nf3").uci() == "g1f3"
    assert board.parse_san("d5").uci() == "d7d5"


@pytest.mark.parametrize("seed", range(8))
def test_san_round_trip_for_every_legal_move(seed: int) -> None:
    """For every legal move of every position of a random game: our SAN is python-chess's,
    and reading it back gives the same move."""
    final = play_random_game(seed, max_plies=120)
    board, oracle = Board(), chess.Board()
    for move in final.move_stack:
        for legal in board.legal_moves():
            san = make_san(board, legal)
            assert san == oracle.san(chess.Move.from_uci(legal.uci())), board.fen()
            assert parse_san(board, san) == legal
        board.push(move)
        oracle.push(chess.Move.from_uci(move.uci()))


@pytest.mark.parametrize("junk", [None, "e2e4", 12])
def test_make_san_refuses_what_is_not_a_move(junk: object) -> None:
    with pytest.raises(InvalidMoveError, match="not a Move"):
        make_san(Board(), junk)  # type: ignore[arg-type]
