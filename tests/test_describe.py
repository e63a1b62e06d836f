"""Squares and moves in words (chesscore.analysis.describe): exact sentences for known positions,
bad input refused by name, and the counts spoken for every square of sampled positions checked
against python-chess's attackers.
"""

from __future__ import annotations

import re

import chess
import pytest

from chesscore import Board, IllegalMoveError, InvalidSquareError, Move, parse_square, square_name
from chesscore.analysis.describe import describe_move, describe_square, describe_squares
from tests.random_games import play_random_game

# (FEN, square, sentence)
SQUARES = [
    ("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1", "e4",
     "e4, black pawn: attacked by 2 white pieces, knight c3 and pawn d3; "
     "defended by 1 black piece, queen e7; hanging"),  # dxe4 Qxe4 Nxe4 wins the pawn
    ("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1", "d5",
     "d5, empty: controlled by 1 white piece, knight c3, and by no black piece"),
    ("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1", "e5",
     "e5, empty: controlled by no white piece, and by 1 black piece, queen e7"),
    ("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1", "a8",
     "a8, empty: controlled by no piece"),
    ("4k3/4q3/8/8/4p3/2NP4/8/4K3 w - - 0 1", "c3",
     "c3, white knight: not attacked; not defended"),
    ("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1", "c6",
     "c6, black knight: attacked by 1 white piece, bishop b5; not defended; hanging; "
     "pinned to the king by bishop b5"),
    ("4k3/8/8/8/8/8/4R3/4K3 b - - 0 1", "e2",
     "e2, white rook: not attacked; defended by 1 white piece, king e1; giving check"),
    ("3qk3/8/5n2/6B1/8/8/8/4K3 w - - 0 1", "f6",
     "f6, black knight: attacked by 1 white piece, bishop g5; defended by 1 black piece, "
     "queen d8; pinned to the queen on d8 by bishop g5"),
    ("4k3/8/8/4p3/8/8/1B6/Q3K3 w - - 0 1", "e5",
     "e5, black pawn: attacked by 1 white piece, bishop b2; not defended; hanging; "
     "backed up from behind by 1 white piece, queen a1"),
    ("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "d5",
     "d5, black pawn: attacked by 2 white pieces, pawn c4 and pawn e4; not defended; hanging"),
    ("4k3/8/8/3p4/2P1P3/2N5/8/4K3 w - - 0 1", "d5",
     "d5, black pawn: attacked by 3 white pieces, knight c3, pawn c4 and pawn e4; "
     "not defended; hanging"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "square", "sentence"), SQUARES)
def test_known_squares(fen: str, square: str, sentence: str) -> None:
    board = Board.from_fen(fen)
    assert describe_square(board, square) == sentence
    assert describe_squares(board)[parse_square(square)] == sentence


# (FEN, UCI, sentence)
MOVES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3",
     "White knight from g1 to f3"),
    ("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", "b5c6",
     "White bishop from b5 takes knight on c6"),
    ("r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", "e1g1",
     "White castles kingside"),
    ("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8", "Black castles queenside"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6",
     "White pawn from e5 to d6, takes pawn on d5 en passant"),
    ("4k3/8/8/8/4pP2/8/6K1/8 b - f3 0 1", "e4f3",
     "Black pawn from e4 to f3, takes pawn on f4 en passant, check"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q",
     "White pawn from a7 to a8, promotes to queen"),
    ("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n",
     "White pawn from a7 takes rook on b8, promotes to knight"),
    ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4",
     "Black queen from d8 to h4, checkmate"),
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "White rook from a1 to a8, check"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "uci", "sentence"), MOVES)
def test_known_moves(fen: str, uci: str, sentence: str) -> None:
    board = Board.from_fen(fen)
    assert describe_move(board, board.parse_uci(uci)) == sentence
    assert board.fen() == fen


@pytest.mark.parametrize("junk", ["e9", "", "E4", "e4 ", 128, -1, 8])
def test_a_bad_square_is_refused_by_name(junk: object) -> None:
    with pytest.raises(InvalidSquareError, match=re.escape(repr(junk))):
        describe_square(Board(), junk)  # type: ignore[arg-type]


def test_an_illegal_move_is_refused_by_name() -> None:
    with pytest.raises(IllegalMoveError, match="e2e5"):
        describe_move(Board(), Move.from_uci("e2e5"))


COUNT = re.compile(r"(\d+) (white|black) pieces?")


def test_spoken_counts_agree_with_python_chess() -> None:
    """Every number a sentence says is the count of python-chess's attackers of that colour,
    and a colour that the sentence says nothing of has none."""
    checked = 0
    for seed in range(300, 304):
        game = play_random_game(seed, max_plies=100)
        replay = game.root()
        for index, move in enumerate(game.move_stack):
            if index % 10 == 0:
                oracle = chess.Board(replay.fen())
                for sq, sentence in describe_squares(replay).items():
                    name = square_name(sq)
                    head = sentence.split("; backed up")[0]  # the x-ray part counts others
                    spoken = {color: int(n) for n, color in COUNT.findall(head)}
                    for color, chess_color in (("white", chess.WHITE), ("black", chess.BLACK)):
                        real = len(oracle.attackers(chess_color, chess.parse_square(name)))
                        assert spoken.get(color, 0) == real, (replay.fen(), sentence)
                    checked += 1
            replay.push(move)
    assert checked >= 64 * 30
