"""A review is read in its reader's language: the explanations kept as messages, said at read.

Against the real server on 127.0.0.1 with a real review (our own engine, depth-bound as
tests/test_server_review.py runs it): a French browser reads the blunder's explanation in
French over HTTP, in the socket's answer and in the live pushes (while an English watcher of
the same review gets English), and in the reviewed PGN it downloads; a review stored before
the explanations were kept as messages keeps its English text. Without a server: German
renderings of explanations of each kind, then every kind of tests/test_explain_kinds.py and
every recorded mistake of the shipped games in all five languages, fill every placeholder and
leave no English chess word behind.
"""

from __future__ import annotations

import io
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest
import requests
from babel.support import Translations

from bench.explain_claims import explain_ply
from chesscore.analysis.judgement import Evaluation, Judgement
from chesscore.words import ENGLISH, message_from_json, render
from server.review.said import say_pgn, say_review
from tests.support.game_client import GameClient
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_explain import explain_san
from tests.test_explain_kinds import CASES as KIND_CASES
from tests.test_server_review import random_pgn

TRANSLATIONS = str(Path(__file__).resolve().parent.parent / "translations")
FIXTURE = Path(__file__).parent / "data" / "explain_lines.json"
FAST = {
    "CHESS_REVIEW_SECONDS": "60",
    "CHESS_REVIEW_DEPTH": "3",
    "CHESS_COMPUTER_DELAY": "0.05",
    "CHESS_STOCKFISH": "none",
    "CHESS_ENGINE_WORKERS": "2",
}
server = module_server("i18n_review", FAST)

TIMEOUT = 60  # against hanging only
DONE_SECONDS = 400  # against hanging only: a loaded machine reviews slowly
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9"}
# 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#: Black's sixth ply walks into mate in one.
SCHOLARS_PGN = """[Event "Casual"]
[White "Anna"]
[Black "Ben"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"""
BLUNDER_PLY = 6
# What an English explanation says and a translated one must not.
ENGLISH_WORDS = re.compile(
    r"\b(loses|allows|walks into|Better was|attacked by|defended by|the (pawn|knight|bishop|"
    r"rook|queen|king)|forking|pinning|is a (blunder|mistake)|mate in)\b"
)


def catalog(lang: str) -> Translations:
    return Translations.load(TRANSLATIONS, [lang], domain="messages")


def wait_review(review_id: str, url: str) -> dict[str, Any]:
    """The review once done, read over HTTP in English."""
    deadline = time.monotonic() + DONE_SECONDS
    while True:
        response = requests.get(f"{url}/api/reviews/{review_id}", timeout=TIMEOUT)
        review: dict[str, Any] = response.json()
        assert review["status"] != "failed", review["error"]
        if review["status"] == "done":
            return review
        assert time.monotonic() < deadline, f"review {review_id} is still {review['status']}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def scholars(server: LiveServer) -> dict[str, Any]:
    response = requests.post(server.url + "/api/reviews", json={"pgn": SCHOLARS_PGN}, timeout=60)
    assert response.status_code in (200, 201), response.text
    return wait_review(response.json()["id"], server.url)


