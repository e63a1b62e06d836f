"""Outcome, termination and the draw rules (chesscore.rules.outcome), from tables of positions.

Expected values were checked with python-chess; "has occurred" and "can be claimed with the
next move" are tested as separate questions.
"""

from __future__ import annotations

import json

import pytest

from chesscore import BLACK, WHITE, Board, Outcome, Termination

KNIGHT_DANCE = ["g1f3", "g8f6", "f3g1", "f6g8"]

# (FEN, white has insufficient material, black has insufficient material)
MATERIAL = [
    ("8/5k2/8/8/8/8/3K4/8 w - - 0 1", True, True),
    ("8/3k4/8/8/2N5/8/3K4/8 b - - 0 1", True, True),
    ("8/3k4/8/8/2N5/8/3K4/7q b - - 0 1", True, False),  # a knight cannot mate a lone queen
    ("8/3k4/8/8/2N5/8/3K4/7r b - - 0 1", False, False),  # ...but can a king boxed by its rook
    ("8/3k4/8/8/2NN4/8/3K4/8 b - - 0 1", False, True),
    ("8/5k2/8/8/8/4B3/3K1B2/8 w - - 0 1", True, True),
    ("8/4bk2/8/8/8/8/3KB3/8 w - - 0 1", False, False),  # bishops on opposite colours
    ("8/4bk2/8/8/8/8/3K1B2/8 w - - 0 1", True, True),  # bishops on one colour
    ("8/5k2/8/8/8/4B3/3K3p/8 w - - 0 1", False, False),
    ("8/4nk2/8/8/8/4B3/3K4/8 w - - 0 1", False, False),
    ("8/4rk2/8/8/8/8/3K4/8 w - - 0 1", True, False),
    ("8/5k2/8/8/8/8/3KP3/8 w - - 0 1", False, True),
    ("5K2/8/8/1B6/8/k7/6b1/8 w - - 0 39", True, True),
]

# (FEN, outcome without claims, outcome with claim_draw)
ENDINGS = [
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "checkmate 1", "same"),
    ("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", None, None),
    ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", "checkmate 0", "same"),
    ("k7/3N4/1K6/1B6/8/8/8/8 b - - 99 1", "stalemate", "same"),
    ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", "stalemate", "same"),
    ("8/5k2/8/8/8/8/3K4/8 w - - 0 1", "insufficient_material", "same"),
    ("8/4rk2/8/8/8/8/3K4/8 w - - 150 80", "seventyfive_moves", "same"),
    ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 150 80", "checkmate 0", "same"),  # mate comes first
    ("8/4rk2/8/8/8/8/3K4/8 w - - 149 80", None, "fifty_moves"),
    ("8/4rk2/8/8/8/8/3K4/8 w - - 100 80", None, "fifty_moves"),
    ("8/4rk2/8/8/8/8/3K4/8 w - - 99 80", None, "fifty_moves"),  # with the next move
    ("8/4rk2/8/8/8/8/3K4/8 w - - 98 80", None, None),
]


def make_outcome(text: str | None) -> Outcome | None:
    """ "checkmate 0" -> white wins by checkmate; "stalemate" -> a drawn Outcome."""
    if text is None:
        return None
    name, _, winner = text.partition(" ")
    return Outcome(Termination(name), int(winner) if winner else None)


def play(board: Board, moves: list[str]) -> Board:
    for uci in moves:
        board.push_uci(uci)
    return board


@pytest.mark.parametrize(("fen", "white", "black"), MATERIAL)
def test_insufficient_material(fen: str, white: bool, black: bool) -> None:
    board = Board.from_fen(fen)
    assert board.has_insufficient_material(WHITE) is white
    assert board.has_insufficient_material(BLACK) is black
    assert board.is_insufficient_material() is (white and black)


@pytest.mark.parametrize(("fen", "automatic", "claimed"), ENDINGS)
def test_outcome(fen: str, automatic: str | None, claimed: str | None) -> None:
    board = Board.from_fen(fen)
    assert board.outcome() == make_outcome(automatic)
    expected = make_outcome(automatic if claimed == "same" else claimed)
    assert board.outcome(claim_draw=True) == expected
    assert board.fen() == fen


