"""Players' game history in the SQLite store and its PGN export: pages by cursor, filters,
counts, review links, the clock of each move, and the export read back by python-chess.

The data is bench/history_data.py's: real games written through the store's API as the server
writes them, with their history rows made by `history_entries`.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sqlite3
from pathlib import Path

import chess.pgn
import pytest

from bench.history_data import PLAYER_NAME, add_account, fill_store
from chesscore import BLACK, WHITE, Board, Move
from server.games.clock import ClockSettings
from server.games.play import Game, GameSettings, abort, make_move, new_game
from server.games.stored import StoredChange, StoredGame
from server.players.entries import history_entries, speed_of
from server.players.export import stream_games, write_pgns
from server.players.tables import GamesQuery, HistoryRow
from server.tables import Tables
from tests.support.stored import HEADER, sqlite_tables

GAMES = 60


def player_of(store: Tables) -> int:
    """The id of the bench's player (bench.history_data.fill_store made it)."""
    account = store.accounts.account_by_name(PLAYER_NAME)
    assert account is not None
    return account.id


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    store = sqlite_tables(tmp_path_factory.mktemp("history") / "games.sqlite3")
    fill_store(store, GAMES, seed=3)
    return store


def every_game(store: Tables, **filters: object) -> list[HistoryRow]:
    return store.history.player_games(GamesQuery(player_of(store), 10_000, **filters))  # type: ignore[arg-type]


def walk_pages(store: Tables, size: int, **filters: object) -> list[HistoryRow]:
    rows: list[HistoryRow] = []
    query = GamesQuery(player_of(store), size, **filters)  # type: ignore[arg-type]
    while True:
        page = store.history.player_games(query)
        rows.extend(page)
        if len(page) < size:
            return rows
        query = dataclasses.replace(query, before=(page[-1].entry.ended, page[-1].entry.game_id))


def test_pages_by_cursor_give_every_game_once_newest_first(store: Tables) -> None:
    whole = every_game(store)
    assert len(whole) == GAMES
    ended = [row.entry.ended for row in whole]
    assert ended == sorted(ended, reverse=True) and len(set(ended)) == GAMES
    assert walk_pages(store, 7) == whole
    assert store.history.player_games(GamesQuery(player_of(store), 5)) == whole[:5]


def test_two_games_ending_in_the_same_millisecond_are_both_paged(tmp_path: Path) -> None:
    store = sqlite_tables(tmp_path / "games.sqlite3")
    fill_store(store, 4, seed=1)
    rows = every_game(store)
    other = add_account(store, "tied_player")
    tied = [
        dataclasses.replace(row.entry, account=other, ended=rows[0].entry.ended + 1)
        for row in rows[:2]
    ]
    store.history.add_history(tied)
    tied_pages: list[HistoryRow] = []
    query = GamesQuery(other, 1)
    while page := store.history.player_games(query):
        tied_pages.extend(page)
        query = dataclasses.replace(query, before=(page[-1].entry.ended, page[-1].entry.game_id))
    assert sorted(row.entry.game_id for row in tied_pages) == sorted(e.game_id for e in tied)


@pytest.mark.parametrize(
    "filters",
    [
        {"speed": "blitz"},
        {"speed": "classical"},
        {"result": "win"},
        {"result": "draw"},
        {"rated": False},
        {"rated": True},
        {"speed": "rapid", "result": "loss"},
    ],
)
def test_filters_select_exactly_their_games(store: Tables, filters: dict[str, object]) -> None:
    def matches(row: HistoryRow) -> bool:
        return all(getattr(row.entry, name) == value for name, value in filters.items())

    expected = [row for row in every_game(store) if matches(row)]
    assert walk_pages(store, 4, **filters) == expected
    assert filters.get("rated") is True or expected  # the data has games of each kind


def test_counts_are_the_list_s_results(store: Tables) -> None:
    results = [row.entry.result for row in every_game(store)]
    counts = store.history.player_counts(player_of(store))
    assert counts == {result: results.count(result) for result in ("win", "draw", "loss")}
    assert store.history.player_counts(12345) == {"win": 0, "draw": 0, "loss": 0}


