"""The Board: push then pop restores everything, the incremental Zobrist key equals the one
computed from scratch, castling rights and en passant follow the rules, and bad moves are
refused with clear errors without changing the position."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chesscore import (
    BLACK,
    KNIGHT,
    QUEEN,
    WHITE,
    Board,
    ChessError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
    Move,
    Piece,
    parse_square,
)
from chesscore.rules.movegen import has_legal_en_passant
from chesscore.rules.zobrist import compute_key


def _full_key(board: Board) -> int:
    ep = board.ep_square
    ep_file = ep & 7 if ep is not None and has_legal_en_passant(board) else None
    return compute_key(board.board, board.turn, board.castling_rights, ep_file)


def _play(seed: int, plies: int, fen: str | None = None) -> Board:
    rng = random.Random(seed)
    board = Board() if fen is None else Board.from_fen(fen)
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


@pytest.mark.parametrize("seed", range(30))
def test_push_then_pop_restores_fen_and_key(seed: int) -> None:
    board = _play(seed, 150)
    history = []
    replay = Board()
    for move in board.move_stack:
        history.append((replay.fen(), replay.key()))
        replay.push(move)
    for fen, key in reversed(history):
        replay.pop()
        assert (replay.fen(), replay.key()) == (fen, key)
    assert replay.ply == 0
    assert replay.keys == [Board().key()]


@pytest.mark.parametrize("seed", range(30))
def test_incremental_key_equals_key_from_scratch(seed: int) -> None:
    board = Board()
    rng = random.Random(seed)
    for _ in range(150):
        moves = board.legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
        assert board.key() == _full_key(board)
        assert board.key() == Board.from_fen(board.fen()).key()
    assert len(board.keys) == board.ply + 1


@pytest.mark.parametrize("seed", range(10))
def test_state_matches_python_chess(seed: int) -> None:
    rng = random.Random(seed)
    ours, theirs = Board(), chess.Board()
    for _ in range(200):
        moves = sorted(m.uci() for m in ours.legal_moves())
        if not moves:
            break
        uci = rng.choice(moves)
        move = Move.from_uci(uci)
        theirs_move = chess.Move.from_uci(uci)
        assert ours.is_capture(move) == theirs.is_capture(theirs_move)
        assert ours.is_en_passant(move) == theirs.is_en_passant(theirs_move)
        assert ours.is_castling(move) == theirs.is_castling(theirs_move)
        assert ours.gives_check(move) == theirs.gives_check(theirs_move)
        ours.push_uci(uci)
        theirs.push_uci(uci)
        assert ours.fen() == theirs.fen()
        assert ours.is_checkmate() == theirs.is_checkmate()
        assert ours.is_stalemate() == theirs.is_stalemate()


# (FEN, move, castling field after it)
CASTLING_AFTER = [
    ("2r1k2r/2qbbpp1/p2pp3/1p3PP1/Pn2P3/1PN1B3/1P3QB1/1K1R3R b k - 0 22", "h8h1", "-"),
    ("rnbqk1nr/ppp1ppb1/6p1/3p4/8/2N5/PPPPPPP1/R1BQKBNR w KQkq - 0 5", "h1h8", "Qq"),
    ("8/8/8/B2p3Q/2qPp1P1/b7/2P2PkP/4K2R b K - 0 1", "g2h1", "-"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "kq"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a2", "Kkq"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "KQ"),
]


@pytest.mark.parametrize(("fen", "uci", "castling"), CASTLING_AFTER)
def test_castling_rights_after_a_move(fen: str, uci: str, castling: str) -> None:
    board = Board.from_fen(fen)
    board.push_uci(uci)
    assert board.castling == castling
    assert board.fen().split()[2] == castling
    board.pop()
    assert board.fen() == fen


def test_castling_moves_the_rook_and_pop_puts_it_back() -> None:
    board = Board.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    board.push_uci("e1c1")
    assert board.fen() == "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"
    board.pop()
    assert board.fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_en_passant_square_written_only_when_a_capture_is_legal() -> None:
    board = Board()
    board.push_uci("e2e4")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert board.ep_square == parse_square("e3")
    assert board.key() == Board.from_fen(board.fen()).key()
    for uci in ("g8f6", "e4e5", "d7d5"):
        board.push_uci(uci)
    assert board.fen().split()[3] == "d6"
    board.push_uci("e5d6")
    assert board.piece_at(parse_square("d5")) is None
    assert board.fen() == "rnbqkb1r/ppp1pppp/3P1n2/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"


def test_promotion_and_its_undo() -> None:
    board = Board.from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    board.push_uci("a7b8n")
    assert board.piece_at(parse_square("b8")) == Piece(KNIGHT, WHITE)
    assert board.halfmove_clock == 0
    board.pop()
    assert board.fen() == "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    board.push(Move(parse_square("a7"), parse_square("a8"), QUEEN))
    assert board.piece_at(parse_square("a8")) == Piece(QUEEN, WHITE)


def test_clocks_and_ply() -> None:
    board = Board()
    for uci in ("g1f3", "g8f6", "f3g1"):
        board.push_uci(uci)
    assert (board.halfmove_clock, board.fullmove_number, board.ply) == (3, 2, 3)
    assert board.turn == BLACK
    assert [m.uci() for m in board.move_stack] == ["g1f3", "g8f6", "f3g1"]


@pytest.mark.parametrize("text", ["e2e5", "e1e2", "a7a5", "e2e4q", "e7e8"])
def test_illegal_moves_are_refused_and_change_nothing(text: str) -> None:
    board = Board()
    with pytest.raises(IllegalMoveError, match=text):
        board.push_uci(text)
    assert board.fen() == Board().fen()
    assert board.ply == 0


@pytest.mark.parametrize("text", ["", "e2", "e2e9", "i2e4", "e2e4x", "e2e2", "0000", "E2E4", 7])
def test_malformed_uci_is_refused(text: object) -> None:
    with pytest.raises(InvalidMoveError):
        Board().push_uci(text)  # type: ignore[arg-type]


def test_pop_without_moves() -> None:
    with pytest.raises(IndexError):
        Board().pop()


def test_copy_is_independent() -> None:
    board = Board()
    board.push_uci("e2e4")
    copy = board.copy()
    copy.push_uci("e7e5")
    assert board.ply == 1 and copy.ply == 2
    assert board.fen() != copy.fen()
    copy.pop()
    copy.pop()
    assert copy.fen() == Board().fen()
    assert board.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")


def test_pieces_and_king_squares() -> None:
    board = Board()
    pieces = board.pieces()
    assert len(pieces) == 32
    assert pieces[parse_square("d8")].symbol() == "q"
    assert board.king_square(WHITE) == parse_square("e1")
    assert board.king_square(BLACK) == parse_square("e8")
    assert board.root_fen() == Board().fen()


def test_transpositions_share_a_key() -> None:
    first, second = Board(), Board()
    for uci in ("g1f3", "g8f6", "b1c3"):
        first.push_uci(uci)
    for uci in ("b1c3", "g8f6", "g1f3"):
        second.push_uci(uci)
    assert first.key() == second.key()
    assert first.keys[0] == second.keys[0]
    assert first.key() != first.keys[-2]


UCI_FUZZ_FEN = "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1"


@given(st.text(max_size=8) | st.from_regex(r"[a-i][0-9][a-i][0-9][pnbrqkx]?", fullmatch=True))
def test_fuzzed_uci_raises_only_move_errors(text: str) -> None:
    board = Board.from_fen(UCI_FUZZ_FEN)
    try:
        move = board.parse_uci(text)
    except InvalidMoveError as error:
        assert repr(text) in str(error)
    except IllegalMoveError as error:
        assert repr(text) in str(error) and UCI_FUZZ_FEN in str(error)
    else:
        assert move.uci() == text
        assert move in board.legal_moves()
    assert board.fen() == UCI_FUZZ_FEN


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda b: b.piece_at(8), InvalidSquareError),
        (lambda b: b.piece_at(-1), InvalidSquareError),
        (lambda b: b.piece_at("e4"), InvalidSquareError),
        (lambda b: b.attackers(WHITE, 200), InvalidSquareError),
        (lambda b: b.attackers(2, 20), ChessError),
        (lambda b: b.king_square(None), ChessError),
        (lambda b: b.pins(-1), ChessError),
        (lambda b: b.push(Move(20, 136)), InvalidMoveError),
        (lambda b: b.push(Move(20, 36, 9)), InvalidMoveError),
        (lambda b: b.push("e2e4"), IllegalMoveError),
    ],
)
def test_bad_arguments_raise_clear_errors(call: object, error: type[Exception]) -> None:
    board = Board()
    with pytest.raises(error):
        call(board)  # type: ignore[operator]
    assert board.fen() == Board().fen()


def test_generated_move_lists_are_the_callers_own() -> None:
    board = Board()
    moves = board.generate_legal()
    moves.clear()
    assert len(board.generate_legal()) == 20
    assert len(board.legal_moves()) == 20
    board.push_uci("e2e4")
    assert len(board.generate_legal()) == 20
    board.pop()
    assert sorted(board.generate_legal()) == sorted(Board().generate_legal())


# (FEN, edits as (square, piece symbol or "" to empty), FEN of the edited position)
EDITS = [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", [("d1", "Q")], "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"),
    (chess.STARTING_FEN, [("h1", ""), ("a8", "")],
     "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qk - 0 1"),
    # The pawn that made the en passant square is taken off: no en passant any more.
    ("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", [("e5", "")], "4k3/8/8/3P4/8/8/8/4K3 w - - 0 2"),
    ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", [("e1", ""), ("a1", "K")], "4k3/8/8/8/8/8/8/K7 b - - 0 1"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", [("h1", "n")], "4k3/8/8/8/8/8/8/4K2n w - - 0 1"),
]  # fmt: skip


@pytest.mark.parametrize(("fen", "edits", "edited"), EDITS)
def test_edited_board_equals_the_board_of_its_fen(
    fen: str, edits: list[tuple[str, str]], edited: str
) -> None:
    board = Board(fen, allow_impossible_checks=True)
    before = board.generate_legal()  # fills the legal-move cache the edits must not reuse
    for name, symbol in edits:
        sq = parse_square(name)
        old = board.piece_at(sq)
        color = BLACK if symbol.islower() else WHITE
        piece = Piece(" pnbrqk".index(symbol.lower()), color) if symbol else None
        returned = board.set_piece_at(sq, piece) if piece else board.remove_piece_at(sq)
        assert returned == old
        assert board.piece_at(sq) == piece
    fresh = Board(edited, allow_impossible_checks=True)
    assert board.fen() == edited
    assert board.key() == fresh.key() == _full_key(board)
    assert board.kings == fresh.kings and board.piece_squares == fresh.piece_squares
    assert sorted(board.generate_legal()) == sorted(fresh.generate_legal())
    assert before == Board(fen, allow_impossible_checks=True).generate_legal()


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda b: b.set_piece_at(parse_square("e4"), "Q"), ChessError),
        (lambda b: b.set_piece_at(8, Piece(QUEEN, WHITE)), InvalidSquareError),
        (lambda b: b.remove_piece_at(-1), InvalidSquareError),
    ],
)
def test_bad_edits_raise_clear_errors_and_change_nothing(call: object, error: type) -> None:
    board = Board()
    with pytest.raises(error):
        call(board)  # type: ignore[operator]
    assert board.fen() == chess.STARTING_FEN


def _snapshot(board: Board) -> tuple[object, ...]:
    return (
        board.fen(),
        board.key(),
        board.keys[:],
        board.ply,
        board.move_stack,
        board.board[:],
        [set(squares) for squares in board.piece_squares],
        board.kings[:],
        board.ep_square,
        board.halfmove_clock,
        sorted(board.generate_legal()),
    )


@pytest.mark.parametrize("seed", range(12))
def test_null_move_passes_and_pops_back_to_the_identical_position(seed: int) -> None:
    board = _play(seed, 20 + seed * 7)
    if board.is_check() or board.outcome() is not None:
        board.pop()
    before = _snapshot(board)
    board.push_null()
    # The pass is the position with the other side to move, no en passant, the clock at zero.
    placement, turn, castling, _, _, fullmove = before[0].split()  # type: ignore[union-attr]
    passed = f"{placement} {'b' if turn == 'w' else 'w'} {castling} - 0 {fullmove}"
    assert board.fen() == passed
    assert board.key() == _full_key(board) == Board(passed, allow_impossible_checks=True).key()
    assert board.ply == before[3] and len(board.keys) == len(before[2]) + 1  # type: ignore[arg-type]
    # A move made after the pass (as the search does) comes off again before the pass does.
    move = board.generate_legal()[0]
    board.push_packed(move)
    board.pop_packed()
    board.pop_null()
    assert _snapshot(board) == before


def test_null_move_is_refused_in_check_and_changes_nothing() -> None:
    board = Board.from_fen("4k3/8/8/1B6/8/8/8/4K2R b K - 0 1")
    before = _snapshot(board)
    with pytest.raises(IllegalMoveError, match="null move in check"):
        board.push_null()
    assert _snapshot(board) == before


def test_pop_null_without_a_pass() -> None:
    board = Board()
    with pytest.raises(IndexError, match="pop_null"):
        board.pop_null()
    assert board.fen() == Board().fen()