def explained(plies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [ply for ply in plies if ply.get("explanation")]


def assert_french(ply: dict[str, Any], english: dict[str, Any]) -> None:
    """`ply` says in French what `english` (the same ply read in English) says."""
    text, english_text = ply["explanation"]["text"], english["explanation"]["text"]
    words = message_from_json(english["explanation"]["words"])
    assert render(words, ENGLISH) == english_text
    assert text == render(words, catalog("fr")) != english_text
    assert not ENGLISH_WORDS.search(text), text
    assert ply["san"] in text  # the moves are the same in every language


def test_a_french_reader_gets_the_blunder_explained_in_french(
    server: LiveServer, scholars: dict[str, Any]
) -> None:
    english = scholars["plies"][BLUNDER_PLY - 1]
    assert "Qxf7#" in english["explanation"]["text"]
    assert "walks into mate in 1" in english["explanation"]["text"], english["explanation"]
    url = f"{server.url}/api/reviews/{scholars['id']}"
    french = requests.get(url, headers=FRENCH, timeout=TIMEOUT).json()
    blunder = french["plies"][BLUNDER_PLY - 1]
    assert_french(blunder, english)
    assert "tombe dans un mat en 1" in blunder["explanation"]["text"]
    assert "Qxf7#" in blunder["explanation"]["text"]
    # The rest of the review is the same, and the English reader still gets English.
    assert {**french, "plies": None} == {**scholars, "plies": None, "ok": True}
    assert requests.get(url, timeout=TIMEOUT).json()["plies"] == scholars["plies"]


def test_a_french_socket_watches_in_french(server: LiveServer, scholars: dict[str, Any]) -> None:
    client = GameClient(server.url, headers=FRENCH)
    try:
        reply = client.call("review_watch", {"id": scholars["id"]})
        assert reply["ok"], reply
        assert_french(reply["review"]["plies"][BLUNDER_PLY - 1], scholars["plies"][BLUNDER_PLY - 1])
    finally:
        client.close()


def test_the_reviewed_pgn_is_commented_in_the_readers_language(
    server: LiveServer, scholars: dict[str, Any]
) -> None:
    url = f"{server.url}/api/reviews/{scholars['id']}/pgn"
    english = requests.get(url, timeout=TIMEOUT).text
    french = requests.get(url, headers=FRENCH, timeout=TIMEOUT).text
    game = chess.pgn.read_game(io.StringIO(french))
    assert game is not None and not game.errors
    assert game.comment.startswith("Précision : Blancs "), game.comment
    nodes = list(game.mainline())
    blunder = nodes[BLUNDER_PLY - 1]
    said = render(message_from_json(scholars["plies"][BLUNDER_PLY - 1]["explanation"]["words"]))
    assert said in english and said not in french
    assert "tombe dans un mat en 1" in blunder.comment and "Qxf7#" in blunder.comment
    assert not ENGLISH_WORDS.search(blunder.comment), blunder.comment
    assert blunder.eval() is not None and blunder.nags == {chess.pgn.NAG_BLUNDER}


class Watcher(GameClient):
    """A connection that records every `review_update` it is sent."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.updates: list[dict[str, Any]] = []
        self.done = threading.Event()
        super().__init__(url, headers=headers)
        self.client.on("review_update", self._record)

    def _record(self, message: dict[str, Any]) -> None:
        self.updates.append(message)
        if message["status"] == "done":
            self.done.set()


@pytest.fixture
def watchers(server: LiveServer) -> Iterator[tuple[Watcher, Watcher]]:
    french, english = Watcher(server.url, FRENCH), Watcher(server.url)
    yield french, english
    french.close()
    english.close()


def test_the_pushes_come_in_each_watchers_language(
    server: LiveServer, watchers: tuple[Watcher, Watcher]
) -> None:
    """Two watchers of one running review, French and English: each push in its language."""
    french, english = watchers
    response = requests.post(
        server.url + "/api/reviews", json={"pgn": random_pgn(5, 16)}, timeout=60
    )
    assert response.status_code == 201, response.text
    review_id = response.json()["id"]
    for watcher in watchers:
        assert watcher.call("review_watch", {"id": review_id})["ok"]
    for watcher in watchers:
        assert watcher.done.wait(DONE_SECONDS), "the review never said it was done"
    french_plies = explained([ply for update in french.updates for ply in update["plies"]])
    english_plies = explained([ply for update in english.updates for ply in update["plies"]])
    assert french_plies and len(french_plies) == len(english_plies)
    for said, heard in zip(french_plies, english_plies, strict=True):
        assert said["ply"] == heard["ply"]
        assert_french(said, heard)


def test_a_review_stored_before_the_messages_keeps_its_english() -> None:
    """No `words`: the text stored is the text read, in every language and in the PGN."""
    ply = {"ply": 1, "san": "e4", "class": "mistake", "best": {"uci": "d2d4", "san": "d4"}}
    old = {"plies": [{**ply, "explanation": {"text": "e4? is a mistake.", "kinds": []}}]}
    assert say_review(old, catalog("de")) == old
    pgn = "1. e4 $2 { e4? is a mistake. Best: d4. [%eval 0.10] } *\n"
    assert say_pgn(pgn, old, catalog("de")) == pgn


# Explanations of each kind (tests/test_explain.py's positions and lines), said in German:
# (FEN, move, class, best line, its evaluation, reply line, the evaluation after the move).
EXPLAINED = [
    (
        "7k/4q3/8/6B1/8/8/2N5/K7 w - - 0 1", "Nd4", Judgement.BLUNDER,
        ["Bxe7"], Evaluation(cp=880), ["Qxg5"], Evaluation(cp=-310),
    ),  # a piece left hanging; a free piece not taken
    (
        "4k3/5p1p/8/8/1n6/8/7P/R2QK3 w - - 0 1", "Qh5", Judgement.BLUNDER,
        ["Qd2"], Evaluation(cp=180), ["Nc2+", "Kd1", "Nxa1"], Evaluation(cp=-250),
    ),  # a fork allowed
    (
        "r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", "Kd2", Judgement.MISTAKE,
        ["Nc7+", "Kd7", "Nxa8"], Evaluation(cp=310), [], None,
    ),  # a fork missed
    (
        "4r1k1/8/8/5p2/8/4N3/8/5K2 w - - 0 1", "Ke1", Judgement.MISTAKE,
        ["Kf2", "Kf7"], Evaluation(cp=-150), ["f4", "Kf2", "fxe3+", "Ke2"], Evaluation(cp=-450),
    ),  # a pin walked into
    (
        "4r1k1/8/8/4n3/8/8/3Q4/6K1 w - - 0 1", "Qe2", Judgement.BLUNDER,
        ["Qd4"], Evaluation(cp=-200), ["Nf3+", "Kf1", "Rxe2", "Kxe2"], Evaluation(cp=-900),
    ),  # a discovered attack allowed
    (
        "4r1k1/5ppp/8/8/8/1R6/3Q1PPP/6K1 w - - 0 1", "Qd5", Judgement.BLUNDER,
        ["h3"], Evaluation(cp=40), ["Re1#"], Evaluation(mate=-1),
    ),  # a back-rank mate allowed
    (
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3", "Qxe5+",
        Judgement.BLUNDER, ["Bc4"], Evaluation(cp=-23), ["Nxe5"], Evaluation(cp=-615),
    ),  # a losing capture
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "san", "judgement", "best", "best_eval", "reply", "played_eval"), EXPLAINED
)
def test_a_german_explanation_fills_every_placeholder(
    fen: str,
    san: str,
    judgement: Judgement,
    best: list[str],
    best_eval: Evaluation,
    reply: list[str],
    played_eval: Evaluation | None,
) -> None:
    explanation = explain_san(fen, san, judgement, best, best_eval, reply, played_eval)
    german = render(explanation.words, catalog("de"))
    assert "{" not in german and "}" not in german, german
    assert not ENGLISH_WORDS.search(german), german
    assert german != explanation.text and german.startswith(san)
    assert re.search(r"\b(Dame|Bauern?|Springer|Läufer|Turm|König|Matt)\b", german), german


@pytest.mark.parametrize("lang", ["fr", "de", "es", "pt", "sv"])
def test_the_line_kinds_are_said_whole_in_every_language(lang: str) -> None:
    """tests/test_explain_kinds.py's explanations (a trapped piece, a defender removed or
    overloaded, a back-rank mate, a promotion, a passed pawn, a fork down the line, king
    safety, activity...) in each language: every placeholder filled, no English left."""
    words = catalog(lang)
    for case in KIND_CASES:
        explanation = explain_san(
            case.fen, case.move, case.judgement, case.best, case.best_eval, case.reply,
            case.played_eval,
        )  # fmt: skip
        assert explanation.text == case.text
        said = render(explanation.words, words)
        assert "{" not in said and "}" not in said, said
        assert not ENGLISH_WORDS.search(said), (case.name, said)
        assert said.startswith(case.move) and said != case.text


def test_every_recorded_explanation_is_said_whole_in_every_language() -> None:
    """The explanations of every mistake and blunder of the shipped games with Stockfish's
    lines (tests/data/explain_lines.json, as tests/test_explain_claims.py reads it), in
    the five languages: every placeholder filled, no English left."""
    plies = json.loads(FIXTURE.read_text(encoding="utf-8"))["plies"]
    catalogs = [catalog(lang) for lang in ("fr", "de", "es", "pt", "sv")]
    for entry in plies:
        explanation = explain_ply(entry)
        for words in catalogs:
            said = render(explanation.words, words)
            assert "{" not in said and "}" not in said, said
            assert not ENGLISH_WORDS.search(said), said
    assert len(plies) > 100
