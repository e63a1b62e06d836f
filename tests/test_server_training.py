"""The threat trainer's API (server.training, docs/protocol.md "Threat trainer") on a real server.

A drill of every kind and level is handed out without its answer; an answer worked out by
python-chess is judged right and the drill cannot be answered again; unknown kinds, bad levels,
stale or guessed ids and malformed answers are refused with the API's error shape and change
nothing (the drill still takes a good answer). The pending store's bounds and expiry, the
per-address rate limit, and the finished games of the site (never one in play) are checked on
the real components in the test process, with a clock of the test's own.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import pytest
import requests

from chesscore.training import PositionFacts, make_drill
from chesscore.training.drills import KINDS
from server.accounts.hash_lanes import Lane
from server.app import create_app
from server.services import SERVICES
from server.shared.buckets import AddressBuckets, RateLimited
from server.shared.errors import RequestError
from server.training.pending import PendingDrills
from server.training.positions import SiteGames
from server.training.requests import AnswerRequest
from server.training.seen import SeenPositions
from server.training.service import BUSY, TrainingService
from tests.support.http import refused
from tests.support.in_process import IN_PROCESS
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_training_drills import oracle_pin_pairs
from tests.test_training_material import oracle_hanging

server = module_server("train_api")
TIMEOUT = 30
ANSWER_FIELDS = {"truth", "squares", "moves", "count", "safe", "missed", "wrong", "explanation"}
ANSWER_FIELDS |= {"targets", "pin_pairs", "exchange"}


def within_rate(send: Callable[[], requests.Response]) -> requests.Response:
    """`send`'s response, sent again after the Retry-After the rate limit asks for: this module
    asks more than the 60 requests at once an address may make (the limit has its own test)."""
    for _ in range(20):
        response = send()
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers["Retry-After"]))
    return response


def next_drill(url: str, kind: str, level: int | str = 1) -> dict[str, Any]:
    response = within_rate(
        lambda: requests.get(
            f"{url}/api/train/next", params={"kind": kind, "level": level}, timeout=TIMEOUT
        )
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True
    return dict(body["drill"])


def post_answer(url: str, body: Any) -> requests.Response:
    return within_rate(lambda: requests.post(f"{url}/api/train/answer", json=body, timeout=TIMEOUT))


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_and_level_is_handed_out_without_its_answer(
    server: LiveServer, kind: str
) -> None:
    for level in (1, 2, 3):
        drill = next_drill(server.url, kind, level)
        assert drill["kind"] == kind and drill["level"] in (1, 2, 3)
        assert not ANSWER_FIELDS & set(drill), drill
        assert len(drill["id"]) >= 22 and drill["question"]
        chess.Board(drill["fen"])  # a legal position
        assert ("square" in drill) == (kind == "count")
        assert ("piece" in drill) == (kind == "safe")
        assert ("move" in drill) == (kind == "blunder")
        assert ("dests" in drill) == (kind in ("checks", "captures", "threats", "fork"))


def test_a_right_answer_is_judged_once(server: LiveServer) -> None:
    drill = next_drill(server.url, "hanging", 2)
    truth = oracle_hanging(chess.Board(drill["fen"]))
    reply = post_answer(server.url, {"id": drill["id"], "answer": truth})
    body = reply.json()
    assert reply.status_code == 200 and body["ok"] is True, body
    assert body["correct"] is True and body["truth"] == truth
    assert body["missed"] == [] and body["wrong"] == [] and body["explanation"]
    assert set(body["overlay"]) == {"threats", "xrays", "pins", "checked_king"}
    again = post_answer(server.url, {"id": drill["id"], "answer": truth})
    refused(again, 404, "not_found", "answered already")


def test_a_wrong_answer_names_what_was_missed_and_wrong(server: LiveServer) -> None:
    drill = next_drill(server.url, "checks", 1)
    board = chess.Board(drill["fen"])
    checks = sorted({m.uci()[:4] for m in board.legal_moves if board.gives_check(m)})
    quiet = next(m.uci() for m in board.legal_moves if not board.gives_check(m))
    body = post_answer(server.url, {"id": drill["id"], "answer": [quiet]}).json()
    assert body["correct"] is False
    assert body["missed"] == checks and body["wrong"] == [quiet[:4]]


def test_a_count_and_a_blunder_check(server: LiveServer) -> None:
    drill = next_drill(server.url, "count", 2)
    board = chess.Board(drill["fen"])
    square = chess.parse_square(drill["square"])
    count = {
        "white": len(board.attackers(True, square)),
        "black": len(board.attackers(False, square)),
    }
    body = post_answer(server.url, {"id": drill["id"], "answer": count}).json()
    assert body["correct"] is True  # the exchange not given: the counts alone are judged
    assert body["truth"] == {**count, "exchange": body["truth"]["exchange"]}
    drill = next_drill(server.url, "blunder", 1)
    body = post_answer(server.url, {"id": drill["id"], "answer": True}).json()
    assert body["truth"] is (body["drops"] == []) and body["correct"] is body["truth"]


def pins_drill(url: str) -> tuple[dict[str, Any], list[list[str]]]:
    """A pins drill with at least one pin, and its (pinned, target) pairs by python-chess."""
    for _ in range(12):
        drill = next_drill(url, "pins", 3)
        pairs = [list(pair) for pair in oracle_pin_pairs(chess.Board(drill["fen"]))]
        if pairs:
            return drill, pairs
        assert post_answer(url, {"id": drill["id"], "answer": []}).json()["correct"] is True
    pytest.fail("no pinned piece in 12 drills of level 3")


def test_pins_are_answered_with_each_pinned_piece_and_its_target(server: LiveServer) -> None:
    drill, pairs = pins_drill(server.url)
    body = post_answer(server.url, {"id": drill["id"], "answer": pairs}).json()
    assert body["correct"] is True, body
    assert body["truth"] == sorted({pinned for pinned, _ in pairs})
    assert body["targets"] == pairs
    assert body["missed_targets"] == [] and body["wrong_targets"] == []
    for line in body["overlay"]["pins"]:  # the overlay's pin lines prove the pairs
        assert [line["pinned"], line["target"]] in pairs

    # The pinned pieces right, each named with a piece it is not pinned to.
    drill, pairs = pins_drill(server.url)
    named = {pinned: next(sq for sq in ("a1", "h8", "a8") if [pinned, sq] not in pairs
                          and sq != pinned) for pinned, _ in pairs}  # fmt: skip
    wrong = sorted([pinned, target] for pinned, target in named.items())
    body = post_answer(server.url, {"id": drill["id"], "answer": wrong}).json()
    assert body["correct"] is False and body["missed"] == [] and body["wrong"] == []
    assert body["missed_targets"] == pairs and body["wrong_targets"] == wrong

    # The pinned pieces alone, the first part of the question: judged as such.
    drill, pairs = pins_drill(server.url)
    pinned = sorted({pinned for pinned, _ in pairs})
    body = post_answer(server.url, {"id": drill["id"], "answer": pinned}).json()
    assert body["correct"] is True and body["targets"] == pairs
    assert body["missed_targets"] == []


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ([["c6"]], "a pin is [pinned, target], two squares"),
        ([["c6", "e8", "d8"]], "a pin is [pinned, target]"),
        ([["c6", 8]], "a pin is [pinned, target]"),
        ([["c6", "e8"], "d2"], "'answer' must be a list"),
        ([["c6", "z9"]], "'z9': neither a square"),
        ([["c6", "c6"]], "pins 'c6' to itself"),
        ([["a1", "a2"]] * 65, "more than 64 pins"),
        (["e2e4"], "a pins drill is answered with a list of square names or of [pinned, target]"),
        ({"white": 1, "black": 1}, "a pins drill is answered"),
    ],
)
def test_malformed_pins_change_nothing(server: LiveServer, answer: Any, words: str) -> None:
    drill = next_drill(server.url, "pins", 1)
    refused(
        post_answer(server.url, {"id": drill["id"], "answer": answer}), 400, "bad_request", words
    )
    pairs = [list(pair) for pair in oracle_pin_pairs(chess.Board(drill["fen"]))]
    assert post_answer(server.url, {"id": drill["id"], "answer": pairs}).json()["correct"] is True


def test_a_count_asks_who_wins_the_exchange_where_there_is_a_piece_to_take(
    server: LiveServer,
) -> None:
    asked = set()
    for _ in range(8):
        drill = next_drill(server.url, "count", 1)
        board = chess.Board(drill["fen"])
        square = chess.parse_square(drill["square"])
        takes = any(m.to_square == square and board.piece_at(square) for m in board.legal_moves)
        assert drill["asks_exchange"] is takes
        assert ("who wins the exchange" in drill["question"]) is takes
        asked.add(takes)
        count = {"white": len(board.attackers(True, square)),
                 "black": len(board.attackers(False, square))}  # fmt: skip
        body = post_answer(server.url, {"id": drill["id"], "answer": count}).json()
        assert body["correct"] is True and (body["truth"]["exchange"] != "none") is takes
    assert True in asked  # most count drills point at a piece to take


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"kind": "tactics", "level": 1}, "unknown drill kind 'tactics'"),
        ({"level": 1}, "unknown drill kind none"),
        ({"kind": "pins", "level": 4}, "'level' must be 1, 2 or 3, got '4'"),
        ({"kind": "pins", "level": "x"}, "got 'x'"),
        ({"kind": "pins", "level": ""}, "got ''"),
    ],
)
def test_bad_queries_are_refused(server: LiveServer, query: dict[str, Any], words: str) -> None:
    response = requests.get(f"{server.url}/api/train/next", params=query, timeout=TIMEOUT)
    refused(response, 400, "bad_request", words)


def test_stale_and_guessed_ids_are_refused(server: LiveServer) -> None:
    guessed = secrets.token_urlsafe(18)
    refused(post_answer(server.url, {"id": guessed, "answer": []}), 404, "not_found")
    refused(post_answer(server.url, {"id": "short", "answer": []}), 400, "bad_request", "'id'")


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        ("e4", "'answer' must be a list"),
        ([1, 2], "'answer' must be a list"),
        (["z9"], "'z9': neither a square nor a UCI move"),
        (["e2e4", "e4"], "'e4': neither"),
        ({"white": 1}, "a count is answered"),
        ({"white": -1, "black": 0}, "'answer.white' must be a whole number"),
        ({"white": True, "black": 0}, "'answer.white'"),
        ({"white": 1, "black": 0, "exchange": "draw"}, "'answer.exchange' must be one of"),
        (True, "a hanging drill is answered with a list of square names"),
        (["e2e4"], "a hanging drill is answered with a list of square names"),
        (["a1"] * 65, "more than 64 squares"),
    ],
)
def test_malformed_answers_change_nothing(server: LiveServer, answer: Any, words: str) -> None:
    drill = next_drill(server.url, "hanging", 1)
    refused(
        post_answer(server.url, {"id": drill["id"], "answer": answer}), 400, "bad_request", words
    )
    truth = oracle_hanging(chess.Board(drill["fen"]))
    assert post_answer(server.url, {"id": drill["id"], "answer": truth}).json()["correct"] is True


def test_malformed_bodies_are_refused(server: LiveServer) -> None:
    drill = next_drill(server.url, "pins", 1)
    url = f"{server.url}/api/train/answer"
    refused(
        requests.post(url, data="{", headers={"Content-Type": "application/json"}, timeout=TIMEOUT),
        400,
        "bad_request",
        "not valid JSON",
    )
    refused(requests.post(url, data="[]", timeout=TIMEOUT), 400, "bad_request", "must be JSON")
    refused(post_answer(server.url, {"id": drill["id"]}), 400, "bad_request", '{"id", "answer"}')
    refused(post_answer(server.url, {"id": drill["id"], "answer": [], "x": 1}), 400, "bad_request")


def test_the_page_is_served(server: LiveServer) -> None:
    response = requests.get(f"{server.url}/train", timeout=TIMEOUT)
    assert response.status_code == 200 and 'id="train"' in response.text


# The pending store and the rate limit, with the test's clock.


def a_drill() -> Any:
    facts = PositionFacts(chess.STARTING_FEN)
    return make_drill(facts, "captures", random.Random(0))


def test_pending_drills_are_answered_once_by_their_address_and_expire() -> None:
    now = [0.0]
    pending = PendingDrills(per_address=2, total=3, ttl=60, clock=lambda: now[0])
    drill = a_drill()
    first = pending.add(drill, "a")
    assert pending.take(first, "b") is None  # another address's drill is not found
    assert pending.take(first, "a") is drill and pending.take(first, "a") is None
    ids = [pending.add(drill, "a") for _ in range(3)]
    assert pending.take(ids[0], "a") is None  # the oldest went: two per address
    others = [pending.add(drill, address) for address in ("b", "c")]
    assert len(pending) == 3 and pending.take(ids[1], "a") is None  # three in all
    now[0] = 61
    assert pending.take(others[1], "c") is None and len(pending) == 0  # expired


def test_a_refused_check_keeps_the_drill() -> None:
    pending = PendingDrills()
    drill_id = pending.add(a_drill(), "a")

    def refuse(_: object) -> None:
        raise RequestError("bad_request", "wrong form")

    with pytest.raises(RequestError):
        pending.take(drill_id, "a", refuse)
    assert pending.take(drill_id, "a") is not None


def test_most_drills_have_something_to_find() -> None:
    """More than half the shipped positions have no pin and no fork: one request in five at
    most wants such a drill, at every level; a pin or fork at every level."""
    service = TrainingService(rng=random.Random(0), buckets=AddressBuckets(10**6, 0))
    for kind in ("pins", "hanging", "fork"):
        for level in (1, 2, 3):
            drills = [service.choose(kind, level)[0] for _ in range(30)]
            empty = sum(drill.finds_nothing for drill in drills)
            assert empty <= 12, (kind, level, empty)  # 6 expected: a bound with room
            found = [drill for drill in drills if drill.squares or drill.moves]
            assert any(drill.level == level for drill in found), (kind, level)
        assert all(
            drill.finds_nothing == (not drill.squares and not drill.moves) for drill in drills
        )


@pytest.mark.parametrize("kind", ["fork", "pins", "threats"])
def test_a_visitor_meets_no_position_twice_in_a_kind(server: LiveServer, kind: str) -> None:
    """The kinds whose drills are rare at a level, found again in the level's small pool."""
    fens = [next_drill(server.url, kind, 3)["fen"] for _ in range(10)]
    assert len(set(fens)) == 10, fens


