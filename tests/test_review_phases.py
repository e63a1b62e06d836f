"""The phases of a game and each player's accuracy in each (chesscore.review.phases): the split
on positions chosen for each rule, the accuracy per phase and so far on a short game whose
numbers were worked out by hand from docs/review.md's formulas, and the JSON a review carries
on a real game (with python-chess replaying it as the oracle of the material count)."""

from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn
import pytest

from chesscore.analysis.judgement import Evaluation, game_accuracy
from chesscore.review.evaluate import PositionEval
from chesscore.review.phases import (
    Division,
    Phase,
    divide_game,
    phase_accuracy,
    phases_to_json,
    running_accuracy,
)
from chesscore.rules.board import Board
from chesscore.rules.squares import BLACK, WHITE

START = Board()
# White castled with both rooks on f1 and a1 and nothing else on its first rank: 3 pieces there,
# its pieces are out (13 knights, bishops, rooks and queens on the board: not by material).
DEVELOPED = Board.from_fen("r1bqkbnr/pppppppp/2n5/8/8/2NB1N2/PPPPQPPP/R4RK1 b kq - 0 1")
# Queens and knights off the board (10 pieces left), the rest at home: the middlegame by
# material alone (6 pieces on each first rank).
FEW_PIECES = Board.from_fen("r1b1kb1r/pppppppp/8/8/8/8/PPPPPPPP/R1B1KB1R w KQkq - 0 1")
# A rook and a knight: an endgame.
ENDGAME = Board.from_fen("8/5pk1/6p1/8/3R4/2N5/5PPP/6K1 w - - 0 1")


def test_the_middlegame_and_the_endgame_begin_where_their_rules_first_hold() -> None:
    division = divide_game([START, START, DEVELOPED, FEW_PIECES, ENDGAME, ENDGAME])
    assert division == Division(middlegame=2, endgame=4)
    phases = [division.phase_of_ply(ply) for ply in range(1, 6)]
    assert phases == [Phase.OPENING, Phase.OPENING, Phase.MIDDLEGAME, Phase.MIDDLEGAME,
                      Phase.ENDGAME]  # fmt: skip
    assert division.to_json() == {"middlegame": 3, "endgame": 5}  # first plies, from 1


def test_a_game_that_never_leaves_the_opening() -> None:
    division = divide_game([START, START, START])
    assert division == Division(None, None)
    assert division.to_json() == {"middlegame": None, "endgame": None}
    assert division.phase_of_ply(2) == Phase.OPENING


def test_an_endgame_reached_before_any_middlegame_has_none() -> None:
    assert divide_game([START, ENDGAME]) == Division(middlegame=None, endgame=1)


# White's view after each of 8 plies, from 0.00: Black drops three pawns at ply 2 (opening),
# White gives them back at ply 5 (middlegame, from ply 3), White drops a pawn at ply 7
# (endgame, from ply 7); every other move keeps the evaluation.
HAND_CPS = [0, 300, 300, 300, 0, 0, -100, -100]
HAND_DIVISION = Division(middlegame=2, endgame=6)
# By hand (docs/review.md): win percents 50, 75.1126 (+3.00), 40.8974 (-1.00). A drop of
# 25.1126 points: 103.1668 * exp(-0.0435442 * 25.1126) - 3.1669 + 1 = 32.398; of 9.1026:
# 67.240. 8 plies: windows of 2, so a move's weight is half its own change of win percent,
# within 0.5 and 12: 12 for the two drops of 25.11 (12.56 capped), 4.551 for the 9.10, 0.5 for
# the rest. White's middlegame, plies 3 (100, weight 0.5) and 5 (32.398, weight 12): weighted
# mean (50 + 388.78) / 12.5 = 35.102, harmonic mean 2 / (1/100 + 1/32.398) = 48.940, their
# mean 42.021. One move alone is its own accuracy.
HAND_EXPECTED = {
    WHITE: {Phase.OPENING: 100.0, Phase.MIDDLEGAME: 42.021, Phase.ENDGAME: 67.240},
    BLACK: {Phase.OPENING: 32.398, Phase.MIDDLEGAME: 100.0, Phase.ENDGAME: 100.0},
}


