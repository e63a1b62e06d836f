"""The trainer's JSON: a drill as handed out (never its answer) and a judged answer.

Squares are named here, as everywhere at the server's edge (server.threats.wire, whose
threat map and pin lines the judged answer carries for the page's overlay). Moves are UCI; a
missed or wrong move is named by its start and end squares ("e2e4").
"""

from __future__ import annotations

from typing import Any

from chesscore import Board, Move, square_name
from chesscore.rules.squares import COLOR_NAMES
from chesscore.training import Drill, PositionFacts, Verdict
from chesscore.training.drills import MOVE_KINDS
from chesscore.training.judging import MoveKey, PinPair
from server.threats.cache import checked_king
from server.threats.wire import (
    names,
    pin_lines_json,
    square_or_none,
    threats_json,
    xrays_json,
)


def drill_json(drill_id: str, drill: Drill, facts: PositionFacts, source: str) -> dict[str, Any]:
    """What the page needs to ask the question: the position and what the question points at,
    and, for the kinds answered with moves, the legal moves to pick them from (the rules are
    the server's; which moves are the answer is not said)."""
    board = facts.board
    body: dict[str, Any] = {
        "id": drill_id,
        "kind": drill.kind,
        "level": drill.level,
        "fen": drill.fen,
        "turn": COLOR_NAMES[board.turn],
        "question": drill.question,
        "source": source,
    }
    if drill.kind == "count" and drill.focus is not None:
        body["square"] = square_name(drill.focus)
        # Whether the question asks who wins the exchange (there is a piece to take there).
        body["asks_exchange"] = drill.exchange != "none"
    if drill.kind == "safe" and drill.focus is not None:
        body["piece"] = square_name(drill.focus)
    if drill.played is not None:
        after = board.copy()
        after.push(drill.played)
        body["move"] = drill.played.uci()
        body["after"] = after.fen()
    if drill.kind in MOVE_KINDS:
        body["dests"] = board.destinations()
    return body


def verdict_json(drill: Drill, verdict: Verdict, facts: PositionFacts) -> dict[str, Any]:
    """`correct`, `truth`, `missed`, `wrong`, `explanation`, and the position's `overlay`;
    for pins also the pinned pieces' `targets` and the pairs missed and named wrongly."""
    body = {
        "ok": True,
        "correct": verdict.correct,
        "truth": _truth(drill),
        "missed": names(verdict.missed) + _keys(verdict.missed_moves),
        "wrong": names(verdict.wrong) + _keys(verdict.wrong_moves),
        "explanation": verdict.explanation,
        "overlay": _overlay(facts),
    }
    if drill.kind == "pins":
        body["targets"] = _pairs(drill.pin_pairs)
        body["missed_targets"] = _pairs(verdict.missed_pairs)
        body["wrong_targets"] = _pairs(verdict.wrong_pairs)
    return body


def _pairs(pairs: tuple[PinPair, ...]) -> list[list[str]]:
    return [names(pair) for pair in pairs]


def _truth(drill: Drill) -> Any:
    if drill.kind in MOVE_KINDS:
        return [move.uci() for move in drill.moves]
    if drill.kind == "count":
        return {"white": drill.count[0], "black": drill.count[1], "exchange": drill.exchange}
    if drill.kind == "blunder":
        return drill.safe
    return names(drill.squares)


def _keys(keys: tuple[MoveKey, ...]) -> list[str]:
    return [Move(origin, target).uci() for origin, target in keys]


def _overlay(facts: PositionFacts) -> dict[str, Any]:
    board: Board = facts.board
    threats = facts.threats
    return {
        "threats": threats_json(threats),
        "xrays": xrays_json(facts.xrays),
        "pins": pin_lines_json(facts.pins),
        "checked_king": square_or_none(checked_king(board, board.turn, threats.checkers)),
    }


def blunder_drops(drill: Drill) -> list[str]:
    """What a blunder check's move drops (empty when it is safe)."""
    return names(drill.squares)
