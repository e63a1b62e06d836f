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


def test_overlays_made_late_equal_those_made_at_once() -> None:
    """A state nobody gets overlays in makes its position's facts without them (the last move
    in words and the checked king only); a later receiver has them made then, from the
    position before when its overlays were made, from the board alone when they were not."""
    clear_caches()
    for seed in range(410, 414):
        game = play_random_game(seed, max_plies=90)
        replay = game.root()
        for ply, move in enumerate(game.move_stack, start=1):
            replay.push(move)
            # Watched now and then: every third position gets its overlays, some in a row.
            watched = ply % 3 == 0 or ply % 7 == 0
            bare = position_facts(replay, overlays=False)
            assert bare.threats is None and bare.insight is None
            alone = PositionFacts(replay)
            assert (bare.announcement, bare.checked_king) == (
                alone.announcement,
                alone.checked_king,
            )
            if watched:
                assert _wire(position_facts(replay), replay) == _wire(alone, replay)
