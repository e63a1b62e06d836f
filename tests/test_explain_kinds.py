"""The kinds of explanation that read the engine's lines (chesscore.analysis.explain): each on
a hand-built position or a position of the review benchmark's games, with the lines Stockfish
15.1 gave there (one thread, 1,000,000 nodes; the benchmark's from
bench/data/review_oracle_lines.json), the sentence written out in full, and every fact it
states checked against python-chess by `check_facts` (the legality of every move of a line it
shows, passed pawns, trapped pieces, the only defenders, and every claim against the line it
cites). Then the same checks over random positions with random lines, long enough for
material to change hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess
import pytest

from chesscore import Board
from chesscore.analysis.explain import ClaimKind, Explanation, Kind, explain_move
from chesscore.analysis.judgement import Evaluation, Judgement
from chesscore.rules.squares import BLACK, WHITE
from tests.random_games import play_random_game
from tests.test_explain import check_facts, explain_san


@dataclass(frozen=True)
class Case:
    """A move and the engine's lines around it (SAN), and the explanation expected."""

    name: str
    fen: str
    move: str
    judgement: Judgement
    best: list[str]
    best_eval: Evaluation
    reply: list[str]
    played_eval: Evaluation
    text: str
    kinds: tuple[Kind, ...]


CASES = [
    # Bxa2?? b3: the bishop on a2 is attacked by the rook, and b1 and b3 are covered.
    Case(
        "a_piece_trapped_by_the_reply",
        "6k1/5ppp/4q3/3b4/8/8/PPP5/R1K5 b - - 0 1",
        "Bxa2",
        Judgement.BLUNDER,
        ["Qe1#"],
        Evaluation(mate=-1),
        ["b3", "Qe5", "Rxa2", "h5", "Ra3", "h4", "b4", "h3", "Rxh3", "Qe1+", "Kb2"],
        Evaluation(cp=-697),
        "Bxa2?? loses a bishop: it allows b3, trapping the bishop on a2, attacked with every "
        "square it can go to covered (b3 Qe5 Rxa2 h5 …). Better was Qe1#, with mate in 1.",
        (Kind.TRAPPED_PIECE, Kind.MATE_MISSED),
    ),
    # After Bxf6+ the bishop on d5 may not move (the king is in check): not "trapped"; the
    # reply took the only defender of the bishop, which Rxd5 then takes.
    Case(
        "a_check_is_not_a_trap",
        "8/5pkp/5n2/3b2B1/8/8/5PPP/3R2K1 b - - 0 1",
        "h6",
        Judgement.BLUNDER,
        ["Be6", "Bxf6+", "Kxf6", "Rd8", "h5", "f3"],
        Evaluation(cp=498),
        ["Bxf6+", "Kxf6", "Rxd5", "Ke6", "Ra5", "Kd6", "g4", "Kd7"],
        Evaluation(cp=740),
        "h6?? loses a knight: it allows Bxf6+, taking the knight on f6, the only defender of "
        "the bishop on d5 (Bxf6+ Kxf6 Rxd5). Better was Be6, which loses nothing: Be6 Bxf6+ "
        "Kxf6 (+5.0).",
        (Kind.DEFENDER_REMOVED, Kind.MATERIAL_KEPT),
    ),
    Case(
        "an_overloaded_defender",
        "6k1/5ppp/5n2/3b2B1/8/8/5PPP/3R2K1 b - - 0 1",
        "h6",
        Judgement.BLUNDER,
        ["Be6", "Bxf6", "gxf6", "Rd8+", "Kg7"],
        Evaluation(cp=150),
        ["Bxf6", "Bc4", "Be5", "Kh7", "f3", "Be6"],
        Evaluation(cp=513),
        "h6?? loses a knight: it allows Bxf6: the pawn on g7 is the only defender of both the "
        "knight on f6 and the pawn on h6, and both are attacked (Bxf6 Bc4). Better was Be6, "
        "which loses nothing: Be6 Bxf6 gxf6 (+1.5).",
        (Kind.OVERLOADED_DEFENDER, Kind.MATERIAL_KEPT),
    ),
    # Game 17 of the benchmark, 34. Qf1??
    Case(
        "a_back_rank_mate_allowed",
        "6k1/5pb1/p5pp/1p6/2Q1PP2/P7/NP4PP/3r2K1 w - - 0 34",
        "Qf1",
        Judgement.BLUNDER,
        ["Kf2", "bxc4", "e5", "Rd2+"],
        Evaluation(cp=-581),
        ["Bd4+", "Kh1", "Rxf1#"],
        Evaluation(mate=-2),
        "Qf1?? allows a back-rank mate in 2: Bd4+ Kh1 Rxf1#, the king on h1 shut in by its "
        "own pieces on g2 and h2. Better was Kf2 (-5.8).",
        (Kind.MATE_ALLOWED, Kind.BACK_RANK_MATE),
    ),
    Case(
        "a_promotion_allowed",
        "k7/8/8/8/8/5K2/2p2PPP/3R4 w - - 0 1",
        "Rd8+",
        Judgement.BLUNDER,
        ["Rc1", "Kb7", "Rxc2", "Kb8", "g4", "Kb7"],
        Evaluation(cp=1567),
        ["Kb7", "Rd4", "c1=Q", "Rf4", "Qc3+", "Kg4", "Qg7+", "Kf3"],
        Evaluation(cp=0),
        "Rd8+?? loses material: it lets the pawn on c2 promote (Kb7 Rd4 c1=Q). Better was "
        "Rc1, which wins a pawn: Rc1 Kb7 Rxc2 (+15.7).",
        (Kind.PROMOTION_ALLOWED, Kind.MATERIAL_MISSED),
    ),
    Case(
        "a_passed_pawn_let_through",
        "6k1/8/8/8/2p5/8/5PPP/1R4K1 w - - 0 1",
        "Rb7",
        Judgement.MISTAKE,
        ["Rc1", "Kf7", "h4", "c3", "g3", "c2", "Rxc2"],
        Evaluation(cp=907),
        ["c3", "Rc7", "c2", "Rxc2", "Kh7", "Rc4"],
        Evaluation(cp=1226),
        "Rb7? lets the passed pawn on c4 through to c2: c3 Rc7 c2. Better was Rc1 (+9.1).",
        (Kind.PASSED_PAWN,),
    ),
    # Game 7 of the benchmark, 11... Bd6??
    Case(
        "a_material_line_told_by_its_first_moves",
        "r1b2rk1/ppqnbNp1/2p2n1p/3Pp3/1PBP4/1QP5/P4PPP/RNB2RK1 b - - 0 11",
        "Bd6",
        Judgement.BLUNDER,
        ["cxd5", "Nxh6+", "gxh6", "Bxd5+", "Nxd5", "Qxd5+", "Rf7", "Bxh6", "exd4"],
        Evaluation(cp=-170),
        ["dxc6", "Rxf7", "Bxf7+", "Kh8", "cxd7", "Bxd7", "Qc4", "Qb8", "dxe5"],
        Evaluation(cp=491),
        "Bd6?? loses a rook: dxc6 Rxf7 Bxf7+ Kh8 … Better was cxd5, which wins a bishop for "
        "two pawns: cxd5 Nxh6+ gxh6 Bxd5+ … (-1.7).",
        (Kind.MATERIAL_LINE, Kind.MATERIAL_MISSED),
    ),
    # Game 3 of the benchmark, 28... Bxe4??: the pieces change hands until Rxe4.
    Case(
        "a_material_line_too_long_for_one_capture",
        "q5k1/3rb1pp/pp1p1n2/8/1PP1P3/P2RQ1PP/1B6/4R1Kb b - - 0 28",
        "Bxe4",
        Judgement.BLUNDER,
        ["Nxe4", "Kxh1", "Nf2+", "Kg1", "Nxd3", "Qe6+"],
        Evaluation(cp=128),
        ["Bxf6", "Bxf6", "Qxe4", "Qxe4", "Rxe4", "h5", "Re6", "Rc7"],
        Evaluation(cp=424),
        "Bxe4?? loses a knight for a pawn: Bxf6 Bxf6 Qxe4 Qxe4 … Better was Nxe4, which wins "
        "the exchange and a pawn: Nxe4 Kxh1 Nf2+ Kg1 … (+1.3).",
        (Kind.MATERIAL_LINE, Kind.MATERIAL_MISSED),
    ),
    # Kg4 e2 Rb2+ Ke3 Rxe2+ Kxe2 gives the rook for the pawn, but so does the best line.
    Case(
        "no_material_line_when_the_best_line_loses_as_much",
        "8/8/8/7K/1R6/4p3/3k4/8 w - - 0 1",
        "Kg4",
        Judgement.BLUNDER,
        ["Rb2+", "Kd1", "Rg2", "e2", "Rxe2", "Kxe2"],
        Evaluation(cp=0),
        ["e2", "Rb2+", "Ke3", "Rxe2+", "Kxe2", "Kf5"],
        Evaluation(cp=0),
        "Kg4?? is a blunder. Better was Rb2+ (0.0).",
        (),
    ),
    # Game 3 of the benchmark, 29. Rd2??: no material falls in Black's line.
    Case(
        "a_material_gain_missed_and_a_positional_loss",
        "q5k1/3rb1pp/pp1p1n2/8/1PP1b3/P2RQ1PP/1B6/4R1K1 w - - 0 29",
        "Rd2",
        Judgement.BLUNDER,
        ["Bxf6", "Bxf6", "Qxe4", "Qxe4", "Rxe4", "h5", "Re6", "Rc7"],
        Evaluation(cp=424),
        ["Bg6", "Bxf6", "Bxf6", "Qe6+", "Rf7", "Qe8+", "Rf8", "Qxa8", "Rxa8", "Rxd6"],
        Evaluation(cp=-163),
        "Rd2?? is a blunder. Better was Bxf6, which wins a knight: Bxf6 Bxf6 Qxe4 Qxe4 … (+4.2).",
        (Kind.MATERIAL_MISSED,),
    ),
    # Game 1 of the benchmark, 11. h4??: nothing falls within the line.
    Case(
        "a_positional_blunder_says_only_what_the_evaluation_did",
        "r2q1rk1/3b1ppp/p1p1pn2/2bp4/3N4/2P1PQ2/PP3PPP/RNB2RK1 w - - 4 11",
        "h4",
        Judgement.BLUNDER,
        ["Qd1", "e5", "Ne2", "Re8"],
        Evaluation(cp=-180),
        ["e5", "Nb3", "e4", "Qf4", "Ba7", "Qh2", "Bb8", "Qh1"],
        Evaluation(cp=-401),
        "h4?? is a blunder. Better was Qd1 (-1.8).",
        (),
    ),
]