def test_a_finished_review_is_linked_and_a_queued_one_is_not(store: Tables) -> None:
    rows = every_game(store)
    linked = [row for row in rows if row.review_id is not None]
    assert len(linked) == GAMES // 10
    for row in linked:
        review = store.reviews.load_review(row.review_id or "")
        assert review is not None and review.source == row.entry.game_id
    with store.database.connection() as db:
        db.execute("UPDATE reviews SET status = 'running' WHERE id = ?", (linked[0].review_id,))
    try:
        again = {row.entry.game_id: row.review_id for row in every_game(store)}
        assert again[linked[0].entry.game_id] is None
    finally:
        with store.database.connection() as db:
            db.execute("UPDATE reviews SET status = 'done' WHERE id = ?", (linked[0].review_id,))


def test_a_game_recorded_twice_stays_one_row(store: Tables) -> None:
    row = every_game(store)[3]
    store.history.add_history(
        [dataclasses.replace(row.entry, result="win", opponent="someone else")]
    )
    assert every_game(store)[3] == row


def finished_timed_game() -> Game:
    settings = GameSettings(
        "friend", WHITE, Board().fen(), ClockSettings(180_000, 2_000), names=("ann", "bob")
    )
    game = new_game("h" * 12, settings)
    for ply, (uci, now) in enumerate(
        [("f2f3", 10.0), ("e7e5", 12.5), ("g2g4", 14.0), ("d8h4", 20.25)]
    ):
        change = make_move(game, ply % 2, ply, Move.from_uci(uci), now)
        game.apply(change)
    return game


def test_each_move_keeps_the_mover_s_clock_in_the_store(tmp_path: Path) -> None:
    game = finished_timed_game()
    # The clocks run from the third ply on (the first two moves cost nothing and add no
    # increment); then a move costs its thinking time and adds 2 s.
    assert [record.clock_ms for record in game.moves] == [180_000, 180_000, 180_500, 175_750]
    store = sqlite_tables(tmp_path / "games.sqlite3")
    store.games.create_game(StoredGame(game.id, {"opponent": "friend"}, HEADER, 0, []), {})
    added = list(enumerate(game.moves))
    store.games.commit(
        game.id, StoredChange(1, HEADER, {"type": "move", "version": 1}, True, added)
    )
    loaded = store.games.load_game(game.id)
    assert loaded is not None and loaded.moves == game.moves


