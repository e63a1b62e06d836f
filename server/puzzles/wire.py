"""The puzzles' JSON: a puzzle in lichess's database form, a result, the themes, a dashboard.

A puzzle is `{"id", "fen", "moves", "rating", "themes", "source"}` (docs/puzzles.md): `fen`
the position before the opponent's setting-up move, `moves` the UCI line from it (that move
first), `rating` the puzzle's rating now, rounded; `mine` says whether it is one of the
solver's own (a mistake of theirs found by a review).
"""

from __future__ import annotations

from typing import Any

from chesscore.puzzles import THEMES
from chesscore.ratings import PlayerRating
from chesscore.words import ENGLISH, Translator
from server.puzzles.tables import Attempt, StoredPuzzle, ThemeTally


def puzzle_json(puzzle: StoredPuzzle) -> dict[str, Any]:
    return {
        "id": puzzle.id,
        "fen": puzzle.fen,
        "moves": list(puzzle.moves),
        "rating": round(puzzle.rating),
        "themes": list(puzzle.themes),
        "source": puzzle.source,
        "mine": puzzle.owner_id is not None,
    }


def result_json(attempt: Attempt) -> dict[str, Any]:
    """`counted`: whether this was the solver's first result on the puzzle (the only one
    that moves the ratings); `solver`: the whole rating after it, which a visitor without an
    account keeps in the browser."""
    return {
        "ok": True,
        "counted": attempt.counted,
        "rating": {"before": round(attempt.solver_before), "after": round(attempt.solver_after)},
        "puzzle": {"rating": round(attempt.puzzle_rating)},
        "solver": glicko_json(attempt.solver),
    }


def glicko_json(rating: PlayerRating) -> dict[str, float]:
    glicko = rating.glicko
    return {
        "rating": round(glicko.rating, 2),
        "deviation": round(glicko.deviation, 2),
        "volatility": round(glicko.volatility, 6),
    }


def themes_json(total: int, counts: dict[str, int], words: Translator = ENGLISH) -> dict[str, Any]:
    themes = [
        {"key": key, "name": words.gettext(name), "count": counts.get(key, 0)}
        for key, name in THEMES.items()
    ]
    return {"ok": True, "total": total, "themes": themes}


def dashboard_json(
    rating: PlayerRating, tallies: list[ThemeTally], words: Translator = ENGLISH
) -> dict[str, Any]:
    return {
        "ok": True,
        "rating": round(rating.glicko.rating),
        "deviation": round(rating.glicko.deviation),
        "themes": [
            {"key": t.theme, "name": words.gettext(THEMES.get(t.theme, t.theme)), "wins": t.wins,
             "losses": t.losses}
            for t in tallies
        ],
    }  # fmt: skip
