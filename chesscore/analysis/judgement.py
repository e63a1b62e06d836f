"""How good a move was, from the evaluations before and after it: winning chances, the class of
a move (inaccuracy, mistake, blunder) and accuracy, computed as lichess computes them.

Evaluations are engine scores from White's view: `Evaluation(cp=35)` is White a third of a pawn
up, `Evaluation(mate=-3)` is Black mating in 3. The formulas, their constants and their source
in lichess's code (lila and scalachess) are written down in docs/review.md; in short:

- winning chances, in [-1, +1] from White's view: ``2 / (1 + exp(-0.00368208 * cp)) - 1``;
- win percent, in [0, 100]: ``50 + 50 * winning chances``, the centipawns capped at +-1000 and
  a mate counted as +-1000;
- a move's class, from the drop of the mover's winning chances between the position before it
  and the position after it (both judged by the best play the engine sees): 0.1 an inaccuracy
  (``?!``, NAG 6), 0.2 a mistake (``?``, NAG 2), 0.3 a blunder (``??``, NAG 4); "points" of
  winning chances below are hundredths of that [-1, +1] scale, so a blunder drops 30 points
  of winning chances, which is 15 points of win percent. When either evaluation is a mate
  score, the mate rules decide instead: a mate against the mover that was not there before
  (or a mate for the mover that is gone) is a blunder, a mistake when the other evaluation
  is beyond 7 pawns the wrong way already, an inaccuracy beyond 10 pawns;
- a move's accuracy, in [0, 100]: ``103.1668 * exp(-0.04354 * drop) - 3.1669 + 1`` of the
  drop in the mover's win percent, 100 when nothing was lost;
- a player's accuracy over a game: the mean of a volatility-weighted mean and the harmonic
  mean of the accuracies of their moves.

Everything here is plain arithmetic on evaluations: nothing searches or reads a board.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from chesscore.errors import ChessError
from chesscore.rules.squares import BLACK, WHITE, Color

# lila pull request 11148 fitted this slope of the logistic curve to real games.
WINNING_CHANCES_SLOPE = 0.00368208
# Win percents (and so accuracy) treat anything beyond ten pawns, and every mate, as ten pawns.
CP_CEILING = 1000
# lila's evaluation of the initial position, put before a game's first evaluation for accuracy.
INITIAL_CP = 15

# The accuracy curve lila fitted to hand-chosen points (AccuracyPercent.fromWinPercents), and
# the point it adds for the engine's own imperfection.
ACCURACY_SCALE = 103.1668100711649
ACCURACY_DECAY = 0.04354415386753951
ACCURACY_OFFSET = -3.166924740191411
ACCURACY_BONUS = 1.0

# Mate rules (lila's MateAdvice): centipawns past which a mate created or lost is a lesser fault.
MATE_INACCURACY_CP = 999
MATE_MISTAKE_CP = 700

# The window of the volatility weights: a tenth of the game, 2 to 8 evaluations; each weight is
# the standard deviation of the win percents in its window, kept within 0.5 and 12.
WINDOW_MIN, WINDOW_MAX = 2, 8
WEIGHT_MIN, WEIGHT_MAX = 0.5, 12.0


class InvalidEvaluationError(ChessError):
    """An evaluation that is not exactly one whole `cp` or non-zero `mate` (quotes the input)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """An engine score from White's view: centipawns, or moves to mate (negative: Black mates).

    Exactly one of the two is set; a mate in 0 has no side and is refused (a position that is
    checkmate on the board needs no evaluation: see `judge_move`).

    >>> Evaluation(cp=40).text(), Evaluation(cp=-118).text(), Evaluation(mate=-3).text()
    ('+0.4', '-1.2', '#-3')
    >>> Evaluation.from_json({"mate": 2}) == Evaluation(mate=2)
    True
    """

    cp: int | None = None
    mate: int | None = None

    def __post_init__(self) -> None:
        values = [v for v in (self.cp, self.mate) if v is not None]
        if len(values) != 1 or any(type(v) is not int for v in values) or self.mate == 0:
            raise InvalidEvaluationError(
                f"an evaluation is one whole cp or one non-zero mate, not "
                f"cp={self.cp!r}, mate={self.mate!r}"
            )

    @classmethod
    def from_json(cls, data: object) -> Evaluation:
        """From its wire form, `{"cp": 17}` or `{"mate": -3}`; InvalidEvaluationError else."""
        if isinstance(data, Mapping) and len(data) == 1:
            (key, value), *_ = data.items()
            if key == "cp" and type(value) is int:
                return cls(cp=value)
            if key == "mate" and type(value) is int:
                return cls(mate=value)
        raise InvalidEvaluationError(f"not an evaluation: {data!r}")

    def to_json(self) -> dict[str, int]:
        """The wire form: `{"cp": 17}` or `{"mate": -3}`."""
        return {"cp": self.cp} if self.cp is not None else {"mate": self.mate or 0}

    def text(self) -> str:
        """As players read it: "+0.4", "-1.2", "0.0", "#3", "#-3" (pawns to one decimal)."""
        if self.mate is not None:
            return f"#{self.mate}"
        assert self.cp is not None
        # Tenths of a pawn rounded half away from zero, in integers: 35 cp is +0.4 exactly.
        tenths = (abs(self.cp) + 5) // 10
        sign = "" if tenths == 0 else "+" if self.cp > 0 else "-"
        return f"{sign}{tenths // 10}.{tenths % 10}"

    def for_color(self, color: Color) -> Evaluation:
        """The same score from `color`'s view (Black's view negates it)."""
        if color == WHITE:
            return self
        return Evaluation(-self.cp) if self.cp is not None else Evaluation(mate=-(self.mate or 0))

    def capped_cp(self) -> int:
        """Centipawns within +-`CP_CEILING`, a mate counting as the ceiling on its side."""
        if self.mate is not None:
            return CP_CEILING if self.mate > 0 else -CP_CEILING
        assert self.cp is not None
        return max(-CP_CEILING, min(CP_CEILING, self.cp))


