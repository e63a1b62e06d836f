"""Stockfish's two best lines of a position in the form chesscore.puzzles.verify judges: the
generator of the shipped set (tools/make_puzzles.py) and the puzzles made from a player's own
games (server.puzzles.own) read the engine the same way."""

from __future__ import annotations

from chesscore.puzzles.verify import EngineLine, Score
from chesscore.rules.board import Board
from server.engine.uci import Score as UciScore
from server.engine.uci import UciEngine


def as_score(score: UciScore | None) -> Score:
    """A UCI score (the side to move's view) as verify's `Score`; no score is 0."""
    if score is None:
        return Score()
    if score.mate is not None:
        return Score(0, score.mate)
    return Score(score.cp or 0)


def engine_lines(engine: UciEngine, board: Board, nodes: int, timeout: float) -> list[EngineLine]:
    """The engine's lines for `board` (two at most, as its MultiPV says), best first. The
    second is the last one said of another first move than the best's (an exact score before
    a bound): a search stopped by its budget may leave line 2's last exact score from an
    earlier depth, when its move may have been today's best."""
    engine.position(board.fen())
    result = engine.go(nodes=nodes, timeout=timeout)
    best = result.best_info(1)
    if best is None or not best.pv:
        return [EngineLine(result.bestmove, Score(), ())] if result.bestmove else []
    lines = [EngineLine(best.pv[0], as_score(best.score), best.pv)]
    others = [
        info
        for info in result.infos
        if info.multipv == 2 and info.pv and info.score and info.pv[0] != best.pv[0]
    ]
    exact = [info for info in others if info.score is not None and info.score.bound is None]
    if others:
        second = (exact or others)[-1]
        lines.append(EngineLine(second.pv[0], as_score(second.score), second.pv))
    return lines
