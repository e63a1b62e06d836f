"""Players' histories over HTTP against a real server: a game between two accounts, played to
its end and reviewed, is in both players' lists (`GET /api/users/<name>/games`, pages by
cursor, filters) and in their exports (`GET /api/games/user/<name>`, read back by python-chess
with its clocks, evaluations and headers); unknown players and bad parameters are refused
clearly; the export is admitted per address before any work.

Our own engine reviews (CHESS_STOCKFISH=none): a four-ply game is reviewed in seconds.
"""

from __future__ import annotations

import io
import time
from typing import Any

import chess
import chess.pgn
import pytest

from tests.support.game_client import invite_token
from tests.support.http import refused
from tests.support.live_server import LiveServer
from tests.support.server_fixture import module_server
from tests.test_server_accounts import PASSWORD, Visitor, new_name

pytestmark = pytest.mark.server

server = module_server(
    "profiles",
    {
        "CHESS_TRUSTED_PROXIES": "1",
        "CHESS_STOCKFISH": "none",
        # The work pool's burst as a public server has it (tests/conftest.py lifts it), refilled
        # so slowly that no wait of a loaded machine refills an export's cost.
        "CHESS_WORK_BURST": "40",
        "CHESS_WORK_UNITS_PER_SECOND": "0.01",
    },
)
FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]
REVIEW_SECONDS = 300.0  # our engine on a loaded machine


def play_game(
    white: Visitor, black: Visitor, moves: list[str], clock: bool = True
) -> tuple[str, dict[int, str]]:
    """A game between the two signed-in visitors, white creating it, `moves` played over HTTP;
    its id and the seats' tokens by colour."""
    body: dict[str, Any] = {"opponent": "friend", "color": "white"}
    if clock:
        body["clock"] = {"minutes": 3, "increment": 2}
    created = white.post("/api/games", body).json()
    game = created["game"]
    joined = black.post(f"/api/games/{game}/join", {"invite": invite_token(created)}).json()
    seats = {0: created["seat"], 1: joined["seat"]}
    for ply, uci in enumerate(moves):
        played = white.post(
            f"/api/games/{game}/moves",
            {"ply": ply, "uci": uci},
            Authorization=f"Bearer {seats[ply % 2]}",
        )
        assert played.status_code == 200, played.text
        time.sleep(0.05)  # the clocks run from the third ply: let them move
    return str(game), seats


def reviewed(visitor: Visitor, game: str) -> str:
    answer = visitor.post("/api/reviews", {"game": game})
    assert answer.status_code in (200, 201), answer.text
    review = answer.json()["id"]
    deadline = time.monotonic() + REVIEW_SECONDS
    while visitor.get(f"/api/reviews/{review}").json()["status"] != "done":
        assert time.monotonic() < deadline, "the review did not end"
        time.sleep(0.5)
    return str(review)


@pytest.fixture(scope="module")
def players(server: LiveServer) -> dict[str, Any]:
    """Two accounts with two finished games, fool's mate (timed, reviewed) and then one black
    resigned (untimed), and one more still in play."""
    white, black = Visitor(server.url), Visitor(server.url)
    names = new_name(), new_name()
    white.signup(names[0])
    black.signup(names[1])
    mate, _ = play_game(white, black, FOOLS_MATE)
    review = reviewed(white, mate)
    resigned, seats = play_game(white, black, ["e2e4"], clock=False)
    done = black.post(
        f"/api/games/{resigned}/actions", {"action": "resign"}, Authorization=f"Bearer {seats[1]}"
    )
    assert done.status_code == 200, done.text
    play_game(white, black, ["d2d4"])
    return {
        "white": white,
        "black": black,
        "names": names,
        "mate": mate,
        "review": review,
        "resigned": resigned,
    }