def _explained(case: Case) -> Explanation:
    return explain_san(
        case.fen, case.move, case.judgement, case.best, case.best_eval, case.reply,
        case.played_eval,
    )  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_kind_on_its_position(case: Case) -> None:
    explanation = _explained(case)  # its facts checked against python-chess
    assert explanation.text == case.text
    assert explanation.kinds == case.kinds


def test_the_facts_the_kinds_state() -> None:
    explanations = {case.name: _explained(case) for case in CASES}
    explanation = explanations["a_piece_trapped_by_the_reply"]
    assert [fact.square for fact in explanation.trapped] == [0x10]
    explanation = explanations["a_check_is_not_a_trap"]
    assert explanation.defenders and not explanation.trapped
    explanation = explanations["an_overloaded_defender"]
    assert len(explanation.defenders) == 2
    explanation = explanations["a_back_rank_mate_allowed"]
    assert explanation.lines[0].mate
    explanation = explanations["a_material_line_told_by_its_first_moves"]
    # Black's rook (5) less the pawn and knight it took back in the line: down a rook;
    # the better line wins White a bishop (3) for two pawns.
    material = [claim for claim in explanation.claims if claim.kind == ClaimKind.MATERIAL]
    assert [(claim.color, claim.points) for claim in material] == [(BLACK, 5), (WHITE, 1)]


