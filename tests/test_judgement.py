"""Judgement of moves from evaluations (chesscore.analysis.judgement): the winning-chances curve
at known points, the thresholds of the three classes at their boundaries, lila's mate rules,
move accuracy, and game accuracy on the fixed sequences lila's own tests use (with its
tolerances), for both first movers.
"""

from __future__ import annotations

import math

import pytest

from chesscore.analysis.judgement import (
    Evaluation,
    InvalidEvaluationError,
    Judgement,
    game_accuracy,
    judge_drop,
    judge_move,
    move_accuracy,
    win_percent,
    winning_chances,
)
from chesscore.rules.squares import BLACK, WHITE


def cp(value: int) -> Evaluation:
    return Evaluation(cp=value)


def mate(value: int) -> Evaluation:
    return Evaluation(mate=value)


@pytest.mark.parametrize(
    ("centipawns", "expected"),
    [(0, 0.0), (100, 0.1821), (300, 0.5023), (-300, -0.5023), (1000, 0.9509), (5000, 1.0)],
)
def test_winning_chances_follow_the_logistic_curve(centipawns: int, expected: float) -> None:
    assert winning_chances(centipawns) == pytest.approx(expected, abs=1e-4)
    # 2 / (1 + exp(-k x)) - 1 is tanh(k x / 2).
    assert winning_chances(centipawns) == pytest.approx(math.tanh(0.00368208 * centipawns / 2))


def test_win_percent_caps_centipawns_and_counts_a_mate_as_ten_pawns() -> None:
    assert win_percent(cp(0)) == 50
    assert win_percent(cp(100)) == pytest.approx(59.103, abs=1e-3)
    assert win_percent(cp(3000)) == win_percent(cp(1000)) == win_percent(mate(7))
    assert win_percent(cp(-3000)) == win_percent(mate(-1)) == pytest.approx(2.455, abs=1e-3)
    assert win_percent(cp(1000)) + win_percent(cp(-1000)) == pytest.approx(100)


def _drop_to(points: float, start: int = 0) -> int:
    """The White evaluation after a White move from `start` cp that drops `points` of winning
    chances exactly (the inverse of the curve), rounded to a whole centipawn."""
    target = winning_chances(start) - points / 100
    return round(-math.log(2 / (target + 1) - 1) / 0.00368208)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        (9.99, None),
        (10, Judgement.INACCURACY),
        (19.99, Judgement.INACCURACY),
        (20, Judgement.MISTAKE),
        (29.99, Judgement.MISTAKE),
        (30, Judgement.BLUNDER),
        (100, Judgement.BLUNDER),
        (-50, None),
    ],
)
def test_classes_start_at_10_20_30_points(points: float, expected: Judgement | None) -> None:
    assert judge_drop(points) is expected


def test_the_classes_carry_their_marks_and_nags() -> None:
    marks = [(j.label, j.symbol, j.nag) for j in Judgement]
    assert marks == [("Inaccuracy", "?!", 6), ("Mistake", "?", 2), ("Blunder", "??", 4)]


@pytest.mark.parametrize("start", [0, 150, -200])
def test_judge_move_on_evaluations_at_the_boundaries(start: int) -> None:
    # One centipawn either side of each threshold, for White and, mirrored, for Black.
    for points, judgement in [(10, Judgement.INACCURACY), (20, Judgement.MISTAKE)]:
        after = _drop_to(points, start)
        assert judge_move(cp(start), cp(after - 2), WHITE) is judgement
        assert judge_move(cp(start), cp(after + 2), WHITE) is not judgement
        assert judge_move(cp(-start), cp(-after + 2), BLACK) is judgement
    blunder = _drop_to(30, start)
    assert judge_move(cp(start), cp(blunder - 2), WHITE) is Judgement.BLUNDER
    assert judge_move(cp(start), cp(blunder + 2), WHITE) is Judgement.MISTAKE


def test_a_drop_far_from_equality_counts_less() -> None:
    # Three pawns lost at +8 is a smaller drop of winning chances than at 0.
    assert judge_move(cp(0), cp(-300), WHITE) is Judgement.BLUNDER
    assert judge_move(cp(800), cp(600), WHITE) is None
    assert judge_move(cp(-50), cp(300), BLACK) is Judgement.BLUNDER
    assert judge_move(cp(50), cp(-300), BLACK) is None  # Black gained


@pytest.mark.parametrize(
    ("before", "after", "mover", "expected"),
    [
        # A mate against the mover that was not there: a blunder, less if lost already.
        (cp(0), mate(-3), WHITE, Judgement.BLUNDER),
        (cp(-750), mate(-3), WHITE, Judgement.MISTAKE),
        (cp(-1200), mate(-3), WHITE, Judgement.INACCURACY),
        (cp(0), mate(3), BLACK, Judgement.BLUNDER),
        (cp(1200), mate(3), BLACK, Judgement.INACCURACY),
        # A mate for the mover let go: a blunder, less if still winning big.
        (mate(2), cp(300), WHITE, Judgement.BLUNDER),
        (mate(2), cp(800), WHITE, Judgement.MISTAKE),
        (mate(2), cp(1500), WHITE, Judgement.INACCURACY),
        (mate(-2), cp(-1500), BLACK, Judgement.INACCURACY),
        (mate(-6), cp(-900), BLACK, Judgement.MISTAKE),
        (mate(2), mate(-4), WHITE, Judgement.BLUNDER),
        # Mates kept or slower, and mates against the mover that were there already.
        (mate(2), mate(5), WHITE, None),
        (mate(-2), mate(-1), WHITE, None),
        (mate(3), cp(-50), BLACK, None),
    ],
)
def test_mate_rules(
    before: Evaluation, after: Evaluation, mover: int, expected: Judgement | None
) -> None:
    assert judge_move(before, after, mover) is expected


