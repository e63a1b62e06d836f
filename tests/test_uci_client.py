"""The UCI client (server.engine.uci) against the real npm Stockfish build under Node, and
against processes that never answer; the worker's warm engine (server.engine.stockfish)."""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import chess
import pytest

from server.engine.stockfish import (
    NPM_BUILD,
    StockfishSpec,
    choose_stockfish,
    node_command,
    worker_engine,
)
from server.engine.uci import (
    EngineTerminated,
    EngineTimeout,
    Info,
    Score,
    UciEngine,
    parse_info,
)

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None or not NPM_BUILD.is_file(), reason="node or the npm Stockfish build is missing"
)

MATE_IN_2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10"
# Black to move has lost its queen's defence: after 1.e4 e5 2.Qh5 the queen on h5 attacks e5.
QUEEN_HANGS = "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"


@pytest.fixture(scope="module")
def spec() -> StockfishSpec:
    chosen = choose_stockfish(None)
    assert chosen is not None
    return chosen


@pytest.fixture
def engine(spec: StockfishSpec) -> Iterator[UciEngine]:
    started = UciEngine.start(spec.command, spec.name)
    yield started
    started.close()


def test_the_handshake_names_the_engine(engine: UciEngine) -> None:
    assert engine.name.startswith("Stockfish")
    assert engine.alive


def test_a_search_by_nodes_gives_a_legal_move_and_scores(engine: UciEngine) -> None:
    engine.new_game()
    engine.position(QUEEN_HANGS)
    seen: list[Info] = []
    result = engine.go(nodes=50_000, timeout=120, on_info=seen.append)
    assert result.bestmove is not None
    assert chess.Move.from_uci(result.bestmove) in chess.Board(QUEEN_HANGS).legal_moves
    best = result.best_info()
    assert best is not None and best.score is not None and best.score.cp is not None
    assert list(result.infos) == seen  # each scored line went to the callback, in order
    depths = [info.depth for info in seen if info.depth is not None]
    assert depths == sorted(depths) and depths[-1] >= 5
    assert best.pv and best.pv[0] == result.bestmove


def test_a_mate_in_two_is_said_as_mate_2(engine: UciEngine) -> None:
    engine.position(MATE_IN_2)
    result = engine.go(depth=12, timeout=120)
    best = result.best_info()
    assert best is not None and best.score == Score(mate=2)
    assert result.bestmove == "d5f6"
    board = chess.Board(MATE_IN_2)  # the oracle: the line is a mate in two moves
    for uci in best.pv[:3]:
        board.push_uci(uci)
    assert board.is_checkmate()


def test_moves_after_a_fen_and_no_legal_move(engine: UciEngine) -> None:
    engine.position(None, ["f2f3", "e7e5", "g2g4", "d8h4"])  # fool's mate
    result = engine.go(depth=5, timeout=120)
    assert result.bestmove is None


def test_stop_ends_a_search_with_a_best_move(engine: UciEngine) -> None:
    engine.position(None)
    infos: list[Info] = []
    result = engine.go(depth=60, timeout=600, cancel=lambda: bool(infos), on_info=infos.append)
    assert result.stopped
    assert result.bestmove is not None
    assert engine.alive  # a stopped engine answers the next command
    engine.ping()


def test_a_search_past_its_bound_kills_the_engine(engine: UciEngine) -> None:
    engine.position(None)
    with pytest.raises(EngineTimeout, match="did not end its search"):
        engine.go(depth=60, timeout=0.5)
    assert engine.process.poll() is not None
    with pytest.raises(EngineTerminated):
        engine.ping()


def test_a_killed_engine_is_noticed_at_once(engine: UciEngine) -> None:
    engine.position(None)
    os.kill(engine.process.pid, signal.SIGKILL)
    with pytest.raises(EngineTerminated):
        engine.go(depth=60, timeout=600)  # not the 600 s bound: the end of its output


@pytest.mark.parametrize("command", [["cat"], ["sleep", "600"]])
def test_a_process_that_never_answers_is_killed(command: list[str]) -> None:
    with pytest.raises(EngineTimeout, match="did not answer 'uci'"):
        UciEngine.start(command, timeout=1.0)


def test_a_missing_program_is_an_error_naming_it() -> None:
    with pytest.raises(Exception, match="no-such-engine"):
        UciEngine.start(["/nonexistent/no-such-engine"])


def test_the_worker_engine_is_kept_warm_and_started_again_when_killed(
    spec: StockfishSpec,
) -> None:
    first = worker_engine(spec)
    assert worker_engine(spec) is first  # warm: the same process
    first.kill()
    second = worker_engine(spec)
    assert second is not first and second.alive
    second.position(None)
    assert second.go(nodes=1000, timeout=120).bestmove is not None
    second.close()


def test_the_setting_none_and_bad_paths_choose_our_own_engine() -> None:
    assert choose_stockfish("none") is None
    assert choose_stockfish("/nonexistent/stockfish") is None
    assert node_command(NPM_BUILD, None) is None  # no Node on PATH
    assert choose_stockfish(None, node_modules=Path("/nonexistent")) is None  # no `npm ci`
    served = choose_stockfish(None, node_modules=NPM_BUILD.parents[2])  # the app's NODE_MODULES
    assert served is not None and served.command[-1] == str(NPM_BUILD)
    assert node_command(Path("/nonexistent/stockfish.js"), "node") is None
    native = shutil.which("stockfish") or "/usr/games/stockfish"
    if os.access(native, os.X_OK):
        chosen = choose_stockfish(native)
        assert chosen is not None and chosen.name.startswith("Stockfish")


@pytest.mark.parametrize(
    ("line", "info"),
    [
        (
            "info depth 12 seldepth 17 multipv 2 score cp -31 upperbound nodes 9888 nps 16787 "
            "hashfull 2 time 589 pv e2e4 c7c5",
            Info(12, 17, 2, Score(cp=-31, bound="upper"), 9888, 16787, 589, ("e2e4", "c7c5")),
        ),
        (
            "info depth 3 score mate -1 lowerbound nodes 5",
            Info(3, None, 1, Score(mate=-1, bound="lower"), 5),
        ),
        ("info string NNUE evaluation using nn.nnue", Info()),
    ],
)
def test_info_lines_are_parsed(line: str, info: Info) -> None:
    assert parse_info(line) == info


def test_a_bad_info_line_is_an_error_quoting_it() -> None:
    with pytest.raises(ValueError, match="depth x"):
        parse_info("info depth x")
