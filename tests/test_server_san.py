"""Typed SAN on the server: the `move` event and `POST /api/games/<id>/moves` take `san` as the
alternative to `uci`, read against the game's position by chesscore.

Each case starts a game from a known FEN against the real server on 127.0.0.1, sends the SAN
over a real Socket.IO connection or over HTTP, and checks the move played (against
python-chess, the test oracle) or, for a refusal, the error's code and words and that the game
did not change.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest
import requests

from tests.support.game_client import WAIT_SECONDS, FriendGame, api_state
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

CASTLING_FEN = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
PROMOTION_FEN = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"
TWO_KNIGHTS_FEN = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"  # Nb1 and Nf1 both reach d2
TWO_ROOKS_FEN = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"  # Ra1 and Rh1 both reach d1 and f1
PINNED_FEN = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1"  # the knight on e2 is pinned
KING_FEN = "8/8/8/3k4/5K2/8/8/7R w - - 0 1"  # e5 is next to the black king
CHECK_FEN = "4k3/8/8/4r3/8/8/8/3QK3 w - - 0 1"  # the rook on e5 checks
BC4_FEN = "rnbqkbnr/ppp1pppp/8/8/2p5/1P6/P1PPPPPP/RNBQKBNR w KQkq - 0 1"  # b3 takes c4


server = module_server("san")


def start(server: LiveServer, fen: str | None) -> FriendGame:
    return FriendGame(server.url, fen=fen) if fen else FriendGame(server.url)


def oracle_uci(fen: str | None, san: str) -> str:
    return chess.Board(fen or chess.STARTING_FEN).parse_san(san).uci()


# start FEN (None: the standard start), SAN as typed, the oracle's SAN for the same move
ACCEPTED = [
    (None, "e4", "e4"),
    (None, "Nf3", "Nf3"),
    (None, "Nf3+", "Nf3"),  # a wrong check mark does not change which move it is
    (CASTLING_FEN, "O-O", "O-O"),
    (CASTLING_FEN, "0-0", "O-O"),
    (CASTLING_FEN, "0-0-0", "O-O-O"),
    (PROMOTION_FEN, "e8=Q", "e8=Q"),
    (PROMOTION_FEN, "e8Q", "e8=Q"),
    (PROMOTION_FEN, "e8=N", "e8=N"),
    (TWO_ROOKS_FEN, "Rad1", "Rad1"),
    (TWO_KNIGHTS_FEN, "Nbd2", "Nbd2"),
    (BC4_FEN, "bc4", "bxc4"),  # lowercase pawn capture without the x, as lichess takes it
    (BC4_FEN, "bxc4", "bxc4"),
]


@pytest.mark.parametrize(("fen", "typed", "oracle_san"), ACCEPTED)
def test_san_is_played_over_socketio(
    server: LiveServer, fen: str | None, typed: str, oracle_san: str
) -> None:
    game = start(server, fen)
    try:
        reply = game.white.call("move", {"game": game.id, "ply": 0, "san": typed})
        assert reply["ok"], reply
        state = game.black.wait_version(reply["version"])
        assert state["moves"][-1]["uci"] == oracle_uci(fen, oracle_san)
    finally:
        game.close()


def test_san_is_played_over_http(server: LiveServer) -> None:
    game = start(server, CASTLING_FEN)
    try:
        response = post_move(server, game, {"ply": 0, "san": "0-0-0"})
        assert response.status_code == 200, response.text
        assert response.json()["state"]["last_move"] == {"uci": "e1c1", "san": "O-O-O"}
    finally:
        game.close()


# start FEN, SAN, error code, words the error must contain (a player's words: no FEN)
REFUSED: list[tuple[str | None, str, str, tuple[str, ...]]] = [
    (None, "e5", "illegal_move", ("e5 is not legal here: no pawn of yours can go to e5",)),
    (None, "Nd4", "illegal_move", ("Nd4 is not legal here: no knight of yours can reach d4",)),
    (CASTLING_FEN, "Kg1", "illegal_move", ("Kg1 is not legal here",)),  # castling is O-O only
    (PROMOTION_FEN, "e8=K", "bad_request", ("'e8=K'",)),
    (TWO_ROOKS_FEN, "Rd1", "ambiguous_move", ("Rd1 is ambiguous here: write Rad1 or Rhd1",)),
    (TWO_KNIGHTS_FEN, "Nd2", "ambiguous_move", ("Nd2 is ambiguous here: write Nbd2 or Nfd2",)),
    (TWO_KNIGHTS_FEN, "N1d2", "ambiguous_move", ("write Nbd2 or Nfd2",)),
    (TWO_KNIGHTS_FEN, "Ne2", "illegal_move", ("Ne2 is not legal here: no knight of yours",)),
    (None, "hello", "bad_request", ("'hello'",)),
    (None, "exd5", "illegal_move", ("exd5 is not legal here: there is nothing to take on d5",)),
    (PINNED_FEN, "Nc3", "illegal_move", ("Nc3 is not legal here: the king would be in check",)),
    (KING_FEN, "Ke5", "illegal_move", ("Ke5 is not legal here: the king would be in check",)),
    (CHECK_FEN, "Qd2", "illegal_move", ("the king is in check and this does not answer it",)),
]


@pytest.mark.parametrize(("fen", "typed", "code", "words"), REFUSED)
def test_refused_san_changes_nothing(
    server: LiveServer, fen: str | None, typed: str, code: str, words: tuple[str, ...]
) -> None:
    game = start(server, fen)
    try:
        before = api_state(server.url, game.id)
        reply = game.white.call("move", {"game": game.id, "ply": 0, "san": typed})
        assert reply["ok"] is False
        assert reply["code"] == code, reply
        for word in words:
            assert word in reply["error"], reply
        assert "/" not in reply["error"], reply  # never the FEN
        assert api_state(server.url, game.id) == before
    finally:
        game.close()


def test_ambiguous_san_over_http_is_409(server: LiveServer) -> None:
    game = start(server, TWO_ROOKS_FEN)
    try:
        response = post_move(server, game, {"ply": 0, "san": "Rf1"})
        assert response.status_code == 409
        assert response.json()["code"] == "ambiguous_move"
        assert "write Raf1 or Rhf1" in response.json()["error"]
    finally:
        game.close()


# fields besides game, the error code, words the error must contain
BAD_FIELDS: list[tuple[dict[str, Any], str, str]] = [
    ({"ply": 0, "san": "e4", "uci": "e2e4"}, "bad_request", "exactly one"),
    ({"ply": 0}, "bad_request", "exactly one"),
    ({"ply": 0, "san": 4}, "bad_request", "'san'"),
    ({"ply": 0, "san": "   "}, "bad_request", "'san'"),
    ({"ply": 0, "san": "N" * 50}, "bad_request", "'san'"),
    ({"ply": 1, "san": "e4"}, "future_ply", "future ply 1"),
]


@pytest.mark.parametrize(("fields", "code", "words"), BAD_FIELDS)
def test_bad_move_fields(server: LiveServer, fields: dict[str, Any], code: str, words: str) -> None:
    game = start(server, None)
    try:
        reply = game.white.call("move", {"game": game.id, **fields})
        assert reply["ok"] is False
        assert reply["code"] == code and words in reply["error"], reply
        assert api_state(server.url, game.id)["ply"] == 0
    finally:
        game.close()


def test_san_is_read_in_the_position_of_the_side_to_move(server: LiveServer) -> None:
    # "e5" is legal for black after e4, and refused to white, whose turn it is not.
    game = start(server, None)
    try:
        game.play("e2e4")
        refused = game.white.call("move", {"game": game.id, "ply": 1, "san": "e5"})
        assert refused["code"] == "not_your_turn", refused
        reply = game.black.call("move", {"game": game.id, "ply": 1, "san": "e5"})
        assert reply["ok"], reply
        assert game.white.wait_version(reply["version"])["last_move"] == {
            "uci": "e7e5",
            "san": "e5",
        }
    finally:
        game.close()


def test_preview_takes_uci_only(server: LiveServer) -> None:
    game = start(server, None)
    try:
        reply = game.white.call("preview", {"game": game.id, "ply": 0, "san": "e4"})
        assert reply["code"] == "bad_request" and "'san'" in reply["error"], reply
    finally:
        game.close()


def post_move(server: LiveServer, game: FriendGame, body: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{server.url}/api/games/{game.id}/moves",
        json=body,
        headers={"Authorization": f"Bearer {game.white_seat}"},
        timeout=WAIT_SECONDS,
    )
