"""A position's facts as the server caches them (server.threats.cache): made from the facts of
the position before, kept from one move earlier, they equal the facts made from the board
alone, over seeded random games."""

from __future__ import annotations

from chesscore import Board
from server.threats.cache import PositionFacts, clear_caches, position_facts
from tests.random_games import play_random_game


def _wire(facts: PositionFacts, board: Board) -> tuple[str, str, str | None, str | None, str]:
    return (
        facts.threats.text,
        facts.insight.text,
        facts.announcement,
        facts.checked_king,
        facts.safety_of(board).text,
    )


def test_facts_made_from_the_position_before_equal_those_made_alone() -> None:
    clear_caches()
    for seed in range(400, 404):
        game = play_random_game(seed, max_plies=90)
        replay = game.root()
        position_facts(replay)
        for move in game.move_stack:
            replay.push(move)
            kept = position_facts(replay)  # the position before is cached: it was just made
            assert _wire(kept, replay) == _wire(PositionFacts(replay), replay)
