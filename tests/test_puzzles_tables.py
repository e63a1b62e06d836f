"""The puzzles' tables (server.puzzles.tables) on SQLite and PostgreSQL alike.

The shipped set is loaded once (a second load adds nothing: the same ids and positions are
skipped); the nearest puzzles to a rating come nearest first, of a theme when asked, never one
the solver has a result on or an id excluded; a result counts once per solver (the puzzle's
and the account's ratings move by the arithmetic passed in, then stay); an account's own
puzzles are apart from the shared set; deleting the account takes its results, rating and own
puzzles with it. The PostgreSQL half is marked `cluster` (tests/support/postgres.py).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

from chesscore.puzzles import rate_attempt, read_puzzles
from chesscore.ratings import PlayerRating
from server.accounts.usernames import name_key
from server.puzzles.service import SHIPPED, PuzzleService, shipped_source
from server.puzzles.tables import Choice
from server.tables import Tables
from tests.support.postgres import module_postgres
from tests.support.stored import postgres_tables, sqlite_tables

database = module_postgres()


def check_tables(store: Tables) -> None:
    puzzles = store.puzzles
    service = PuzzleService(puzzles)
    assert service.load_shipped() == 2126 and service.load_shipped() == 0
    total, counts = puzzles.theme_counts()
    assert total == 2126 and counts["fork"] == 88
    near = puzzles.nearest(Choice("fork", None, 1500, None, (), 3))
    above, below = near[:3], near[3:]
    assert all("fork" in p.themes for p in near) and len(near) == 6
    assert [p.rating for p in above] == sorted(p.rating for p in above)
    assert all(p.rating >= 1500 for p in above) and all(p.rating < 1500 for p in below)
    user = store.accounts.create_user(("Puzzler", name_key("Puzzler"), "hash"), [])
    solver = f"account:{user}"
    first = above[0]
    rate = partial(rate_attempt, solved=True, now=1000.0)
    attempt = puzzles.record_result(first.id, solver, user, True, 1000.0, rate, PlayerRating())
    assert attempt is not None and attempt.counted and attempt.solver_after > 1500
    assert attempt.puzzle_rating < first.rating
    again = puzzles.record_result(first.id, solver, user, False, 1001.0, rate, PlayerRating())
    assert again is not None and not again.counted
    assert puzzles.puzzle(first.id).rating == attempt.puzzle_rating  # type: ignore[union-attr]
    assert puzzles.account_rating(user).glicko.rating == attempt.solver_after
    left = puzzles.nearest(Choice("fork", None, 1500, solver, (above[1].id,), 3))
    assert first.id not in {p.id for p in left} and above[1].id not in {p.id for p in left}
    assert [(t.theme, t.wins, t.losses) for t in puzzles.dashboard(user)] == sorted(
        ((theme, 1, 0) for theme in first.themes), key=lambda row: row[0]
    )
    shipped = next(iter(read_puzzles(SHIPPED.read_text(encoding="utf-8").splitlines())))
    assert puzzles.add_puzzles([replace(shipped, id="own00001")], shipped_source, user) == 0
    fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    own = replace(shipped, id="own00002", fen=fen, moves=("g8f6", "h5f7"), themes=("mate",))
    assert puzzles.add_puzzles([own], shipped_source, user) == 1
    assert puzzles.theme_counts()[0] == 2126 and puzzles.count_owned(user) == 1
    assert [p.id for p in puzzles.nearest(Choice(None, user, 1500, None, (), 3))] == ["own00002"]
    store.accounts.delete_user(user)
    assert puzzles.account_rating(user).glicko.rating == 1500
    assert puzzles.dashboard(user) == [] and puzzles.puzzle("own00002") is None


def test_on_sqlite(tmp_path: Path) -> None:
    store = sqlite_tables(tmp_path / "games.sqlite3")
    try:
        check_tables(store)
    finally:
        store.close()


@pytest.mark.cluster
@pytest.mark.server
def test_on_postgres(database: str) -> None:
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        db.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    store = postgres_tables(database)
    try:
        check_tables(store)
    finally:
        store.close()
