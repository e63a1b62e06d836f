"""server.games.messages, the state builder, without a server: what each role receives of
a game (docs/protocol.md, "The state"), built from plain `Game` values."""

from __future__ import annotations

import json

from chesscore import BLACK, WHITE, Board, Move
from server.edge.wire import dumps
from server.games.clock import ClockSettings
from server.games.messages import make_public_state, make_state, tailor_state
from server.games.play import Change, Game, GameSettings, make_move, new_game

NOW = 1000.0


def game_after(*ucis: str, assisted: bool = True, opponent: str = "friend") -> Game:
    settings = GameSettings(opponent, WHITE, Board().fen(), assisted=assisted)
    game = new_game("g1", settings)
    for uci in ucis:
        game.apply(make_move(game, game.board.turn, game.ply, Move.from_uci(uci), NOW))
    return game


def as_json(state: dict[str, object]) -> dict[str, object]:
    """The state as a client reads it (the move list and facts are spliced-in JSON text)."""
    decoded: dict[str, object] = json.loads(dumps(state))
    return decoded


def test_only_the_seat_to_move_gets_the_legal_moves() -> None:
    game = game_after("e2e4")
    public = make_public_state(game, NOW)
    to_move = tailor_state(public, game, BLACK)
    assert to_move["dests"] is not None and "e7" in to_move["dests"]
    assert to_move["safety"] is not None
    for role in (WHITE, None):
        state = tailor_state(public, game, role)
        assert (state["dests"], state["promotions"], state["safety"]) == (None, None, None)


def test_the_public_state_names_the_position_and_the_moves() -> None:
    state = as_json(make_state(game_after("e2e4", "e7e5"), None, NOW))
    assert state["ply"] == 2 and state["version"] == 2 and state["turn"] == "white"
    assert state["moves"] == [{"uci": "e2e4", "san": "e4"}, {"uci": "e7e5", "san": "e5"}]
    assert state["last_move"] == {"uci": "e7e5", "san": "e5"}
    assert state["fen"] == game_after("e2e4", "e7e5").board.fen()
    assert state["players"] == {
        "white": {
            "kind": "human",
            "seated": True,
            "name": None,
            "connected": False,
            "rating": None,
        },
        "black": {
            "kind": "human",
            "seated": False,
            "name": None,
            "connected": False,
            "rating": None,
        },
    }


def test_players_of_an_unassisted_game_get_no_overlays_but_spectators_do() -> None:
    game = game_after("e2e4", assisted=False)
    public = make_public_state(game, NOW)
    for role in (WHITE, BLACK):
        state = tailor_state(public, game, role)
        assert (state["threats"], state["insight"], state["safety"]) == (None, None, None)
    assert tailor_state(public, game, BLACK)["dests"] is not None
    assert tailor_state(public, game, None)["threats"] is not None


def test_the_computer_s_seat_gets_no_legal_moves() -> None:
    game = game_after(opponent="computer")  # the creator is white: the computer is black
    game.apply(make_move(game, WHITE, 0, Move.from_uci("e2e4"), NOW))
    assert tailor_state(make_public_state(game, NOW), game, BLACK)["dests"] is None


def test_a_check_names_the_checked_king() -> None:
    state = make_state(game_after("e2e4", "f7f6", "d1h5"), None, NOW)
    assert state["check"] is True and state["checked_king"] == "e8"


def test_the_clock_runs_for_the_side_to_move_once_both_have_moved() -> None:
    settings = GameSettings("friend", WHITE, Board().fen(), ClockSettings(60_000, 0))
    game = new_game("g1", settings)
    game.apply(make_move(game, WHITE, 0, Move.from_uci("e2e4"), NOW))
    assert make_public_state(game, NOW + 5)["clock"]["running"] is None
    game.apply(make_move(game, BLACK, 1, Move.from_uci("e7e5"), NOW))
    clock = make_public_state(game, NOW + 5)["clock"]
    assert clock["running"] == "white" and clock["initial_ms"] == 60_000
    assert clock["white_ms"] == 55_000 and clock["black_ms"] == 60_000


def test_the_move_list_is_written_again_after_a_takeback() -> None:
    """The move list's text is kept with the game and extended move by move; a takeback that
    drops moves and plays others to the same length sends the new ones."""
    game = game_after()
    for uci in ("e2e4", "e7e5", "g1f3"):
        game.apply(make_move(game, game.board.turn, game.ply, Move.from_uci(uci), NOW))
        make_public_state(game, NOW)
    board = Board()
    for uci in ("e2e4", "e7e5"):
        board.push(Move.from_uci(uci))
    game.apply(Change({"type": "takeback"}, game.header, board, keep_plies=2))
    game.apply(make_move(game, WHITE, 2, Move.from_uci("b1c3"), NOW))
    sent = json.loads(dumps(make_public_state(game, NOW)))["moves"]
    assert [record["uci"] for record in sent] == ["e2e4", "e7e5", "b1c3"]
    assert sent == json.loads(dumps(make_public_state(game, NOW)))["moves"]
