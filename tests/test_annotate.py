"""PGN export with threat annotations (chesscore.analysis.annotate): exact text for known games, the
moves read back by chesscore.rules.pgn, and the coloured squares and arrows read by python-chess's
PGN parser (as a PGN viewer would) and checked against python-chess's own attack facts.
"""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from chesscore import Board, InvalidPgnError
from chesscore.analysis.annotate import make_annotated_pgn
from chesscore.rules.pgn import parse_pgn
from tests.random_games import play_random_game


def _play(sans: list[str], fen: str | None = None) -> Board:
    board = Board() if fen is None else Board.from_fen(fen)
    for san in sans:
        board.push_san(san)
    return board


def _movetext(pgn: str) -> str:
    return pgn.split("\n\n", 1)[1]


def test_fools_mate_with_headers() -> None:
    pgn = make_annotated_pgn(
        _play(["f3", "e5", "g4", "Qh4"]),
        {"White": "Ann", "Black": "Bob"},
        annotator="chesscore",
        assisted=True,
    )
    assert pgn == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "Ann"]\n'
        '[Black "Bob"]\n[Result "0-1"]\n[Annotator "chesscore"]\n[Assisted "yes"]\n\n'
        "1. f3 e5 2. g4 Qh4# { [%csl Yh2] [%cal Rh4e1,Yh4h1] } 0-1\n"
    )


def test_a_take_leaves_a_pawn_hanging_and_pins_two_pieces() -> None:
    board = _play(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"])
    assert _movetext(make_annotated_pgn(board)) == (
        "1. e4 e5 2. Nf3 { [%csl Re5] } Nc6 3. Bb5 a6 { [%csl Rb5] } 4. Bxc6\n"
        "{ [%csl Yb7,Rc6,Yd7,Re5] [%cal Yc6a8,Yc6e8] } *\n"
    )


def test_a_fork_gets_green_arrows() -> None:
    board = _play(["Nc7+"], "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1")
    pgn = make_annotated_pgn(board, assisted=False)
    assert '[SetUp "1"]\n[FEN "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1"]\n[Assisted "no"]' in pgn
    assert _movetext(pgn) == "1. Nc7+ { [%csl Ra8] [%cal Rc7e8,Gc7a8,Gc7e8] } *\n"


def test_a_black_first_move_and_a_given_result() -> None:
    board = _play(["Kf8"], "4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1")
    pgn = make_annotated_pgn(board, result="1/2-1/2")
    assert _movetext(pgn) == "1... Kf8 { [%csl Rc6] } 1/2-1/2\n"  # pin released, still hanging


def test_a_bad_result_is_refused_by_name() -> None:
    with pytest.raises(InvalidPgnError, match="'2-0'"):
        make_annotated_pgn(Board(), result="2-0")


def test_random_games_read_back_and_their_shapes_are_true() -> None:
    """chesscore reads the moves back; python-chess reads every comment's squares and arrows,
    and each red square holds a piece the other colour attacks, each red arrow runs from a
    checking piece to the king, each yellow arrow starts on a slider."""
    shapes = 0
    for seed in range(400, 403):
        board = play_random_game(seed, max_plies=70)
        pgn = make_annotated_pgn(board)
        assert parse_pgn(pgn).moves == board.move_stack
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert game is not None and not game.errors
        for node in game.mainline():
            position = node.board()
            for arrow in node.arrows():
                _check_shape(position, arrow)
                shapes += 1
    assert shapes > 40


def _check_shape(position: chess.Board, arrow: chess.svg.Arrow) -> None:
    tail, head = arrow.tail, arrow.head
    if tail == head and arrow.color == "red":  # a hanging piece
        piece = position.piece_at(tail)
        assert piece is not None and position.is_attacked_by(not piece.color, tail)
    elif tail == head:  # a pinned piece
        assert arrow.color == "yellow" and position.piece_at(tail) is not None
    elif arrow.color == "red":
        assert tail in position.checkers() and head == position.king(position.turn)
    elif arrow.color == "yellow":
        pinner = position.piece_at(tail)
        assert pinner is not None and pinner.piece_type in (chess.BISHOP, chess.ROOK, chess.QUEEN)
    else:
        assert arrow.color == "green" and head in position.attacks(tail)
