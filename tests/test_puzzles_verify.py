"""The generator's verification (chesscore.puzzles.verify, driven by tools/make_puzzles.py's
Stockfish search) on known positions: a back-rank mate found and kept, a queen two pieces can
take refused as ambiguous, a queen given for a defended knight refused as a mere recapture,
a check with one answer refused, lichess's puzzle 0000D found with its forced recapture; and
the shipped set's short mates confirmed (a Stockfish fact behind their tags). Debian's
Stockfish runs them; without it they skip, or fail under CI=true. Then the rules' pure parts
(clearly better, a mistake) and the generator's helpers (the moves a weak player weighed,
puzzle ids)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from chesscore.puzzles import read_puzzles
from chesscore.puzzles.verify import (
    Rejected,
    Score,
    Verified,
    is_clearly_better,
    is_mistake,
    verify_puzzle,
    win_chance,
)
from chesscore.rules.board import Board
from server.engine.uci import Info, SearchResult
from server.engine.uci import Score as UciScore

ROOT = Path(__file__).resolve().parent.parent
STOCKFISH = shutil.which("stockfish") or "/usr/games/stockfish"
NODES = 60_000  # plenty for these short tactics; the generator's budget is VERIFY_NODES


def load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_puzzles", ROOT / "tools/make_puzzles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def search() -> Iterator[object]:
    if not os.access(STOCKFISH, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Stockfish is missing at {STOCKFISH} (install Debian's stockfish)")
        pytest.skip(f"Stockfish is missing at {STOCKFISH} (install Debian's stockfish)")
    generator = load_generator()
    engine = generator.start_engine((STOCKFISH,), {"MultiPV": 2})
    try:
        yield lambda board: generator.engine_lines(engine, board, NODES, generator.SEARCH_SECONDS)
    finally:
        engine.close()


def test_a_back_rank_mate_is_kept(search: object) -> None:
    verdict = verify_puzzle("2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "c8c2", search)  # type: ignore[arg-type]
    assert isinstance(verdict, Verified)
    assert verdict.moves == ("c8c2", "d1d8") and verdict.mate
    assert verdict.first[0].score.mate == 1


def test_lichess_0000d_is_found_with_its_forced_recapture(search: object) -> None:
    fen = "5rk1/1p3ppp/pq3b2/8/8/1P1Q1N2/P4PPP/3R2K1 w - - 2 27"
    verdict = verify_puzzle(fen, "d3d6", search)  # type: ignore[arg-type]
    assert isinstance(verdict, Verified), verdict
    # lichess's line, then the rook takes the bishop and the queen takes back: the gain is
    # measured after the opponent's best reply, so the line goes on until it stands.
    assert verdict.moves[:4] == ("d3d6", "f8d8", "d6d8", "f6d8")
    assert verdict.moves[4:] in ((), ("d1d8", "b6d8"))
    assert verdict.gain >= 4 and not verdict.mate


@pytest.mark.parametrize(
    ("fen", "setting_up", "reason"),
    [
        # The queen steps where both the rook and the knight take it: two answers.
        ("6k1/5ppp/8/q7/8/2N5/5PPP/3R2K1 b - - 0 1", "a5d5", "ambiguous"),
        # The queen takes a knight the e-pawn defends: taking back is no puzzle.
        ("r3k3/ppp2ppp/4p3/3n4/8/8/PPP2PPP/3QK3 w - - 0 1", "d1d5", "recapture"),
        # A queen check with one legal answer, which takes it.
        ("r6k/6pp/8/8/8/8/5PPP/3Q2K1 w - - 0 1", "d1d8", "single legal move"),
        # A quiet move that loses nothing: the other side wins nothing either.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "g1f1", "not winning"),
    ],
)
def test_what_is_not_a_puzzle_is_refused(
    search: object, fen: str, setting_up: str, reason: str
) -> None:
    assert verify_puzzle(fen, setting_up, search) == Rejected(reason)  # type: ignore[arg-type]


def test_clearly_better_means_1_5_pawns_in_win_chances() -> None:
    assert is_clearly_better(Score(300), Score(100))  # +3 against +1
    assert not is_clearly_better(Score(900), Score(600))  # both win: the second keeps the win
    assert not is_clearly_better(Score(250), Score(150))  # a pawn apart
    assert is_clearly_better(Score(0, 3), Score(2000))  # only one mates
    assert not is_clearly_better(Score(0, 2), Score(0, 4))  # two mates are two answers
    assert is_clearly_better(Score(500), None)  # a single legal move
    assert win_chance(150) == pytest.approx(0.2693, abs=1e-4)


def test_a_mistake_swings_a_game_not_yet_won() -> None:
    assert is_mistake(Score(20), Score(450), balance=0)
    assert is_mistake(Score(-400), Score(0, 2), balance=-3)  # lost, then a mate appears
    assert not is_mistake(Score(400), Score(900), balance=0)  # already won before
    assert not is_mistake(Score(0, 5), Score(0, 3), balance=0)  # was mating already
    assert not is_mistake(Score(0), Score(0, 2), balance=5)  # a piece up: many ways win
    assert not is_mistake(Score(100), Score(250), balance=0)  # too small a swing


def test_the_moves_a_weak_player_weighed_are_its_other_lines_at_its_depth() -> None:
    generator = load_generator()
    infos = tuple(
        Info(depth=depth, multipv=number, score=UciScore(cp=10), pv=(move, "e7e5"))
        for depth in (1, 2, 3)
        for number, move in enumerate(("e2e4", "d2d4", f"g1f{depth}" if depth < 3 else "c2c4"), 1)
    )
    result = SearchResult("d2d4", None, infos, False)
    # Skill 1 picks at depth 2: its lines there, less the move it played.
    assert generator.weighed_moves(result, 1, "d2d4") == ["e2e4", "g1f2"]
    assert generator.weighed_moves(result, 2, "e2e4") == ["d2d4", "c2c4"]


def test_a_generated_puzzles_id_is_stable_and_never_lichess_shaped() -> None:
    generator = load_generator()
    first = generator.puzzle_id("8/8/8/8/8/8/8/K6k w - - 0 1", ["a1a2", "h1h2"])
    assert first == generator.puzzle_id("8/8/8/8/8/8/8/K6k w - - 0 1", ["a1a2", "h1h2"])
    assert len(first) == 6 and first.isalnum()  # lichess's ids have 5 characters
    assert first != generator.puzzle_id("8/8/8/8/8/8/8/K6k w - - 0 1", ["a1b2", "h1h2"])


def test_stockfish_confirms_the_shipped_short_mates(search: object) -> None:
    """A Stockfish fact behind the mate tags: where the shipped set says mate in 1 or 2,
    Stockfish, from the solver's first position, mates in that many with the same move."""
    text = (ROOT / "chesscore" / "data" / "puzzles.csv").read_text(encoding="utf-8")
    mates = [p for p in read_puzzles(text.splitlines()) if {"mateIn1", "mateIn2"} & set(p.themes)]
    assert len(mates) >= 8
    for puzzle in mates[:8]:
        board = Board.from_fen(puzzle.fen)
        board.push_uci(puzzle.moves[0])
        best = search(board)[0]  # type: ignore[operator]
        assert best.move == puzzle.moves[1], puzzle
        assert best.score.mate == len(puzzle.moves) // 2, puzzle