def test_the_accuracy_of_each_phase_worked_out_by_hand() -> None:
    evaluations = [Evaluation(cp=cp) for cp in HAND_CPS]
    got = phase_accuracy(evaluations, WHITE, Evaluation(cp=0), HAND_DIVISION)
    for color, phases in HAND_EXPECTED.items():
        for phase, expected in phases.items():
            assert got[color][phase] == pytest.approx(expected, abs=0.001), (color, phase)


def test_a_phase_without_a_move_of_a_side_has_no_accuracy() -> None:
    evaluations = [Evaluation(cp=0)] * 3
    got = phase_accuracy(evaluations, WHITE, Evaluation(cp=0), Division(2, None))
    assert got[WHITE][Phase.ENDGAME] is None and got[BLACK][Phase.ENDGAME] is None
    assert got[WHITE][Phase.MIDDLEGAME] == 100.0  # ply 3, White's
    assert got[BLACK][Phase.MIDDLEGAME] is None


def test_the_accuracy_so_far_is_the_game_cut_there() -> None:
    evaluations = [Evaluation(cp=cp) for cp in HAND_CPS]
    so_far = running_accuracy(evaluations, WHITE, Evaluation(cp=0))
    assert len(so_far) == 8
    assert so_far[0] == (100.0, None)  # one move, White's, that lost nothing
    assert so_far[1][1] == pytest.approx(32.398, abs=0.001)  # Black's drop, alone
    assert so_far[-1] == game_accuracy(evaluations, WHITE, Evaluation(cp=0))
    assert so_far[4][0] < so_far[3][0]  # White's drop at ply 5 lowers White's so far


def test_the_json_of_a_real_game() -> None:
    # 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.O-O Be7 5.Re1 O-O: White's first rank is a1 rook, b1
    # knight, c1 bishop, d1 queen, e1 rook, g1 king after 5.Re1 -- six; the middlegame waits.
    ucis = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8e7", "f1e1", "e8g8"]
    board, oracle, moves = Board(), chess.Board(), []
    for uci in ucis:
        moves.append(board.push_uci(uci))
        oracle.push_uci(uci)
    assert _pieces(oracle) == 14  # python-chess's count: far from the 10 of the material rule
    evals = [PositionEval(i, Evaluation(cp=30 if i % 2 else 20), (), 10, 1000) for i in range(11)]
    got = phases_to_json(evals, Board(), moves)
    assert got["phases"] == {"middlegame": None, "endgame": None}
    white, black = game_accuracy([e.evaluation for e in evals[1:]], WHITE, Evaluation(cp=20))
    assert got["phase_accuracy"]["white"] == {
        "opening": round(white, 1), "middlegame": None, "endgame": None
    }  # fmt: skip
    assert got["phase_accuracy"]["black"]["opening"] == round(black, 1)
    assert len(got["accuracy_so_far"]) == 10
    assert got["accuracy_so_far"][0] == {"white": 100.0, "black": None}
    assert got["accuracy_so_far"][-1] == {"white": round(white, 1), "black": round(black, 1)}


GAMES = Path(__file__).resolve().parent.parent / "bench" / "data" / "review_games.pgn"


def _pieces(board: chess.Board) -> int:
    kinds = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
    return sum(piece.piece_type in kinds for piece in board.piece_map().values())


def _on_first_rank(board: chess.Board, color: chess.Color) -> int:
    rank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    return chess.popcount(board.occupied_co[color] & rank)


def test_the_split_of_real_games_agrees_with_python_chess_counting() -> None:
    with GAMES.open(encoding="utf-8") as handle:
        games = [chess.pgn.read_game(handle) for _ in range(8)]
    for game in games:
        assert game is not None
        oracle, board = game.board(), Board()
        ours, theirs = [board.copy()], [oracle.copy()]
        for move in game.mainline_moves():
            board.push_uci(move.uci())
            oracle.push(move)
            ours.append(board.copy())
            theirs.append(oracle.copy())
        middle = next(
            (i for i, b in enumerate(theirs)
             if _pieces(b) <= 10 or min(_on_first_rank(b, c) for c in chess.COLORS) < 4),
            None,
        )  # fmt: skip
        end = next((i for i, b in enumerate(theirs) if _pieces(b) <= 6), None)
        if middle is not None and end is not None and middle >= end:
            middle = None
        assert divide_game(ours) == Division(middle, end), game.headers["White"]