def games_of(visitor: Visitor, name: str, query: str = "") -> dict[str, Any]:
    answer = visitor.get(f"/api/users/{name}/games{query}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_both_players_list_their_finished_games_newest_first(players: dict[str, Any]) -> None:
    white_name, black_name = players["names"]
    listed = games_of(players["white"], white_name)
    assert [game["id"] for game in listed["games"]] == [players["resigned"], players["mate"]]
    resigned, mate = listed["games"]
    assert (resigned["result"], resigned["color"], resigned["opponent"]) == (
        "win",
        "white",
        black_name,
    )
    assert (resigned["speed"], resigned["control"], resigned["review"]) == (
        "correspondence",
        "-",
        None,
    )
    assert (mate["result"], mate["speed"], mate["control"], mate["moves"]) == (
        "loss",
        "blitz",
        "3+2",
        2,
    )
    assert mate["review"] == players["review"] and mate["opening"] and mate["eco"]
    assert mate["ended"] < resigned["ended"] and listed["next"] is None
    theirs = games_of(players["black"], black_name.upper())  # any case finds the player
    assert theirs["name"] == black_name
    assert [(g["result"], g["opponent"]) for g in theirs["games"]] == [
        ("loss", white_name),
        ("win", white_name),
    ]


def test_pages_follow_the_cursor_and_filters_narrow_them(players: dict[str, Any]) -> None:
    name, visitor = players["names"][0], players["white"]
    first = games_of(visitor, name, "?limit=1")
    assert [game["id"] for game in first["games"]] == [players["resigned"]] and first["next"]
    second = games_of(visitor, name, f"?limit=1&before={first['next']}")
    assert [game["id"] for game in second["games"]] == [players["mate"]] and second["next"] is None
    assert [g["id"] for g in games_of(visitor, name, "?result=loss")["games"]] == [players["mate"]]
    assert [g["id"] for g in games_of(visitor, name, "?speed=correspondence")["games"]] == [
        players["resigned"]
    ]
    assert games_of(visitor, name, "?rated=true")["games"] == []
    assert len(games_of(visitor, name, "?rated=false&result=")["games"]) == 2


def test_unknown_players_and_bad_parameters_are_refused_clearly(players: dict[str, Any]) -> None:
    visitor, name = players["white"], players["names"][0]
    refused(visitor.get("/api/users/nobody_here/games"), 404, "not_found", "nobody_here")
    refused(visitor.get(f"/api/users/{name}/games?speed=fast"), 400, "bad_request", "speed")
    refused(visitor.get(f"/api/users/{name}/games?result=won"), 400, "bad_request", "result")
    refused(visitor.get(f"/api/users/{name}/games?rated=yes"), 400, "bad_request", "rated")
    refused(visitor.get(f"/api/users/{name}/games?before=12.x"), 400, "bad_request", "before")
    refused(visitor.get(f"/api/users/{name}/games?limit=0"), 400, "bad_request", "limit")
    refused(visitor.get(f"/api/users/{name}/games?limit=101"), 400, "bad_request", "limit")
    page = visitor.get("/@/nobody_here")
    assert page.status_code == 404 and "nobody_here" in page.text


def read_export(visitor: Visitor, name: str) -> list[chess.pgn.Game]:
    answer = visitor.get(f"/api/games/user/{name}")
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/x-chess-pgn")
    assert answer.headers["Content-Disposition"] == f'attachment; filename="{name}.pgn"'
    handle, games = io.StringIO(answer.text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert not game.errors
        games.append(game)
    return games


def test_the_export_reads_back_with_clocks_evaluations_and_headers(
    server: LiveServer, players: dict[str, Any]
) -> None:
    white_name, black_name = players["names"]
    resigned, mate = read_export(players["white"], white_name)
    assert resigned.headers["Site"].endswith(f"/game/{players['resigned']}")
    assert resigned.headers["Result"] == "1-0" and resigned.headers["Termination"] == "resignation"
    assert (
        resigned.headers["TimeControl"] == "-"
        and resigned.headers["Event"] == "Casual correspondence game"
    )
    assert [node.clock() for node in resigned.mainline()] == [None]
    assert mate.headers["Site"].endswith(f"/game/{players['mate']}")
    assert (mate.headers["White"], mate.headers["Black"]) == (white_name, black_name)
    assert mate.headers["Result"] == "0-1" and mate.headers["TimeControl"] == "180+2"
    assert mate.headers["Event"] == "Casual blitz game" and mate.headers["ECO"]
    assert [move.uci() for move in mate.mainline_moves()] == FOOLS_MATE
    assert mate.end().board().is_checkmate()
    clocks = [node.clock() for node in mate.mainline()]
    # The first two moves cost nothing; then each costs its time and adds the increment.
    assert clocks[:2] == [180.0, 180.0] and all(c is not None and 0 < c <= 182 for c in clocks[2:])
    review = players["white"].get(f"/api/reviews/{players['review']}/pgn").text
    oracle = chess.pgn.read_game(io.StringIO(review))
    assert oracle is not None
    evals = [node.eval() for node in mate.mainline()]
    assert evals == [node.eval() for node in oracle.mainline()] and evals[0] is not None
    assert len(read_export(players["black"], black_name)) == 2


def test_the_export_is_admitted_per_address_before_any_work(server: LiveServer) -> None:
    visitor = Visitor(server.url)
    # A burst of 40 units (server.work.admission), an export costs 16: the third is refused,
    # an unknown player's as any other, since nothing is looked up before.
    for _ in range(2):
        refused(visitor.get("/api/games/user/nobody_here"), 404, "not_found")
    answer = visitor.get("/api/games/user/nobody_here")
    refused(answer, 429, "rate_limited")
    assert int(answer.headers["Retry-After"]) >= 1


def test_a_deleted_opponent_is_a_deleted_player_and_has_no_list(server: LiveServer) -> None:
    stays, leaves = Visitor(server.url), Visitor(server.url)
    names = new_name(), new_name()
    stays.signup(names[0])
    leaves.signup(names[1])
    game, _ = play_game(stays, leaves, FOOLS_MATE)
    before = games_of(stays, names[0])["games"]
    assert [(g["id"], g["opponent"]) for g in before] == [(game, names[1])]
    gone = leaves.post("/api/account/delete", {"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    after = games_of(stays, names[0])["games"]
    assert [(g["id"], g["opponent"], g["result"]) for g in after] == [
        (game, "deleted player", "loss")
    ]
    refused(stays.get(f"/api/users/{names[1]}/games"), 404, "not_found")
    page = stays.get(f"/@/{names[0]}")
    assert "deleted player" in page.text and f"/@/{names[1]}" not in page.text