def test_moves_of_a_file_made_before_clocks_load_without_them(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE games (id TEXT PRIMARY KEY, settings TEXT NOT NULL, header TEXT NOT NULL,
            version INTEGER NOT NULL, invite_hash TEXT, active INTEGER NOT NULL,
            created REAL NOT NULL, updated REAL NOT NULL);
        CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
            uci TEXT NOT NULL, san TEXT NOT NULL, PRIMARY KEY (game_id, ply));
        """
    )
    old.execute(
        "INSERT INTO games VALUES ('old', ?, ?, 1, NULL, 1, 1.0, 1.0)", ("{}", json.dumps(HEADER))
    )
    old.execute("INSERT INTO moves VALUES ('old', 0, 'e2e4', 'e4')")
    old.commit()
    old.close()
    loaded = sqlite_tables(path).games.load_game("old")
    assert loaded is not None and [(m.uci, m.san, m.clock_ms) for m in loaded.moves] == [
        ("e2e4", "e4", None)
    ]


def test_history_entries_from_each_side_and_none_for_an_aborted_game() -> None:
    game = finished_timed_game()  # fool's mate: black wins
    entries = history_entries(game, {WHITE: 7, BLACK: 8}, 1000.5)
    assert [(e.account, e.color, e.result, e.opponent, e.opponent_account) for e in entries] == [
        (7, WHITE, "loss", "bob", 8),
        (8, BLACK, "win", "ann", 7),
    ]
    assert {(e.ended, e.speed, e.plies, e.rated) for e in entries} == {
        (1_000_500, "blitz", 4, False)
    }
    assert entries[0].eco is not None and entries[0].opening is not None
    assert history_entries(game, {}, 1000.0) == []
    started = new_game("a" * 12, game.settings)
    started.apply(abort(started, WHITE, 5.0))
    assert history_entries(started, {WHITE: 7}, 5.0) == []


@pytest.mark.parametrize(
    ("clock", "speed"),
    [
        (None, "correspondence"),
        (ClockSettings(15_000, 0), "ultraBullet"),
        (ClockSettings(60_000, 0), "bullet"),
        (ClockSettings(120_000, 1_000), "bullet"),  # 120 + 40 x 1 = 160 s
        (ClockSettings(180_000, 0), "blitz"),
        (ClockSettings(300_000, 3_000), "blitz"),
        (ClockSettings(600_000, 0), "rapid"),
        (ClockSettings(900_000, 10_000), "rapid"),
        (ClockSettings(1_800_000, 0), "classical"),
    ],
)
def test_speeds_as_lichess_sorts_them(clock: ClockSettings | None, speed: str) -> None:
    assert speed_of(clock) == speed


def test_the_export_reads_back_in_python_chess(store: Tables) -> None:
    rows = every_game(store)
    text = "".join(
        stream_games(
            store,
            GamesQuery(player_of(store), 1),
            "https://chess.test",
            lambda job, *args: job(*args),
        )
    )
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    assert len(games) == GAMES
    for row, game in zip(rows, games, strict=True):
        assert not game.errors
        stored = store.games.load_game(row.entry.game_id)
        assert stored is not None
        assert game.headers["Site"] == f"https://chess.test/game/{row.entry.game_id}"
        assert game.headers["Opening"] == row.entry.opening and game.headers["ECO"] == row.entry.eco
        mode = "Rated" if row.entry.rated else "Casual"
        assert game.headers["Event"] == f"{mode} {row.entry.speed} game"
        nodes = list(game.mainline())
        assert [node.move.uci() for node in nodes] == [move.uci for move in stored.moves]
        assert [node.clock() for node in nodes] == [
            round((move.clock_ms or 0) / 100) / 10 for move in stored.moves
        ]
        evals = [node.eval() for node in nodes]
        if row.review_id is None:
            assert evals == [None] * len(nodes)
        else:
            review = store.reviews.load_review(row.review_id)
            assert review is not None
            cps = {item["index"]: item["eval"]["cp"] for item in json.loads(review.evals)}
            assert [e.white().score() if e else None for e in evals] == [
                cps[k + 1] for k in range(len(nodes))
            ]
        board = game.end().board()
        result = game.headers["Result"]
        assert result in ("1-0", "0-1", "1/2-1/2")
        if board.is_checkmate():
            assert result == ("0-1" if board.turn == chess.WHITE else "1-0")


def test_the_export_follows_the_filters(store: Tables) -> None:
    query = GamesQuery(player_of(store), 1, result="draw")
    text = "".join(stream_games(store, query, "https://chess.test", lambda job, *args: job(*args)))
    draws = [row.entry.game_id for row in every_game(store, result="draw")]
    assert text.count("[Event ") == len(draws) and all(
        f'/game/{game_id}"' in text for game_id in draws
    )
    assert text.count('[Result "1/2-1/2"]') == len(draws)


def test_an_empty_history_exports_nothing(store: Tables) -> None:
    assert list(stream_games(store, GamesQuery(999, 1), "x", write_pgns)) == []


def test_a_stockfish_review_is_linked_before_our_engine_s(tmp_path: Path) -> None:
    from server.players.tables import STOCKFISH_REVIEW
    from server.review.engines import STOCKFISH_KEY

    assert STOCKFISH_REVIEW == STOCKFISH_KEY  # the key the reviews store Stockfish's under
    store = sqlite_tables(tmp_path / "games.sqlite3")
    fill_store(store, 3, seed=4)
    rows = every_game(store)
    unreviewed = [row for row in rows if row.review_id is None]
    assert len(unreviewed) == 2
    first, second = unreviewed
    (reviewed,) = [row for row in rows if row.review_id is not None]
    ours = store.reviews.load_review(reviewed.review_id or "")
    assert ours is not None
    store.reviews.add_review(
        dataclasses.replace(ours, id="sf000001", source=first.entry.game_id + "@stockfish"),
        None,
        100,
    )
    store.reviews.add_review(
        dataclasses.replace(ours, id="ow000002", source=second.entry.game_id), None, 100
    )
    store.reviews.add_review(
        dataclasses.replace(ours, id="sf000002", source=second.entry.game_id + "@stockfish"),
        None,
        100,
    )
    store.reviews.add_review(
        dataclasses.replace(
            ours, id="sf000003", source=reviewed.entry.game_id + "@stockfish", status="running"
        ),
        None,
        100,
    )
    linked = {row.entry.game_id: row.review_id for row in every_game(store)}
    assert linked[first.entry.game_id] == "sf000001"
    assert linked[second.entry.game_id] == "sf000002"
    assert linked[reviewed.entry.game_id] == ours.id  # Stockfish's is not done yet
