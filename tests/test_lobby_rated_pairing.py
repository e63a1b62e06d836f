"""Rated quick pairing in process, on a real SQLite store and a clock the test moves: two
signed-in players far apart in rating both wait, and the lobby's heartbeat pairs them once
their windows have widened enough (server.lobby.pairing), in a rated game that is not assisted
and shows both ratings; a visitor cannot wait for a rated game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.accounts.identity import Account
from server.games.play import Game, ShownRating
from server.games.service import GameService
from server.lobby.seeks import PairRequest, Seat, Seek
from server.lobby.service import LobbyService
from server.shared.config import DEFAULTS
from server.shared.errors import RequestError
from server.tables import Tables
from tests.support.stored import sqlite_tables


class Unheard:
    """The game service's notifier: nobody listens."""

    def changed(self, game: Game, event: dict[str, Any]) -> None:
        pass

    def rematch_made(self, game: Game, rematch: Game, seats: dict[int, str]) -> None:
        pass


class LobbyRecorder:
    """The lobby's notifier: records the seats the private `paired` messages give."""

    def __init__(self) -> None:
        self.seats: dict[str, Seat] = {}

    def seek_added(self, seek: Seek) -> None:
        pass

    def seeks_removed(self, ids: list[str]) -> None:
        pass

    def paired(self, owner: str, seat: Seat) -> None:
        self.seats[owner] = seat

    def games_changed(self) -> None:
        pass


@pytest.fixture
def lobby(tmp_path: Path) -> Any:
    store = sqlite_tables(tmp_path / "games.sqlite3")
    tasks: list[Callable[[], object]] = []
    games = GameService(
        store.games,
        store.ratings,
        notifier=Unheard(),  # type: ignore[arg-type]
        spawn=lambda task, *args: tasks.append(lambda: task(*args)),
        sleep=lambda seconds: None,
    )
    recorder = LobbyRecorder()
    now = [1000.0]
    service = LobbyService(
        store.lobby, store.ratings, games, recorder, DEFAULTS, clock=lambda: now[0]
    )
    yield service, store, recorder, now
    games.close()
    store.close()


def account(store: Tables, name: str, rating: float | None = None) -> Account:
    user_id = store.accounts.create_user((name, name.lower(), "hash"), [])
    if rating is not None:  # an established blitz rating
        store.database.db.execute(
            "INSERT INTO ratings VALUES (?, 'blitz', ?, 60, 0.06, 100, ?)", (user_id, rating, 990.0)
        )
    return Account(user_id, name)


def test_the_heartbeat_pairs_two_far_apart_once_their_windows_meet(lobby: Any) -> None:
    service, store, recorder, now = lobby
    ann, ben = account(store, "Ann"), account(store, "Ben", 2000.0)
    rated = PairRequest("5+3", None, rated=True)
    assert service.pair("ann-socket", "1.1.1.1", rated, ann)[0] is None
    now[0] += 1
    assert service.pair("ben-socket", "2.2.2.2", rated, ben)[0] is None  # 500 apart: both wait
    now[0] += 10
    service.pair_waiting()
    assert recorder.seats == {}
    now[0] += 40  # Ann has waited 51 s (window 660), Ben 50 s (650): 500 fits both
    service.pair_waiting()
    assert set(recorder.seats) == {"ann-socket", "ben-socket"}
    seats = recorder.seats
    game_id = seats["ann-socket"].game
    assert seats["ben-socket"].game == game_id
    assert seats["ann-socket"].color != seats["ben-socket"].color
    assert (seats["ann-socket"].opponent, seats["ben-socket"].opponent) == ("Ben", "Ann")
    game = service.games.cache.games[game_id]
    assert game.settings.rated and not game.settings.assisted
    by_color = {seats["ann-socket"].color: ShownRating(1500, True), seats["ben-socket"].color:
                ShownRating(2000, False)}  # fmt: skip
    assert game.settings.ratings == (by_color[0], by_color[1])
    assert store.games.load_game(game_id).accounts == {
        seats["ann-socket"].color: ann.id,
        seats["ben-socket"].color: ben.id,
    }
    service.pair_waiting()  # nobody is left waiting
    assert len(recorder.seats) == 2


def test_a_visitor_cannot_wait_for_a_rated_game(lobby: Any) -> None:
    service, _, _, _ = lobby
    with pytest.raises(RequestError) as refused:
        service.pair("visitor", "3.3.3.3", PairRequest("5+3", "Visitor", rated=True), None)
    assert refused.value.code == "not_signed_in"
