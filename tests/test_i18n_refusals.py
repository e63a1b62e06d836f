"""chesscore's refusals in the player's language, on a real server (docs/i18n.md).

A FEN pasted into the analysis board (its HTTP API, and the board editor's socket event), a PGN
imported there and a move typed at the end of a path are refused with chesscore's words
translated for the request or the connection, the reason inside the refusal translated too;
a position no game can reach comes with its notice in the same language. The English refusal
is chesscore's own message, word for word.
"""

from __future__ import annotations

import pytest
import requests

from chesscore import Board, ChessError
from tests.support.game_client import GameClient
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server

pytestmark = pytest.mark.server

server = module_server("i18n_refusals")
TIMEOUT = 30
FRENCH = "fr-FR,fr;q=0.9,en;q=0.8"
GERMAN = "de-DE,de;q=0.9"
# The third rank from the top reads "p8": nine squares.
NINE_SQUARES = "rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
NO_WHITE_KING = "4k3/8/8/8/8/8/8/8 w - - 0 1"
# White's king on e1 checked by the knights on d3 and f3 at once: no move could give both
# checks, yet White has legal moves (analysis only, with the notice).
IMPOSSIBLE_CHECKS = "4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1"
ILLEGAL_KING_MOVE = '[Event "Blitz"]\n\n1. e4 e5 2. Ke3 Nf6 *'


def post_analysis(
    server: LiveServer, body: dict[str, object], language: str | None = None
) -> requests.Response:
    headers = {"Accept-Language": language} if language else {}
    return requests.post(server.url + "/api/analysis", json=body, headers=headers, timeout=TIMEOUT)


def english_of(fen: str) -> str:
    with pytest.raises(ChessError) as error:
        Board.from_fen(fen)
    return str(error.value)


def test_a_french_visitor_pasting_a_bad_fen_is_refused_in_french(server: LiveServer) -> None:
    said = refused(post_analysis(server, {"fen": NINE_SQUARES}, FRENCH), 400, "bad_fen")
    assert said == (
        f"FEN invalide '{NINE_SQUARES}' : champ « placement des pièces » "
        "'rnbqkbnr/pppppppp/8/8/8/p8/PPPPPPPP/RNBQKBNR' : la rangée 3 ('p8') compte 9 cases"
    )
    unplayable = refused(post_analysis(server, {"fen": NO_WHITE_KING}, FRENCH), 400, "bad_fen")
    assert unplayable == (
        f"position injouable '{NO_WHITE_KING}' : rois blancs : 0 (il en faut exactement un)"
    )
    english = refused(post_analysis(server, {"fen": NINE_SQUARES}), 400, "bad_fen")
    assert english == english_of(NINE_SQUARES)


def test_the_board_editors_fen_is_refused_in_its_connections_language(
    server: LiveServer,
) -> None:
    french = GameClient(server.url, headers={"Accept-Language": FRENCH})
    english = GameClient(server.url)
    try:
        reply = french.call("analysis_position", {"fen": NO_WHITE_KING, "moves": []})
        assert reply["ok"] is False and reply["code"] == "bad_fen", reply
        assert reply["error"].startswith("position injouable"), reply
        reply = english.call("analysis_position", {"fen": NO_WHITE_KING, "moves": []})
        assert reply["error"] == english_of(NO_WHITE_KING), reply
    finally:
        french.client.disconnect()
        english.client.disconnect()


def test_a_german_player_importing_an_illegal_move_reads_german_naming_the_move(
    server: LiveServer,
) -> None:
    said = refused(post_analysis(server, {"pgn": ILLEGAL_KING_MOVE}, GERMAN), 400, "bad_pgn")
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert said == f"Zeile 3: 2. 'Ke3': unzulässiger SAN-Zug 'Ke3' in '{fen}'"
    english = refused(post_analysis(server, {"pgn": ILLEGAL_KING_MOVE}), 400, "bad_pgn")
    assert english == f"line 3: 2. 'Ke3': illegal SAN 'Ke3' in '{fen}'"


def test_a_pgn_whose_fen_tag_is_no_position_is_refused_with_both_reasons_in_german(
    server: LiveServer,
) -> None:
    pgn = f'[FEN "{NO_WHITE_KING}"]\n\n1. Kd7 *'
    said = refused(post_analysis(server, {"pgn": pgn}, GERMAN), 400, "bad_pgn")
    assert said.startswith("Zeile 3: ungültiges FEN-Tag: das FEN-Tag"), said
    assert said.endswith("weiße Könige: 0 (es muss genau einer sein)"), said


def test_the_impossible_positions_notice_is_said_in_french(server: LiveServer) -> None:
    answer = post_analysis(server, {"fen": IMPOSSIBLE_CHECKS}, FRENCH)
    assert answer.status_code == 201, answer.text
    tree = answer.json()["tree"]
    assert tree["notice"].startswith("cette position ne peut pas survenir dans une partie")
    stored = requests.get(
        f"{server.url}/api/analysis/{tree['id']}",
        headers={"Accept-Language": FRENCH},
        timeout=TIMEOUT,
    ).json()["tree"]
    assert stored["notice"] == tree["notice"]
    english = requests.get(f"{server.url}/api/analysis/{tree['id']}", timeout=TIMEOUT).json()
    assert english["tree"]["notice"].startswith("this position cannot arise in a game")
    french = GameClient(server.url, headers={"Cookie": "lang=fr"})
    try:
        reply = french.call("analysis_position", {"fen": IMPOSSIBLE_CHECKS, "moves": []})
        assert reply["ok"] is True, reply
        assert reply["position"]["notice"] == tree["notice"]
    finally:
        french.client.disconnect()


def test_a_move_typed_at_the_end_of_a_path_is_refused_in_french(server: LiveServer) -> None:
    french = GameClient(server.url, headers={"Accept-Language": FRENCH})
    try:
        start = Board().fen()
        reply = french.call("analysis_position", {"fen": start, "moves": ["e2e4", "Ke6"]})
        assert reply["ok"] is False and reply["code"] == "illegal_move", reply
        assert reply["error"].startswith("coup 2 du chemin, 'Ke6' : coup SAN illégal 'Ke6'"), reply
    finally:
        french.client.disconnect()


def test_a_tree_imported_with_a_long_comment_is_refused_in_french_when_shared_again(
    server: LiveServer,
) -> None:
    """The page sends back the tree a PGN gave it: a comment longer than a tree may carry is
    refused, in the page's language."""
    pgn = "1. e4 {" + "a long note " * 200 + "} e5 *"
    imported = post_analysis(server, {"pgn": pgn, "store": False}, FRENCH)
    assert imported.status_code == 200, imported.text
    tree = imported.json()["tree"]
    said = refused(post_analysis(server, {"tree": tree}, FRENCH), 400, "bad_tree")
    assert said == "nœud 1 : le commentaire doit être un texte d'au plus 2000 caractères"


def test_a_new_game_from_a_bad_fen_is_refused_in_the_players_language(
    server: LiveServer,
) -> None:
    body = {"opponent": "friend", "color": "white", "fen": NO_WHITE_KING}
    french = requests.post(
        server.url + "/api/games", json=body, headers={"Accept-Language": FRENCH}, timeout=TIMEOUT
    )
    said = refused(french, 400, "bad_request")
    assert said == (
        f"champ « fen » : position injouable '{NO_WHITE_KING}' : "
        "rois blancs : 0 (il en faut exactement un)"
    )
    english = requests.post(server.url + "/api/games", json=body, timeout=TIMEOUT)
    assert refused(english, 400, "bad_request") == f"field 'fen': {english_of(NO_WHITE_KING)}"