def test_positions_repeat_for_no_visitor_while_others_are_left() -> None:
    service = TrainingService(rng=random.Random(3), buckets=AddressBuckets(10**9, 1e-6))
    for kind in ("fork", "hanging"):
        fens = [service.next_drill(kind, 3, "a").drill.fen for _ in range(40)]
        assert len(set(fens)) == 40, kind
    assert service.seen.of("b", "fork") == frozenset()  # another visitor's own


def test_seen_positions_are_bounded() -> None:
    seen = SeenPositions(per_kind=2, addresses=2)
    for fen in ("p1", "p2", "p3"):
        seen.add("a", "fork", fen)
    assert seen.of("a", "fork") == {"p2", "p3"} and seen.of("a", "pins") == frozenset()
    seen.add("b", "fork", "p1")
    seen.add("a", "pins", "p4")  # "a" asked last: "b" is forgotten first
    seen.add("c", "fork", "p1")
    assert seen.of("b", "fork") == frozenset() and seen.of("a", "pins") == {"p4"}


def test_requests_are_limited_per_address() -> None:
    now = [0.0]
    service = TrainingService(buckets=AddressBuckets(2, 10, clock=lambda: now[0]))
    service.next_drill("pins", 1, "a")
    service.next_drill("pins", 1, "a")
    with pytest.raises(RateLimited):
        service.next_drill("pins", 1, "a")
    service.next_drill("pins", 1, "b")  # another address has its own bucket
    now[0] = 10
    service.next_drill("pins", 1, "a")