class Judgement(Enum):
    """The class of a bad move: its name, its mark in a move list, its PGN NAG, and the drop
    of the mover's winning chances (points, hundredths of [-1, +1]) from which it counts."""

    INACCURACY = ("Inaccuracy", "?!", 6, 10)
    MISTAKE = ("Mistake", "?", 2, 20)
    BLUNDER = ("Blunder", "??", 4, 30)

    def __init__(self, label: str, symbol: str, nag: int, threshold: int) -> None:
        self.label = label
        self.symbol = symbol
        self.nag = nag
        self.threshold = threshold


# Worst first: the first threshold a drop reaches names its class.
_BY_SEVERITY = (Judgement.BLUNDER, Judgement.MISTAKE, Judgement.INACCURACY)


def winning_chances(cp: int) -> float:
    """White's winning chances in [-1, +1] for a score of `cp` centipawns (not capped).

    >>> winning_chances(0), round(winning_chances(300), 4), round(winning_chances(-300), 4)
    (0.0, 0.5023, -0.5023)
    """
    return max(-1.0, min(1.0, 2 / (1 + math.exp(-WINNING_CHANCES_SLOPE * cp)) - 1))


def win_percent(evaluation: Evaluation) -> float:
    """White's chance of winning in [0, 100]: the curve of the capped centipawns, a mate
    counting as ten pawns.

    >>> round(win_percent(Evaluation(cp=100)), 2), round(win_percent(Evaluation(mate=-1)), 2)
    (59.1, 2.46)
    """
    return 50 + 50 * winning_chances(evaluation.capped_cp())


def move_accuracy(before: float, after: float) -> float:
    """The accuracy in [0, 100] of a move that took the mover's win percent from `before`
    to `after` (both from the mover's view).

    >>> move_accuracy(60, 60), round(move_accuracy(60, 50), 2), round(move_accuracy(90, 10), 2)
    (100.0, 64.58, 1.0)
    """
    if after >= before:
        return 100.0
    raw = ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * (before - after)) + ACCURACY_OFFSET
    return max(0.0, min(100.0, raw + ACCURACY_BONUS))


def judge_move(before: Evaluation, after: Evaluation, mover: Color) -> Judgement | None:
    """The class of a move by `mover` from the position evaluated `before` to the one
    evaluated `after` (both from White's view), None for a good enough move.

    A move that mates on the board is never bad: pass `before` as `after` for it.

    >>> judge_move(Evaluation(cp=50), Evaluation(cp=-300), WHITE)
    <Judgement.BLUNDER: ('Blunder', '??', 4, 30)>
    >>> judge_move(Evaluation(cp=50), Evaluation(cp=-300), BLACK) is None  # good for Black
    True
    """
    mine_before, mine_after = before.for_color(mover), after.for_color(mover)
    if mine_before.cp is not None and mine_after.cp is not None:
        drop = winning_chances(mine_before.cp) - winning_chances(mine_after.cp)
        return judge_drop(drop * 100)
    return _judge_mate(mine_before, mine_after)


