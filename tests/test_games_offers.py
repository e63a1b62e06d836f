"""server.games.offers' pure functions, without a server: offers, answers and takebacks as
`Change` values, refusals as `RequestError` codes."""

from __future__ import annotations

import pytest

from chesscore import BLACK, WHITE, Board, Termination
from server.games.offers import accept, decline, offer
from server.games.play import Game, GameSettings, new_game, resign
from tests.support.pure_games import NOW, played, refusal


def game_after(*ucis: str, opponent: str = "friend") -> Game:
    return played(new_game("g1", GameSettings(opponent, WHITE, Board().fen())), *ucis)


def test_a_draw_offer_waits_for_the_opponent_and_accepting_it_ends_the_game() -> None:
    game = game_after("e2e4")
    game.apply(offer(game, WHITE, "draw", NOW))
    assert game.header.offer_by("draw") == WHITE
    assert refusal(offer, game, WHITE, "draw", NOW) == "not_allowed"
    assert refusal(accept, game, WHITE, "draw", NOW) == "not_allowed"
    change = accept(game, BLACK, "draw", NOW)
    assert change.header.outcome is not None
    assert change.header.outcome.termination is Termination.AGREEMENT


def test_offering_what_the_opponent_offered_accepts_it() -> None:
    game = game_after("e2e4")
    game.apply(offer(game, WHITE, "draw", NOW))
    assert offer(game, BLACK, "draw", NOW).event["type"] == "accept"


def test_a_declined_offer_is_gone_and_nothing_else_changes() -> None:
    game = game_after("e2e4")
    game.apply(offer(game, BLACK, "draw", NOW))
    change = decline(game, WHITE, "draw")
    assert change.header.offer_by("draw") is None
    assert change.header.status == "playing" and change.board is None
    assert refusal(decline, game, BLACK, "draw") == "not_allowed"


@pytest.mark.parametrize(("offerer", "plies"), [(WHITE, 1), (BLACK, 2)])
def test_a_takeback_goes_back_to_the_offerer_s_turn(offerer: int, plies: int) -> None:
    """After 1. e4 e5 2. Nf3 it is black's turn: white takes back one ply (its Nf3), black two
    (Nf3 and its own e5); either way it is the offerer's turn again."""
    game = game_after("e2e4", "e7e5", "g1f3")
    game.apply(offer(game, offerer, "takeback", NOW))
    change = accept(game, 1 - offerer, "takeback", NOW)
    assert change.event["plies"] == plies
    assert change.keep_plies == 3 - plies
    assert change.board is not None and change.board.turn == offerer


def test_a_takeback_needs_a_move_to_take_back() -> None:
    assert refusal(offer, game_after(), WHITE, "takeback", NOW) == "not_allowed"


def test_the_computer_declines_draws_and_accepts_takebacks_at_once() -> None:
    game = game_after("e2e4", "e7e5", opponent="computer")
    assert refusal(offer, game, WHITE, "draw", NOW) == "not_allowed"
    change = offer(game, WHITE, "takeback", NOW)
    assert change.event["type"] == "accept" and change.keep_plies == 0


def test_a_rematch_only_after_the_game_and_its_acceptance_names_the_new_game() -> None:
    game = game_after("e2e4")
    assert refusal(offer, game, WHITE, "rematch", NOW) == "not_allowed"
    game.apply(resign(game, BLACK, NOW))
    game.apply(offer(game, WHITE, "rematch", NOW))
    change = accept(game, BLACK, "rematch", NOW, "g2")
    assert change.header.rematch == "g2"
    assert change.event == {"type": "accept", "by": "black", "kind": "rematch", "rematch": "g2"}
