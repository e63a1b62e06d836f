"""FEN: round trips, the en passant convention, strict field errors that name the field and
quote the input, and refusal of every kind of unplayable position with its reason."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chesscore import STARTING_FEN, Board, ChessError, InvalidFenError, parse_square
from tests.epd import load_epd


@pytest.mark.parametrize("fen", [fen for fen, _ in load_epd()])
def test_round_trip_of_the_suite(fen: str) -> None:
    board = Board.from_fen(fen, allow_impossible_checks=True)
    expected = chess.Board(fen).fen()  # python-chess writes the same en passant convention
    assert board.fen() == expected
    assert Board.from_fen(board.fen(), allow_impossible_checks=True).fen() == expected


@pytest.mark.parametrize("seed", range(20))
def test_round_trip_along_random_games(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(120):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
        again = Board.from_fen(board.fen())
        assert again.fen() == board.fen()
        assert again.key() == board.key()


def test_valid_en_passant_square_without_capture_is_accepted_but_not_written() -> None:
    board = Board.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert board.ep_square == parse_square("e3")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert board.key() == Board.from_fen(board.fen()).key()


def test_clocks_may_be_left_out() -> None:
    assert Board.from_fen("4k3/8/8/8/8/8/8/4K3 w - -").fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


# (FEN, words the message must contain)
MALFORMED = [
    ("", "6 space-separated fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "6 space-separated fields"),
    (STARTING_FEN + " 7", "6 space-separated fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "piece placement field"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unexpected 'X'"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected '9'"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected '4'"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 squares"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 9 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move field 'x'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1", "castling field 'QKkq'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling field"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", "castling field"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant field 'e9'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock field '-1'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock field 'x'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number field '0'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", "6 space-separated fields"),
]


@pytest.mark.parametrize(("fen", "words"), MALFORMED)
def test_malformed_fen_names_the_field_and_quotes_the_input(fen: str, words: str) -> None:
    with pytest.raises(InvalidFenError) as error:
        Board.from_fen(fen)
    assert words in str(error.value)
    assert repr(fen) in str(error.value)


# (FEN, words of the reason)
UNPLAYABLE = [
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", "0 black kings"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "0 white kings"),
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "2 white kings"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on a1"),
    ("3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on d8"),
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "9 black pawns"),
    ("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1", "black is in check but it is white's move"),
    ("4k3/5P2/3N4/8/8/8/4R3/4K3 b - - 0 1", "3 pieces give check"),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K' needs the king on e1 and a rook on h1"),
    ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right 'K'"),
    ("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "castling right 'k'"),
    ("4k2r/8/8/8/8/8/8/4K3 b q - 0 1", "castling right 'q'"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "wrong rank"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "no black pawn in front"),
    ("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "not empty"),
    ("4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1", "not empty"),
    # Double checks no move could give.
    ("4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1", "double check"),
    ("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "double check"),
    ("4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", "double check"),
    ("4k3/8/8/1B5B/8/8/8/4K3 b - - 0 1", "double check"),
    ("8/8/8/R3k2R/8/8/8/4K3 b - - 0 1", "double check"),  # both on one line with the king
    ("R3k3/8/5N2/8/8/8/8/6K1 b - - 0 1", "double check"),  # f6 is no knight move from b8-d8
    ("4k3/8/3N4/8/4R3/8/8/6K1 b - - 0 1", "double check"),  # d6 is no knight move from e5-e7
    # Checks that cannot follow the pawn double step of the en passant square.
    ("8/8/8/3k4/4P3/8/8/3RK3 b - e3 0 1", "cannot follow the pawn double step"),
    ("8/8/8/k7/4P3/8/8/R3K3 b - e3 0 1", "was there before the pawn double step"),
    ("8/8/8/8/3kP3/8/8/3RK3 b - e3 0 1", "was there before the pawn double step"),
]


@pytest.mark.parametrize(("fen", "reason"), UNPLAYABLE)
def test_unplayable_positions_are_refused_with_the_reason(fen: str, reason: str) -> None:
    with pytest.raises(InvalidFenError) as error:
        Board.from_fen(fen)
    assert reason in str(error.value)
    assert repr(fen) in str(error.value)
    assert not chess.Board(fen).is_valid() or "double check" in reason


# Checks that a move can give: accepted.
PLAYABLE_CHECKS = [
    "4k3/8/8/8/8/8/8/R3K1r1 w - - 0 1",  # a single check
    "4k3/8/5N2/8/8/8/4R3/4K3 b - - 0 1",  # the knight came from e4, uncovering the rook
    "4k3/3P4/8/8/8/8/8/4RK2 b - - 0 1",  # the pawn took on d7 from e6, uncovering the rook
    "4k3/8/8/7Q/8/8/8/1K2R3 b - - 0 1",  # two sliders: the queen came from e5
    "8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1",  # the pawn's double step gave the check
    "8/8/8/8/3pP3/8/8/3K1k2 b - e3 0 1",  # a pawn double step with a legal capture
]


@pytest.mark.parametrize("fen", PLAYABLE_CHECKS)
def test_possible_checks_are_accepted(fen: str) -> None:
    assert Board.from_fen(fen).fen().split()[:2] == fen.split()[:2]


@given(st.text(max_size=90))
def test_fuzzed_text_raises_only_fen_errors(text: str) -> None:
    try:
        board = Board.from_fen(text)
    except InvalidFenError as error:
        assert repr(text) in str(error)
    else:
        assert Board.from_fen(board.fen()).fen() == board.fen()


@given(
    st.lists(st.sampled_from("pnbrqkPNBRQK12345678/"), min_size=15, max_size=70),
    st.sampled_from(["w", "b"]),
    st.sampled_from(["-", "K", "KQkq", "q"]),
    st.sampled_from(["-", "e3", "d6", "a6"]),
)
def test_fuzzed_boards_raise_only_fen_errors(
    chars: list[str], turn: str, castling: str, ep: str
) -> None:
    fen = f"{''.join(chars)} {turn} {castling} {ep} 0 1"
    try:
        board = Board.from_fen(fen)
    except ChessError as error:
        assert isinstance(error, InvalidFenError)
        return
    assert Board.from_fen(board.fen()).fen() == board.fen()
    board.legal_moves()


def _random_placement(rng: random.Random) -> str:
    """A random FEN with both kings and a few pieces, sometimes odd castling or en passant."""
    board = chess.Board(None)
    squares = rng.sample(range(64), rng.randint(2, 9))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for sq in squares[2:]:
        board.set_piece_at(sq, chess.Piece.from_symbol(rng.choice("PNBRQpnbrq")))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    fields = board.fen().split()
    if rng.random() < 0.3:
        fields[3] = rng.choice(["a3", "c3", "e3", "h3", "a6", "d6", "e6", "h6"])
    if rng.random() < 0.2:
        fields[2] = rng.choice(["K", "Q", "k", "q", "KQkq"])
    return " ".join(fields)


@pytest.mark.parametrize("seed", range(4))
def test_refusals_agree_with_python_chess(seed: int) -> None:
    """We refuse what python-chess's `is_valid()` refuses; beyond it only double checks that
    no move could give (python-chess accepts castling rights it silently drops: skipped)."""
    rng = random.Random(seed)
    for _ in range(1000):
        fen = _random_placement(rng)
        theirs = chess.Board(fen)
        if theirs.castling_xfen() != fen.split()[2]:
            continue
        try:
            Board.from_fen(fen)
        except InvalidFenError as error:
            assert not theirs.is_valid() or "double check" in str(error), fen
        else:
            assert theirs.is_valid(), fen
