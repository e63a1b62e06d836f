"""server.games.play's pure actions, without a server: each returns a `Change` and mutates
nothing, and each refusal is a `RequestError` with its code."""

from __future__ import annotations

import copy

import pytest

from chesscore import BLACK, WHITE, Board, Move, Termination
from server.games.play import (
    Game,
    GameSettings,
    abandon,
    abort,
    claim_draw,
    make_move,
    new_game,
    read_san,
    resign,
)
from tests.support.pure_games import NOW, played, refusal

START = Board().fen()


def friend_game(fen: str = START) -> Game:
    return new_game("g1", GameSettings("friend", WHITE, fen))


def test_a_move_is_a_change_and_the_game_is_untouched_until_applied() -> None:
    game = friend_game()
    before = copy.deepcopy((game.board.fen(), game.moves, game.header, game.version))
    change = make_move(game, WHITE, 0, Move.from_uci("e2e4"), NOW)
    assert (game.board.fen(), game.moves, game.header, game.version) == before
    assert change.event == {"type": "move", "by": "white", "ply": 0, "uci": "e2e4", "san": "e4"}
    game.apply(change)
    assert (game.ply, game.version, game.board.turn) == (1, 1, BLACK)


@pytest.mark.parametrize(
    ("color", "ply", "uci", "code"),
    [
        (BLACK, 0, "e7e5", "not_your_turn"),
        (WHITE, 1, "e2e4", "future_ply"),
        (WHITE, 0, "e2e5", "illegal_move"),
    ],
)
def test_a_refused_move_names_why(color: int, ply: int, uci: str, code: str) -> None:
    assert refusal(make_move, friend_game(), color, ply, Move.from_uci(uci), NOW) == code


def test_a_stale_ply_is_refused() -> None:
    game = played(friend_game(), "e2e4")
    assert refusal(make_move, game, BLACK, 0, Move.from_uci("e7e5"), NOW) == "stale_ply"


def test_san_is_read_in_the_game_position() -> None:
    game = friend_game()
    assert read_san(game, WHITE, 0, "Nf3") == Move.from_uci("g1f3")
    assert refusal(read_san, game, WHITE, 0, "Nd2") == "illegal_move"


def test_mate_finishes_the_game() -> None:
    game = played(friend_game(), "f2f3", "e7e5", "g2g4")
    change = make_move(game, BLACK, 3, Move.from_uci("d8h4"), NOW)
    assert change.header.status == "finished"
    assert change.header.outcome is not None
    assert change.header.outcome.termination is Termination.CHECKMATE
    assert change.event["outcome"]["winner"] == "black"


def test_resign_abort_and_their_refusals() -> None:
    game = friend_game()
    change = resign(game, WHITE, NOW)
    assert change.header.outcome is not None and change.header.outcome.winner == BLACK
    assert abort(game, BLACK, NOW).header.status == "aborted"
    game.apply(change)
    assert refusal(resign, game, BLACK, NOW) == "game_over"
    assert refusal(abort, played(friend_game(), "e2e4", "e7e5"), WHITE, NOW) == "not_allowed"


def test_a_draw_is_claimed_only_on_a_repetition() -> None:
    game = friend_game()
    assert refusal(claim_draw, game, WHITE, NOW) == "not_allowed"
    played(game, "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
    assert refusal(claim_draw, game, BLACK, NOW) == "not_your_turn"
    outcome = claim_draw(game, WHITE, NOW).header.outcome
    assert outcome is not None and outcome.termination is Termination.THREEFOLD_REPETITION


def test_a_start_position_already_over_is_refused() -> None:
    assert refusal(friend_game, "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1") == "bad_request"


def test_an_untimed_game_is_abandoned_with_no_result() -> None:
    change = abandon(friend_game().header)
    assert (change.header.status, change.header.outcome) == ("aborted", None)
    assert change.event == {"type": "abandon"}
