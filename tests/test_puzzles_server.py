"""The puzzles' API (server.puzzles, docs/puzzles.md) on a real server, and the import command.

The shipped set is in the table at start, counted by theme; `next` gives a puzzle in
lichess's form near the rating asked, of the theme asked, never one of the ids excluded; a
result moves the puzzle's rating once per solver (a second result of the same address
changes nothing); the lesson of a step names the solution's move and carries the overlay;
unknown themes, bad bodies and unknown ids are refused with the API's shape.
`python -m server.puzzles import FILE` reads a hand-written CSV in lichess's format: the good
rows added with their themes mapped, the bad and duplicate ones skipped and counted, and a
second import adds nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import chess
import pytest
import requests

from chesscore.puzzles import THEMES, read_puzzles
from server.puzzles.service import SHIPPED
from server.puzzles.tables import PuzzleTables
from server.storage.sqlite import SqliteDatabase
from server.tables import build_tables
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_server_accounts import Visitor, new_name

server = module_server("puzzles_api", {"CHESS_TRUSTED_PROXIES": "1"})
TIMEOUT = 30
ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "lichess_puzzles.csv"


def get(url: str, params: dict[str, str] | None = None) -> requests.Response:
    return requests.get(url, params=params, timeout=TIMEOUT)


def shipped() -> list[Any]:
    return list(read_puzzles(SHIPPED.read_text(encoding="utf-8").splitlines()))


def test_the_shipped_set_is_loaded_and_counted_by_theme(server: LiveServer) -> None:
    body = get(f"{server.url}/api/puzzles/themes").json()
    puzzles = shipped()
    assert body["ok"] is True and body["total"] == len(puzzles) >= 2000
    counts = {theme["key"]: theme["count"] for theme in body["themes"]}
    assert list(counts) == list(THEMES)
    for key in THEMES:
        assert counts[key] == sum(key in puzzle.themes for puzzle in puzzles)


def test_next_is_lichess_form_near_the_rating_of_the_theme(server: LiveServer) -> None:
    body = get(f"{server.url}/api/puzzles/next", {"theme": "fork", "rating": "1700"}).json()
    puzzle = body["puzzle"]
    assert set(puzzle) >= {"id", "fen", "moves", "rating", "themes", "source"}
    assert "fork" in puzzle["themes"]
    board = chess.Board(puzzle["fen"])
    for uci in puzzle["moves"]:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves
        board.push(move)
    ratings = sorted(abs(p.rating - 1700) for p in shipped() if "fork" in p.themes)
    assert abs(puzzle["rating"] - 1700) <= ratings[8]  # one of the nearest


def test_next_leaves_out_the_excluded_ids(server: LiveServer) -> None:
    first = get(f"{server.url}/api/puzzles/next", {"rating": "2400"}).json()["puzzle"]
    excluded = [first["id"]]
    for _ in range(6):
        params = {"rating": "2400", "exclude": ",".join(excluded)}
        found = get(f"{server.url}/api/puzzles/next", params).json()["puzzle"]
        assert found["id"] not in excluded
        excluded.append(found["id"])


def test_a_result_counts_once_per_solver(server: LiveServer) -> None:
    puzzle = get(f"{server.url}/api/puzzles/next", {"rating": "1100"}).json()["puzzle"]
    url = f"{server.url}/api/puzzles/{puzzle['id']}"
    before = get(url).json()["puzzle"]["rating"]
    first = requests.post(f"{url}/result", json={"win": False}, timeout=TIMEOUT).json()
    assert first["counted"] is True and first["rating"]["after"] < first["rating"]["before"]
    assert first["puzzle"]["rating"] > before  # the puzzle won
    again = requests.post(f"{url}/result", json={"win": True}, timeout=TIMEOUT).json()
    assert again["counted"] is False
    assert (
        again["puzzle"]["rating"]
        == first["puzzle"]["rating"]
        == get(url).json()["puzzle"]["rating"]
    )


def test_an_accounts_result_is_stored_once_and_tallied_by_theme(server: LiveServer) -> None:
    player = Visitor(server.url)
    player.signup(new_name())
    puzzle = player.get("/api/puzzles/next").json()["puzzle"]
    url = f"/api/puzzles/{puzzle['id']}"
    first = player.post(f"{url}/result", {"win": True}).json()
    assert first["counted"] is True and first["rating"] == {
        "before": 1500,
        "after": first["rating"]["after"],
    }
    assert first["rating"]["after"] > 1500
    again = player.post(f"{url}/result", {"win": False}).json()
    assert again["counted"] is False and again["rating"]["before"] == first["rating"]["after"]
    dashboard = player.get("/api/puzzles/dashboard").json()
    assert dashboard["rating"] == first["rating"]["after"]
    tallies = {theme["key"]: (theme["wins"], theme["losses"]) for theme in dashboard["themes"]}
    assert tallies == {key: (1, 0) for key in puzzle["themes"]}
    # The account's next puzzles never repeat the one done, and start near its new rating.
    for _ in range(5):
        assert player.get("/api/puzzles/next").json()["puzzle"]["id"] != puzzle["id"]
    refused(Visitor(server.url).get("/api/puzzles/dashboard"), 400, "bad_request", "sign in")


def test_a_visitors_rating_is_the_one_it_sends(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    puzzle = visitor.get("/api/puzzles/next").json()["puzzle"]
    solver = {"rating": 1900.0, "deviation": 80.0, "volatility": 0.06}
    body = visitor.post(f"/api/puzzles/{puzzle['id']}/result", {"win": False, "solver": solver})
    answer = body.json()
    assert answer["rating"]["before"] == 1900 and answer["rating"]["after"] < 1900
    assert answer["solver"]["rating"] == pytest.approx(answer["rating"]["after"], abs=0.5)


def test_the_lesson_names_the_solution_and_carries_the_overlay(server: LiveServer) -> None:
    puzzle = get(f"{server.url}/api/puzzles/next", {"theme": "mateIn1"}).json()["puzzle"]
    lesson = get(f"{server.url}/api/puzzles/{puzzle['id']}/lesson", {"step": "0"}).json()["lesson"]
    board = chess.Board(puzzle["fen"])
    board.push_uci(puzzle["moves"][0])
    assert lesson["fen"].split()[:4] == board.fen().split()[:4]
    solution = chess.Move.from_uci(puzzle["moves"][1])
    assert lesson["san"] == board.san(solution) and lesson["piece"] == puzzle["moves"][1][:2]
    assert lesson["sentence"] == f"{lesson['san']} is checkmate."
    assert set(lesson["overlay"]) == {"threats", "xrays", "pins", "checked_king"}
    legal = sorted(m.uci()[:4] for m in board.legal_moves)
    assert sorted(o + t for o, targets in lesson["dests"].items() for t in targets) == sorted(
        set(legal)
    )


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        ("/api/puzzles/next", {"theme": "nonsense"}, 400, "bad_request"),
        ("/api/puzzles/next", {"rating": "abc"}, 400, "bad_request"),
        ("/api/puzzles/next", {"mine": "1"}, 400, "bad_request"),
        ("/api/puzzles/next", {"exclude": "a;b"}, 400, "bad_request"),
        ("/api/puzzles/zzzzzz", {}, 404, "not_found"),
        ("/api/puzzles/zzzzzz/lesson", {}, 404, "not_found"),
    ],
)
def test_bad_requests_are_refused(
    server: LiveServer, path: str, params: dict[str, str], status: int, code: str
) -> None:
    refused(get(f"{server.url}{path}", params), status, code)


@pytest.mark.parametrize("body", [None, [], {"win": "yes"}, {"win": True, "x": 1}, {}])
def test_bad_result_bodies_are_refused(server: LiveServer, body: Any) -> None:
    puzzle = get(f"{server.url}/api/puzzles/next").json()["puzzle"]
    url = f"{server.url}/api/puzzles/{puzzle['id']}/result"
    refused(requests.post(url, json=body, timeout=TIMEOUT), 400, "bad_request")
    refused(requests.post(f"{server.url}/api/puzzles/zzzzzz/result", json={"win": True},
                          timeout=TIMEOUT), 404, "not_found")  # fmt: skip


def test_requests_are_bounded_per_address(server: LiveServer) -> None:
    visitor = Visitor(server.url)  # an address of its own: the other tests' are not used up
    statuses = [visitor.get("/api/puzzles/themes").status_code for _ in range(90)]
    assert 429 in statuses and statuses[0] == 200


def test_the_import_command(tmp_path: Path) -> None:
    env = {"CHESS_INSTANCE_PATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "server.puzzles", "import", str(FIXTURE)]
    unmade = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    assert unmade.returncode == 2 and "start the server once" in unmade.stderr
    build_tables(SqliteDatabase(tmp_path / "games.sqlite3")).close()  # as a start makes it
    first = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "rows read: 10" in first.stdout and "puzzles added: 5" in first.stdout
    for line in ("duplicate in the file: 2", "illegal move: 1", "bad FEN: 1", "bad row: 1"):
        assert f"skipped, {line}" in first.stdout
    second = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, check=True)
    assert "puzzles added: 0" in second.stdout and "already in the table: 5" in second.stdout
    tables = build_tables(SqliteDatabase(tmp_path / "games.sqlite3"))
    try:
        stored = tables.puzzles.puzzle("00b2C")
        assert stored is not None
        assert stored.themes == ("mate", "mateIn2", "deflection", "endgame", "short")
        assert stored.source == "https://lichess.org/ijklMNOP/black#94"
        assert isinstance(tables.puzzles, PuzzleTables)
    finally:
        tables.close()
