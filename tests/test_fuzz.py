"""Fuzzing the parsers with hypothesis: FEN, UCI, SAN and PGN text of any kind either parses or
raises a documented `ChessError` subclass, never another exception, and never changes the board.

Each parser gets arbitrary text and text drawn from its own alphabet (which reaches far deeper
into the parser). `derandomize=True` and a bounded `max_examples` keep CI repeatable.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chesscore import Board, ChessError, Move
from chesscore.rules.pgn import parse_pgn

FUZZ = settings(derandomize=True, max_examples=400, deadline=None)

POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "3r2k1/4P3/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 1",
    "6k1/8/8/8/Q3Q3/8/8/Q5K1 w - - 0 1",
]

FEN_TEXT = st.text(alphabet="pnbrqkPNBRQKx12345678/ wb-KQkqabcdefgh09", max_size=70)
UCI_TEXT = st.text(alphabet="abcdefghi0123456789qrbnkpQ ", max_size=6)
SAN_TEXT = st.text(alphabet="NBRQKPabcdefgh012345678x=+#O-!?e.p ", max_size=10)
PGN_TEXT = st.lists(
    st.sampled_from(
        ["1.", "2...", "e4", "e5", "Nf3", "Nc6", "Bb5", "O-O", "{c}", "{", "}", "(", ")", "$1",
         "; x\n", "1-0", "*", "[A \"b\"]\n", "[", "]", '"', "\\", "e8=Q", "??", "\n", "%x\n"]
    ),
    max_size=25,
).map(" ".join)  # fmt: skip


def mutate_fen(fen: str, position: int, text: str) -> str:
    return fen[:position] + text + fen[position + len(text) :]


@FUZZ
@given(st.one_of(st.text(max_size=80), FEN_TEXT))
def test_fen_parser_raises_only_chess_errors(text: str) -> None:
    try:
        board = Board.from_fen(text)
    except ChessError:
        return
    assert Board.from_fen(board.fen()).fen() == board.fen()


@FUZZ
@given(st.sampled_from(POSITIONS), st.integers(0, 70), st.text(max_size=3))
def test_fen_parser_on_damaged_fens(fen: str, position: int, text: str) -> None:
    with contextlib.suppress(ChessError):
        Board.from_fen(mutate_fen(fen, position, text))


@FUZZ
@given(st.sampled_from(POSITIONS), st.one_of(st.text(max_size=8), UCI_TEXT))
def test_uci_parsers_raise_only_chess_errors(fen: str, text: str) -> None:
    board = Board.from_fen(fen)
    with contextlib.suppress(ChessError):
        Move.from_uci(text)
    try:
        board.push_uci(text)
    except ChessError:
        assert board.fen() == Board.from_fen(fen).fen()


@FUZZ
@given(st.sampled_from(POSITIONS), st.one_of(st.text(max_size=10), SAN_TEXT))
def test_san_parser_raises_only_chess_errors(fen: str, text: str) -> None:
    board = Board.from_fen(fen)
    try:
        move = board.parse_san(text)
    except ChessError:
        assert board.fen() == Board.from_fen(fen).fen()
        return
    assert move in board.legal_moves()


@FUZZ
@given(st.one_of(st.text(max_size=60), PGN_TEXT))
def test_pgn_parser_raises_only_chess_errors(text: str) -> None:
    with contextlib.suppress(ChessError):
        parse_pgn(text)


@pytest.mark.parametrize("junk", [None, 42, b"e2e4", ["e2e4"]])
def test_parsers_refuse_what_is_not_text(junk: object) -> None:
    for parse in (Board.from_fen, Move.from_uci, Board().parse_san, Board().push_uci, parse_pgn):
        with pytest.raises(ChessError):
            parse(junk)  # type: ignore[operator]