def test_move_accuracy() -> None:
    assert move_accuracy(50, 50) == move_accuracy(40, 70) == 100
    # 103.1668 * exp(-0.04354 * 10) - 3.1669 + 1
    assert move_accuracy(60, 50) == pytest.approx(64.58, abs=0.01)
    assert move_accuracy(100, 0) == 0 and move_accuracy(90, 10) == pytest.approx(1.0, abs=0.01)
    drops = [move_accuracy(80, 80 - d) for d in range(0, 80, 5)]
    assert drops == sorted(drops, reverse=True)


# lila's own fixed sequences (modules/analyse/src/test/AccuracyPercentTest.scala): centipawns
# after each ply, White moving first, and (white, black) expected within a tolerance.
LILA_GAMES = [
    ([15, 15], (100, 1), (100, 1)),
    ([-900, -900], (10, 5), (100, 1)),
    ([15, 900], (100, 1), (10, 5)),
    ([-900, 0], (10, 5), (10, 5)),
    ([15] * 20, (100, 1), (100, 1)),
    ([15] * 20 + [-900], (50, 5), (100, 1)),
    ([15] * 21 + [900], (100, 1), (50, 5)),
    ([-50, 15] * 5, (76, 8), (76, 8)),
    ([-50, 15] * 50, (76, 8), (76, 8)),
    ([-135, 15] * 50, (54, 8), (54, 8)),
    ([-435, 15] * 50, (20, 8), (20, 8)),
]


@pytest.mark.parametrize(("cps", "white", "black"), LILA_GAMES)
def test_game_accuracy_on_lilas_sequences(
    cps: list[int], white: tuple[float, float], black: tuple[float, float]
) -> None:
    got_white, got_black = game_accuracy([cp(c) for c in cps])
    assert got_white == pytest.approx(white[0], abs=white[1])
    assert got_black == pytest.approx(black[0], abs=black[1])


@pytest.mark.parametrize(
    ("cps", "black", "white"),
    [([15, 15], 100, 100), ([900, 900], 10, 100), ([15, -900], 100, 10), ([900, 0], 10, 10)],
)
def test_game_accuracy_black_moving_first(cps: list[int], black: float, white: float) -> None:
    got_white, got_black = game_accuracy([cp(c) for c in cps], BLACK)
    assert got_black == pytest.approx(black, abs=5)
    assert got_white == pytest.approx(white, abs=5)


def test_game_accuracy_of_short_games_and_mates() -> None:
    assert game_accuracy([]) == (None, None)
    white, black = game_accuracy([cp(15)])
    assert white == pytest.approx(100) and black is None
    # Walking into a mate is a zero-accuracy move, held at 1 in the harmonic mean.
    white, black = game_accuracy([cp(15), cp(15), mate(-2), mate(-1)])
    assert black == pytest.approx(100)
    assert white is not None and 10 < white < 60
    # A set-up position starts from its own evaluation.
    white, _ = game_accuracy([cp(-400)], initial=cp(-400))
    assert white == pytest.approx(100)


def test_evaluation_wire_form_and_text() -> None:
    for data in ({"cp": 17}, {"cp": -250}, {"mate": 3}, {"mate": -1}):
        assert Evaluation.from_json(data).to_json() == data
    texts = {35: "+0.4", 40: "+0.4", -118: "-1.2", -125: "-1.3", 4: "0.0", -4: "0.0", 1000: "+10.0"}
    for value, text in texts.items():
        assert cp(value).text() == text
    assert mate(3).text() == "#3" and mate(-3).text() == "#-3"
    assert cp(80).for_color(BLACK) == cp(-80) and mate(2).for_color(BLACK) == mate(-2)


@pytest.mark.parametrize(
    "data",
    [None, {}, {"cp": 1, "mate": 2}, {"cp": "17"}, {"cp": 1.5}, {"mate": 0}, {"cp": True},
     {"depth": 3}, [17], "cp 17"],
)  # fmt: skip
def test_bad_evaluations_are_refused_naming_them(data: object) -> None:
    with pytest.raises(InvalidEvaluationError, match="evaluation"):
        Evaluation.from_json(data)


def test_bad_evaluation_values_are_refused() -> None:
    for kwargs in ({}, {"cp": 1, "mate": 1}, {"mate": 0}):
        with pytest.raises(InvalidEvaluationError):
            Evaluation(**kwargs)