def _random_line(board: Board, rng: random.Random, length: int) -> list[chess.Move]:
    """A random line that prefers captures, so that material changes hands."""
    replay, line = board.copy(), []
    for _ in range(length):
        moves = sorted(replay.legal_moves(), key=lambda m: m.uci())
        if not moves:
            break
        captures = [m for m in moves if replay.board[m.to_square] or m.promotion]
        line.append(rng.choice(captures if captures and rng.random() < 0.7 else moves))
        replay.push(line[-1])
    return line


def test_every_fact_of_line_kinds_in_random_positions_holds() -> None:
    rng = random.Random(24)
    counts: dict[Kind, int] = {}
    for seed in range(25):
        game = play_random_game(seed + 1000, max_plies=rng.randrange(20, 90))
        board = game.root()
        for move in game.move_stack:
            board.push(move)
            legal = sorted(board.legal_moves(), key=lambda m: m.uci())
            if len(legal) < 2 or rng.random() < 0.7:
                continue
            played = rng.choice(legal)
            after = board.copy()
            after.push(played)
            best = _random_line(board, rng, rng.randrange(1, 12))
            reply = _random_line(after, rng, rng.randrange(0, 14))
            explanation = explain_move(
                board, played, Judgement.BLUNDER, best, Evaluation(cp=rng.randrange(-500, 500)),
                reply, Evaluation(cp=rng.randrange(-900, 900)),
            )  # fmt: skip
            check_facts(explanation)
            for kind in explanation.kinds:
                counts[kind] = counts.get(kind, 0) + 1
    # Random lines reach the line kinds often enough for their facts to be checked here.
    for kind in (Kind.MATERIAL_LINE, Kind.MATERIAL_MISSED, Kind.KING_SAFETY):
        assert counts.get(kind, 0) >= 10, counts
