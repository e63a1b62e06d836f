"""The trainer's drills (chesscore.training): every kind on hand-built positions, with the
answer written out, then the geometric kinds' answers against an oracle built on python-chess
over sampled positions of random games (attackers, pins, legal checks and captures), and the
exchange of a blunder check and a count against a brute-force exchange over every capture
order on small positions. The material kinds (hanging, safe, threats, fork) have their own
brute-force oracle (tests/test_training_material.py) and Stockfish's check
(tests/test_training_soundness.py). Judging and the difficulty levels last.
"""

from __future__ import annotations

import random

import chess
import pytest

from chesscore import Move, parse_square, square_name
from chesscore.training import KINDS, Drill, PositionFacts, judge, make_drill
from chesscore.training.difficulty import LEVELS, Measures, level_of
from chesscore.training.judging import PinAnswer
from tests.support.exchange_oracle import exchange_value
from tests.support.positions import sample_fens

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def drill(fen: str, kind: str, played: str | None = None, focus: str | None = None) -> Drill:
    move = Move.from_uci(played) if played else None
    at = parse_square(focus) if focus else None
    made = make_drill(PositionFacts(fen), kind, random.Random(0), move, at)
    assert made is not None
    return made


def names(squares: tuple[int, ...]) -> list[str]:
    return [square_name(sq) for sq in squares]


def answer_of(made: Drill) -> object:
    """The drill's answer as the API names it."""
    if made.kind in ("checks", "captures", "threats", "fork"):
        return [move.uci() for move in made.moves]
    if made.kind == "count":
        return {"white": made.count[0], "black": made.count[1], "exchange": made.exchange}
    if made.kind == "blunder":
        return (made.safe, names(made.squares))
    return names(made.squares)


# (kind, FEN, the square or piece asked about, or the move played (blunder), answer, why)
KNOWN = [
    ("hanging", "4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 1", None, ["c6"], "an undefended knight"),
    ("hanging", "4k3/3p4/2n5/1B6/8/8/8/4K3 w - - 0 1", None, [], "the pawn defends it"),
    ("hanging", "4k3/3p4/2r5/1B6/8/8/8/4K3 w - - 0 1", None, ["c6"],
     "a defended rook attacked by a cheaper bishop"),
    ("checks", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", None, ["a1a8", "h1h8"],
     "two rook checks; castling puts no rook on the e-file"),
    ("captures", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", None, ["e5d6"], "en passant"),
    ("threats", "4k3/8/8/2n5/8/8/8/R3K3 w - - 0 1", None, ["a1a5", "a1c1"],
     "the rook attacks the undefended knight from a5 and c1; Ra8+ is a check, not a threat"),
    ("count", "4k3/8/3p4/4n3/8/5N2/8/4R1K1 w - - 0 1", "e5",
     {"white": 2, "black": 1, "exchange": "win"},
     "rook e1 and knight f3 against pawn d6 (the knight on e5 does not count for itself); "
     "Nxe5 dxe5 Rxe5 wins a pawn"),
    ("safe", "4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1", "f3", ["d2", "d4", "e5", "g1", "h2", "h4"],
     "g5 loses the knight to the pawn h6; e5 trades knight for knight"),
    ("pins", "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", None, ["d2"], "d2 pinned by b4 to the king"),
    ("pins", "4k3/8/8/8/q7/8/2R5/4K1Q1 w - - 0 1", None, [], "nothing stands behind c2"),
    ("pins", "4k3/8/8/8/8/8/1q6/R2NK3 b - - 0 1", None, [],
     "the queen on b2 is not in line; the knight is not pinned"),
    ("fork", "r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1", None, [], "no knight jump reaches two targets"),
    ("fork", "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", None, ["b5c7"], "Nc7+ hits e8 and a8"),
    ("blunder", "4k3/8/3p4/8/8/8/8/2B1K3 w - - 0 1", "c1e3", (True, []), "nothing attacks e3"),
    ("blunder", "4k3/8/3p4/8/2B5/8/8/4K3 w - - 0 1", "c4e6", (True, []), "d6 takes on c5, e5"),
    ("blunder", "4k3/8/3p4/8/8/8/8/4K1B1 w - - 0 1", "g1c5", (False, ["c5"]),
     "the pawn on d6 takes on c5"),
    ("blunder", "4k3/8/8/b7/8/2N5/1P6/4K3 w - - 0 1", "b2b3", (False, ["c3"]),
     "b3 stops defending the knight the bishop attacks"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "fen", "at", "answer", "why"), KNOWN)
def test_known_answers(kind: str, fen: str, at: str | None, answer: object, why: str) -> None:
    played, focus = (at, None) if kind == "blunder" else (None, at)
    made = drill(fen, kind, played, focus)
    assert answer_of(made) == answer, why
    assert made.level in LEVELS
    assert made.reasons


def test_every_kind_has_a_question() -> None:
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    for kind in KINDS:
        made = drill(fen, kind, "h5f7" if kind == "blunder" else None)
        assert made.question and made.fen == fen


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="'sacrifice'"):
        make_drill(PositionFacts(chess.STARTING_FEN), "sacrifice", random.Random(0))