def test_drills_are_made_and_judged_in_the_trainers_lane_and_busy_past_its_wait() -> None:
    """Every search and judging runs in the trainer's lane (one at a time, off the serving
    loop); while its one turn is held, the next request is told `busy` at once."""
    lane = Lane("trainer", threads=1, waiting=4, wait=0.0, busy=BUSY)
    service = TrainingService(rng=random.Random(5), buckets=AddressBuckets(10**6, 1e-6), lane=lane)
    given = service.next_drill("pins", 1, "a")
    assert lane.most_running == 1
    holding, release = threading.Event(), threading.Event()
    held = threading.Thread(target=lane.run, args=(lambda: holding.set() or release.wait(60),))
    held.start()
    assert holding.wait(60)
    with pytest.raises(RequestError) as refused_now:
        service.next_drill("pins", 1, "b")
    assert refused_now.value.code == "busy" and "trainer" in BUSY
    release.set()
    held.join(60)
    judged = service.answer(AnswerRequest(given.id, "none", frozenset()), "a")
    assert judged.drill == given.drill and lane.most_running == 1


# Games played here: their positions once they are over, never while they are played.


def test_finished_games_of_the_site_give_positions_and_games_in_play_none(tmp_path: Path) -> None:
    app = create_app({**IN_PROCESS, "INSTANCE_PATH": str(tmp_path / "instance")})
    client = app.test_client()
    created = client.post("/api/games", json={"opponent": "friend", "color": "white"}).json
    assert created is not None
    game = created["game"]
    invite = created["links"]["invite"].split("invite=", 1)[1]
    black = client.post(f"/api/games/{game}/join", json={"invite": invite}).json["seat"]
    seats = {0: created["seat"], 1: black}
    moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7"]
    for ply, uci in enumerate(moves):
        headers = {"Authorization": f"Bearer {seats[ply % 2]}"}
        reply = client.post(
            f"/api/games/{game}/moves", json={"ply": ply, "uci": uci}, headers=headers
        )
        assert reply.status_code == 200, reply.json
    site = SERVICES.of(app).training.site
    assert site.finished_ids(200) == [] and site.load(game) is None  # in play: not a source
    headers = {"Authorization": f"Bearer {seats[0]}"}
    reply = client.post(f"/api/games/{game}/actions", json={"action": "resign"}, headers=headers)
    assert reply.status_code == 200, reply.json
    picked = site.pick(random.Random(0))
    assert picked is not None and game in picked.source
    board = chess.Board()
    fens = []
    for uci in moves:
        fens.append(board.fen())
        board.push_uci(uci)
    assert picked.fen in fens[8:] and picked.played is not None


def test_the_finished_games_are_listed_again_once_a_minute() -> None:
    now = [0.0]
    asked: list[int] = []
    games = {
        "g1": (
            chess.STARTING_FEN,
            ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4"],
        )
    }

    def finished(limit: int) -> list[str]:
        asked.append(limit)
        return list(games)

    site = SiteGames(finished, games.get, clock=lambda: now[0])
    picked = site.pick(random.Random(0))
    assert picked is not None and picked.played is not None and picked.played.uci() == "d2d4"
    site.pick(random.Random(0))
    assert asked == [200]
    now[0] = 60
    site.pick(random.Random(0))
    assert asked == [200, 200]