def judge_drop(points: float) -> Judgement | None:
    """The class of a drop of the mover's winning chances by `points` (hundredths of the
    [-1, +1] scale): at least 10 an inaccuracy, 20 a mistake, 30 a blunder.

    >>> judge_drop(9.99) is None, judge_drop(10).name, judge_drop(29.9).name, judge_drop(30).name
    (True, 'INACCURACY', 'MISTAKE', 'BLUNDER')
    """
    # A hair of rounding must not move a drop across a threshold it reaches exactly.
    points = round(points, 9)
    return next((j for j in _BY_SEVERITY if points >= j.threshold), None)


def _judge_mate(before: Evaluation, after: Evaluation) -> Judgement | None:
    """lila's mate rules, both evaluations from the mover's view, at least one a mate."""
    if after.mate is not None and after.mate < 0 and before.mate is None:
        # A mate against the mover that was not there: the worse the position was, the less
        # the move threw away.
        return _lesser_fault(-(before.cp or 0))
    if before.mate is not None and before.mate > 0:
        if after.mate is None:
            return _lesser_fault(after.cp or 0)
        if after.mate < 0:
            return Judgement.BLUNDER
    return None  # a mate kept (perhaps a slower one), or a mate against the mover staying


def _lesser_fault(margin: int) -> Judgement:
    """Blunder, or less when the other evaluation was `margin` centipawns beyond the loss."""
    if margin > MATE_INACCURACY_CP:
        return Judgement.INACCURACY
    if margin > MATE_MISTAKE_CP:
        return Judgement.MISTAKE
    return Judgement.BLUNDER


def game_accuracy(
    evaluations: Sequence[Evaluation],
    first_mover: Color = WHITE,
    initial: Evaluation | None = None,
) -> tuple[float | None, float | None]:
    """(White's, Black's) accuracy over a game, None for a side that made no move.

    `evaluations` holds one evaluation of the position after each ply, from White's view;
    `initial` evaluates the starting position (lila's +0.15 when None); `first_mover` is the
    side that made the first ply. Each move's accuracy is weighted by the volatility of the
    win percents around it (the standard deviation in a window), and a side's accuracy is the
    mean of the weighted mean and the harmonic mean of its moves' accuracies.

    >>> white, black = game_accuracy([Evaluation(cp=15), Evaluation(cp=900)])
    >>> round(white, 1), round(black, 1)
    (100.0, 12.3)
    """
    moves = weighted_accuracies(evaluations, first_mover, initial)
    white, black = (
        side_accuracy([(accuracy, weight) for mover, accuracy, weight in moves if mover == color])
        for color in (WHITE, BLACK)
    )
    return white, black


def weighted_accuracies(
    evaluations: Sequence[Evaluation],
    first_mover: Color = WHITE,
    initial: Evaluation | None = None,
) -> list[tuple[Color, float, float]]:
    """Each ply's (mover, accuracy, weight) as `game_accuracy` weighs them (same arguments):
    a part of the game (a phase) is summed up by `side_accuracy` of its plies' pairs."""
    start = initial if initial is not None else Evaluation(cp=INITIAL_CP)
    percents = [win_percent(e) for e in (start, *evaluations)]
    moves = []
    for ply, weight in enumerate(_volatility_weights(percents)):
        color = first_mover if ply % 2 == 0 else first_mover ^ 1
        before, after = percents[ply], percents[ply + 1]
        if color == BLACK:
            before, after = 100 - before, 100 - after
        moves.append((color, move_accuracy(before, after), weight))
    return moves


def _volatility_weights(percents: Sequence[float]) -> Iterator[float]:
    """One weight per move: the standard deviation of the win percents in the move's window,
    the first windows all being the game's opening window (as lila lays them out)."""
    moves = len(percents) - 1
    size = max(WINDOW_MIN, min(WINDOW_MAX, moves // 10))
    windows = [percents[:size]] * (min(size, len(percents)) - 2)
    windows += [percents[i : i + size] for i in range(max(1, len(percents) - size + 1))]
    for window in windows[:moves]:
        yield max(WEIGHT_MIN, min(WEIGHT_MAX, _standard_deviation(window)))


def _standard_deviation(values: Sequence[float]) -> float:
    """The population standard deviation."""
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def side_accuracy(moves: Sequence[tuple[float, float]]) -> float | None:
    """The mean of the weighted mean and the harmonic mean (each accuracy at least 1 in it,
    so one move of accuracy 0 does not make the whole game 0) of (accuracy, weight) pairs."""
    if not moves:
        return None
    weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
    harmonic = len(moves) / sum(1 / max(1.0, a) for a, _ in moves)
    return (weighted + harmonic) / 2