def test_no_drill_where_there_is_no_question() -> None:
    lone = PositionFacts("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert make_drill(lone, "count", random.Random(0)) is None  # no square both sides reach
    assert make_drill(lone, "safe", random.Random(0)) is None  # only kings
    assert make_drill(lone, "blunder", random.Random(0)) is None  # no move played


# The oracle: python-chess's attackers, pins and legal moves.


def by_squares(moves: list[chess.Move]) -> list[str]:
    return sorted({move.uci()[:4] for move in moves})


def oracle_moves(board: chess.Board, kind: str) -> list[str]:
    found = []
    for move in board.legal_moves:
        check, capture = board.gives_check(move), board.is_capture(move)
        if (kind == "checks" and check) or (kind == "captures" and capture):
            found.append(move)
    return by_squares(found)


def oracle_pinned(board: chess.Board) -> list[str]:
    """The pinned pieces of `oracle_pin_pairs`."""
    return sorted({pinned for pinned, _ in oracle_pin_pairs(board)})


def oracle_pin_pairs(board: chess.Board) -> list[tuple[str, str]]:
    """Every (pinned, target): absolute pins from python-chess (is_pinned, and the target is
    the king at the end of board.pin's ray); relative pins by walking every slider's lines."""
    pairs = set()
    for sq, piece in board.piece_map().items():
        if board.is_pinned(piece.color, sq):
            king = board.king(piece.color)
            assert king is not None and king in board.pin(piece.color, sq)
            pairs.add((sq, king))
    for origin, slider in board.piece_map().items():
        if slider.piece_type not in (chess.BISHOP, chess.ROOK, chess.QUEEN):
            continue
        for front in board.attacks(origin):
            victim = board.piece_at(front)
            if victim is None or victim.color == slider.color or victim.piece_type == chess.KING:
                continue
            behind = next_on_line(board, origin, front)
            if behind is None:
                continue
            target = board.piece_at(behind)
            assert target is not None
            if target.color != victim.color or target.piece_type == chess.KING:
                continue
            if VALUES[target.piece_type] > VALUES[victim.piece_type] and (
                VALUES[target.piece_type] > VALUES[slider.piece_type]
                or not board.attackers(target.color, behind)
            ):
                pairs.add((front, behind))
    return sorted((chess.square_name(a), chess.square_name(b)) for a, b in pairs)


def next_on_line(board: chess.Board, origin: int, front: int) -> int | None:
    df = (chess.square_file(front) > chess.square_file(origin)) - (
        chess.square_file(front) < chess.square_file(origin)
    )
    dr = (chess.square_rank(front) > chess.square_rank(origin)) - (
        chess.square_rank(front) < chess.square_rank(origin)
    )
    f, r = chess.square_file(front) + df, chess.square_rank(front) + dr
    while 0 <= f < 8 and 0 <= r < 8:
        if board.piece_at(chess.square(f, r)):
            return chess.square(f, r)
        f, r = f + df, r + dr
    return None


SAMPLED = sample_fens(range(4), max_plies=120, stride=7)


@pytest.mark.parametrize("fen", SAMPLED)
def test_answers_match_python_chess(fen: str) -> None:
    board = chess.Board(fen)
    facts = PositionFacts(fen)
    rng = random.Random(0)

    def made(kind: str, focus: int | None = None) -> Drill:
        result = make_drill(facts, kind, rng, None, focus)
        assert result is not None
        return result

    for kind in ("checks", "captures"):
        assert sorted(m.uci()[:4] for m in made(kind).moves) == oracle_moves(board, kind), kind
    pins = made("pins")
    assert names(pins.squares) == oracle_pinned(board)
    assert sorted(tuple(names(pair)) for pair in pins.pin_pairs) == oracle_pin_pairs(board)
    for sq in chess.SQUARES:
        white, black = board.attackers(chess.WHITE, sq), board.attackers(chess.BLACK, sq)
        count = make_drill(facts, "count", rng, None, parse_square(chess.square_name(sq)))
        if white and black:
            assert count is not None and count.count == (len(white), len(black))
        else:
            assert count is None


# Brute-force exchanges: every capture order, either side free to stop
# (tests/support/exchange_oracle.py).


SMALL = [
    "4k3/8/3p3p/4n3/8/5N2/8/4K3 w - - 0 1",
    "4k3/3r4/3p4/8/3R4/3R4/8/4K3 w - - 0 1",
    "3rk3/8/1b6/8/3B4/2N5/8/3RK3 w - - 0 1",
    "4k3/8/2p1p3/3n4/8/4B3/2N5/4K3 w - - 0 1",
    "2r1k3/8/8/2n5/8/8/2Q5/2R1K3 w - - 0 1",
]


@pytest.mark.parametrize("fen", SMALL)
def test_blunder_checks_of_the_moved_piece_match_a_brute_force_exchange(fen: str) -> None:
    board = chess.Board(fen)
    facts = PositionFacts(fen)
    for move in board.legal_moves:
        made = make_drill(facts, "blunder", random.Random(0), Move.from_uci(move.uci()))
        assert made is not None
        loses = exchange_value(board, move) < 0
        assert (chess.square_name(move.to_square) in names(made.squares)) == loses, move.uci()
        assert made.safe == (not made.squares)


@pytest.mark.parametrize("fen", SMALL)
def test_the_exchange_of_a_count_matches_a_brute_force_exchange(fen: str) -> None:
    board = chess.Board(fen)
    facts = PositionFacts(fen)
    for sq in chess.SQUARES:
        if not (board.attackers(chess.WHITE, sq) and board.attackers(chess.BLACK, sq)):
            continue
        made = make_drill(
            facts, "count", random.Random(0), None, parse_square(chess.square_name(sq))
        )
        assert made is not None
        captures = [m for m in board.legal_moves if m.to_square == sq and board.piece_at(sq)]
        if not captures:
            assert made.exchange == "none"
            continue
        best = max(exchange_value(board, move) for move in captures)
        expected = "win" if best > 0 else "even" if best == 0 else "lose"
        assert made.exchange == expected, chess.square_name(sq)


# Judging and levels.


def test_judging_marks_right_missed_and_wrong() -> None:
    made = drill("4k3/8/8/2n5/8/8/8/R3K3 w - - 0 1", "threats")
    a5, c1, a8 = (
        (parse_square(a), parse_square(b)) for a, b in (("a1", "a5"), ("a1", "c1"), ("a1", "a8"))
    )
    assert judge(made, frozenset({a5, c1})).correct
    verdict = judge(made, frozenset({a5, a8}))
    assert not verdict.correct and verdict.missed_moves == (c1,) and verdict.wrong_moves == (a8,)
    assert "Ra5 (a1a5): the rook attacks knight c5" in verdict.explanation
    hanging = drill("4k3/8/2n5/1B6/8/8/8/4K3 w - - 0 1", "hanging")
    verdict = judge(hanging, frozenset({parse_square("b5")}))
    assert verdict.missed == (parse_square("c6"),) and verdict.wrong == (parse_square("b5"),)
    count = drill("4k3/8/3p4/4n3/8/5N2/8/4R1K1 w - - 0 1", "count", focus="e5")
    assert judge(count, (2, 1, None)).correct and not judge(count, (1, 1, None)).correct
    assert judge(count, (2, 1, "win")).correct and not judge(count, (2, 1, "even")).correct
    blunder = drill("4k3/8/3p4/8/8/8/8/4K1B1 w - - 0 1", "blunder", "g1c5")
    assert judge(blunder, False).correct
    assert judge(blunder, True).missed == (parse_square("c5"),)
    with pytest.raises(TypeError):
        judge(blunder, frozenset())


# (FEN, every (pinned, target), why)
PIN_PAIRS = [
    ("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", [("d2", "e1")], "the knight is pinned to its king"),
    ("q3k3/8/8/8/n7/8/8/R3K3 w - - 0 1", [("a4", "a8")],
     "a relative pin: the rook takes the queen if the knight leaves"),
    ("3rk3/b7/8/8/3N4/8/8/3K2Q1 w - - 0 1", [("d4", "d1"), ("d4", "g1")],
     "one knight pinned twice: to its king by the rook, to its queen by the bishop"),
    ("4k3/8/2n5/1B6/1b6/8/3N4/4K3 w - - 0 1", [("c6", "e8"), ("d2", "e1")],
     "a pin of either colour"),
    ("4k3/8/8/8/q7/8/2R5/4K1Q1 w - - 0 1", [], "nothing stands behind c2"),
]  # fmt: skip


def squares_of(*names: str) -> tuple[int, ...]:
    return tuple(parse_square(name) for name in names)


@pytest.mark.parametrize(("fen", "pairs", "why"), PIN_PAIRS)
def test_pins_name_the_piece_each_is_pinned_to(
    fen: str, pairs: list[tuple[str, str]], why: str
) -> None:
    made = drill(fen, "pins")
    assert [tuple(names(pair)) for pair in made.pin_pairs] == pairs, why
    assert sorted(tuple(names(pair)) for pair in made.pin_pairs) == oracle_pin_pairs(
        chess.Board(fen)
    )
    truth = frozenset(squares_of(*pair) for pair in pairs)
    verdict = judge(made, PinAnswer(truth))
    assert verdict.correct and verdict.missed_pairs == verdict.wrong_pairs == ()


def test_pins_judged_pair_by_pair() -> None:
    made = drill("3rk3/b7/8/8/3N4/8/8/3K2Q1 w - - 0 1", "pins")
    d4_d1, d4_g1, d4_d8 = squares_of("d4", "d1"), squares_of("d4", "g1"), squares_of("d4", "d8")
    # The pinned piece right, one of its two targets named: that one is missed.
    verdict = judge(made, PinAnswer(frozenset({d4_d1})))
    assert not verdict.correct and verdict.missed == () and verdict.wrong == ()
    assert verdict.missed_pairs == (d4_g1,) and verdict.wrong_pairs == ()
    # The pinner named instead of the target: a wrong pair, and the right one missed.
    verdict = judge(made, PinAnswer(frozenset({d4_d8, d4_g1})))
    assert not verdict.correct and verdict.missed_pairs == (d4_d1,)
    assert verdict.wrong_pairs == (d4_d8,)
    # A piece that is not pinned: a wrong square and a wrong pair.
    e8_a7 = squares_of("e8", "a7")
    verdict = judge(made, PinAnswer(frozenset({d4_d1, d4_g1, e8_a7})))
    assert verdict.wrong == squares_of("e8") and verdict.wrong_pairs == (e8_a7,)
    # Squares alone (the first part of the question) judge the pinned pieces only.
    verdict = judge(made, frozenset(squares_of("d4")))
    assert verdict.correct and verdict.missed_pairs == ()
    # No square at all says nothing is pinned: every pair is missed.
    verdict = judge(made, frozenset())
    assert not verdict.correct and verdict.missed_pairs == (d4_d1, d4_g1)
    assert "pins the knight d4 to the king d1" in verdict.explanation


def test_a_count_asks_the_exchange_only_where_there_is_a_piece_to_take() -> None:
    fen = "4k3/8/3p4/4n3/8/5N2/8/4R1K1 w - - 0 1"
    taken = drill(fen, "count", focus="e5")
    assert taken.question.endswith("And if White takes the knight e5, who wins the exchange?")
    empty = drill("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "count", focus="e4")  # c3 and d5
    assert empty.count == (1, 1) and empty.exchange == "none"
    assert empty.question == "How many white and how many black pieces attack e4?"
    assert judge(empty, (empty.count[0], empty.count[1], None)).correct


def test_levels_grow_with_pieces_answer_and_distance() -> None:
    easy, hard = Measures(6, 1, 1), Measures(32, 6, 7)
    for kind in KINDS:
        assert level_of(kind, easy) == 1 and level_of(kind, hard) == 3
    assert level_of("hanging", Measures(16, 2, 4)) == 2  # 2 + 2 + 2 points
    # Nothing to find: the pieces alone, at most 4 points, level 1 of every finding kind.
    for kind in ("hanging", "pins", "checks", "captures", "threats", "fork"):
        assert level_of(kind, Measures(32, 0, 0)) == 1