@pytest.mark.parametrize(
    ("outcome", "result", "wire"),
    [
        (Outcome(Termination.CHECKMATE, WHITE), "1-0", "white"),
        (Outcome(Termination.RESIGNATION, BLACK), "0-1", "black"),
        (Outcome(Termination.TIME_FORFEIT, WHITE), "1-0", "white"),
        (Outcome(Termination.ABANDONED, BLACK), "0-1", "black"),
        (Outcome(Termination.AGREEMENT, None), "1/2-1/2", None),
        (Outcome(Termination.THREEFOLD_REPETITION, None), "1/2-1/2", None),
    ],
)
def test_outcome_result_and_json(outcome: Outcome, result: str, wire: str | None) -> None:
    assert outcome.result() == result
    data = outcome.to_json()
    assert data == {"termination": outcome.termination.value, "winner": wire, "result": result}
    assert json.loads(json.dumps(data)) == data


def test_termination_values_are_the_wire_names() -> None:
    assert [t.value for t in Termination] == [
        "checkmate", "stalemate", "insufficient_material", "fivefold_repetition",
        "seventyfive_moves", "threefold_repetition", "fifty_moves", "resignation",
        "agreement", "time_forfeit", "abandoned",
    ]  # fmt: skip


# (plies of the knight dance played from the start, occurrences of the current position,
#  threefold has occurred, threefold can be claimed, game over without a claim)
REPETITIONS = [
    (0, 1, False, False, None),
    (4, 2, False, False, None),
    (7, 2, False, True, None),  # 8.Ng8 would make the third occurrence
    (8, 3, True, True, None),
    (9, 3, True, True, None),
    (15, 4, True, True, None),
    (16, 5, True, True, "fivefold_repetition"),
]


@pytest.mark.parametrize(("plies", "count", "occurred", "claimable", "over"), REPETITIONS)
def test_repetition(
    plies: int, count: int, occurred: bool, claimable: bool, over: str | None
) -> None:
    board = play(Board(), (KNIGHT_DANCE * 4)[:plies])
    assert board.is_repetition(count) and not board.is_repetition(count + 1)
    assert board.is_repetition(3) is occurred
    assert board.can_claim_threefold_repetition() is claimable
    assert board.can_claim_draw() is claimable
    assert board.outcome() == make_outcome(over)
    if claimable and not over:
        assert board.outcome(claim_draw=True) == make_outcome("threefold_repetition")


def test_a_capture_starts_the_count_again() -> None:
    # The same squares dance, but a capture in between makes earlier positions unrepeatable.
    board = play(Board(), ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5d8", "c3b1", "d8d5"])
    assert board.halfmove_clock == 4
    assert not board.is_repetition(3)
    assert board.is_repetition(2)


def test_claim_checks_leave_the_board_unchanged() -> None:
    board = play(Board(), KNIGHT_DANCE * 2)
    fen, keys = board.fen(), list(board.keys)
    board.can_claim_threefold_repetition()
    board.can_claim_fifty_moves()
    board.outcome(claim_draw=True)
    assert (board.fen(), board.keys) == (fen, keys)


@pytest.mark.parametrize(
    ("fen", "occurred", "claimable"),
    [
        ("8/4rk2/8/8/8/8/3K4/8 w - - 100 80", True, True),
        ("8/4rk2/8/8/8/8/3K4/8 w - - 99 80", False, True),
        ("8/4rk2/8/8/8/8/3K4/8 w - - 98 80", False, False),
        ("k7/3N4/1K6/1B6/8/8/8/8 b - - 100 1", False, False),  # stalemate first
        # At 99 the claim holds through any quiet move, though Ra8# itself would end the game.
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", False, True),
    ],
)
def test_fifty_moves(fen: str, occurred: bool, claimable: bool) -> None:
    board = Board.from_fen(fen)
    assert board.is_fifty_moves() is occurred
    assert board.can_claim_fifty_moves() is claimable


@pytest.mark.parametrize(
    ("termination", "winner", "message"),
    [
        ("checkmate", WHITE, "not a Termination"),
        (Termination.CHECKMATE, None, "needs a winner"),
        (Termination.RESIGNATION, None, "needs a winner"),
        (Termination.STALEMATE, WHITE, "is a draw"),
        (Termination.AGREEMENT, BLACK, "is a draw"),
        (Termination.CHECKMATE, 2, "winner must be"),
        (Termination.ABANDONED, "white", "winner must be"),
    ],
)
def test_outcome_refuses_nonsense(termination: object, winner: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Outcome(termination, winner)  # type: ignore[arg-type]


@pytest.mark.parametrize("winner", [WHITE, BLACK, None])
def test_time_forfeit_and_abandonment_may_be_won_or_drawn(winner: int | None) -> None:
    for termination in (Termination.TIME_FORFEIT, Termination.ABANDONED):
        assert Outcome(termination, winner).winner == winner
