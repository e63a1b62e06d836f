"""A player's page `/@/<name>`, its games as JSON, and all of them as one PGN file (issue 27).

`install` registers the pages and the API and adds the game service's end listener that writes
a finished game into its signed-in players' histories (server.players.entries,
server.players.tables). The page is rendered on the server, the list a page at a time by the
history's cursor, filters and pages as links (server.players.query); its rating graph
is drawn by static/js/profile.js from the points the page carries. `GET /api/users/<name>/games`
is the same list as JSON; `GET /api/games/user/<name>` streams every game as PGN, as lichess's
export of the same address, admitted per address by the work pool's admission before anything
is read (one export in flight per address, each costing `EXPORT_UNITS` of its bucket) and
written in the work pool a batch at a time (server.players.export).
"""

from __future__ import annotations

import datetime
import itertools
import logging
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any, Protocol, cast

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    stream_with_context,
)

from server.accounts.identity import Account, current_account
from server.accounts.tables import AccountTables
from server.accounts.usernames import DELETED_NAME
from server.edge.clients import request_client
from server.edge.headers import public_url
from server.edge.http import answer_errors_as_json
from server.edge.query import parse_query_int
from server.games.clock import control_name
from server.games.play import Game, color_name, shown_names
from server.games.service import GameService
from server.games.stored import OngoingGame, header_from_data, settings_from_data
from server.games.tables import GameTables
from server.players.entries import SPEEDS, history_entries
from server.players.export import ExportTables, stream_games
from server.players.query import GamesFilter, parse_games_filter
from server.players.tables import GamesQuery, HistoryRow, HistoryTables
from server.ratings.tables import RatingTables
from server.ratings.wire import ratings_json
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot
from server.work.admission import UNIT_BYTES, WORK_ADMISSION
from server.work.pool import WORK

log = logging.getLogger(__name__)
blueprint = Blueprint("profiles", __name__)
api_blueprint = answer_errors_as_json(Blueprint("profiles_api", __name__, url_prefix="/api"))

PAGE_SIZE = 20  # games on a page of the profile
API_MAX_LIMIT = 100  # games on a page of the JSON list, at most
# What an export costs of its address's bucket (server.work.admission): as a 1 MB request.
EXPORT_UNITS = 16
# The page's words, marked for the catalogs and said in the visitor's language by the template
# (templates/profile.html); the JSON API gives them in English.
RESULT_WORDS = {"win": N_("Won"), "draw": N_("Draw"), "loss": N_("Lost")}
_TABS = (("win", N_("Wins")), ("draw", N_("Draws")), ("loss", N_("Losses")))  # by result
TAB_WORDS: tuple[str, ...] = (N_("UltraBullet"), N_("Bullet"), N_("Blitz"), N_("Rapid"))
TAB_WORDS += (N_("Classical"), N_("Correspondence"), N_("All games"), N_("All speeds"))

GRAPH_GAMES = 1000  # rated games on the rating graph, the latest
RECENT_GAMES = 5  # finished games beside those in play in "Your games"


def record_history(
    games: GameTables, history: HistoryTables, game: Game, ended: float | None = None
) -> None:
    """The game service's end listener: the game into its signed-in players' histories (a row
    already there stays as it is), dated `ended` (now, when it has just ended)."""
    stored = games.load_game(game.id)
    if stored is None or not stored.accounts:
        return
    history.add_history(history_entries(game, stored.accounts, ended or time.time()))


def record_claimed(service: GameService, game_ids: list[str]) -> None:
    """Games an account has just claimed: those already over join its history, dated by their
    last change (their end), as they would have had it been signed in then."""
    for game_id in game_ids:
        ended = service.tables.last_change(game_id)
        with service.session(game_id) as game:
            if game.header.outcome is not None and ended is not None:
                record_history(service.tables, _tables().history, game, ended)


class ProfileTables(ExportTables, Protocol):
    """The tables the players' pages read (server.tables.Tables has them)."""

    @property
    def accounts(self) -> AccountTables: ...

    @property
    def ratings(self) -> RatingTables: ...


# The tables the root opened (server.tables.Tables), as the players' pages read them.
PROFILE_TABLES: Slot[ProfileTables] = Slot("the players' tables")


def _tables() -> ProfileTables:
    return PROFILE_TABLES.get()


def find_account(name: str) -> Account:
    """The live account of that name (any case), else `not_found` naming it."""
    account = _tables().accounts.account_by_name(name) if 0 < len(name) <= 40 else None
    if account is None:
        raise RequestError("not_found", N_("no player is called {name}"), name=repr(name[:40]))
    return account


# -- the page ---------------------------------------------------------------------------------


@blueprint.get("/@/<name>")
def profile_page(name: str) -> Response | str:
    try:
        account = find_account(name)
        filters = parse_games_filter(request.args)
    except RequestError as error:
        abort(error.http_status, error.message)
    if account.name != name and not request.args:
        # Any spelling finds the player; the address shows the name as the player wrote it.
        return cast(Response, current_app.redirect(f"/@/{account.name}", 301))
    store = _tables()
    rows = store.history.player_games(filters.query(account.id, PAGE_SIZE + 1))
    counts = store.history.player_counts(account.id)
    path = f"/@/{account.name}"
    return render_template(
        "profile.html",
        name=account.name,
        counts=counts,
        total=sum(counts.values()),
        ratings=rating_cards(store, account),
        graph=rating_graph(store, account),
        games=[game_view(row) for row in rows[:PAGE_SIZE]],
        result_tabs=_result_tabs(filters, path),
        speed_tabs=_speed_tabs(filters, path),
        next_href=_next_link(filters, path, rows, PAGE_SIZE),
        first_href=filters.link(path, before=None) if filters.before else None,
    )


def _result_tabs(filters: GamesFilter, path: str) -> list[dict[str, Any]]:
    tabs: list[tuple[str, dict[str, object]]] = [("All games", {"rated": None, "result": None})]
    tabs.append(("Rated", {"rated": True, "result": None}))
    tabs.extend((word, {"result": result, "rated": None}) for result, word in _TABS)
    return [
        {
            "label": label,
            "href": filters.link(path, before=None, **change),
            "current": (filters.rated, filters.result) == (change["rated"], change["result"]),
        }
        for label, change in tabs
    ]


def _speed_tabs(filters: GamesFilter, path: str) -> list[dict[str, Any]]:
    speeds: list[tuple[str, str | None]] = [("All speeds", None)]
    speeds.extend((speed[0].upper() + speed[1:], speed) for speed in SPEEDS)
    return [
        {
            "label": label,
            "href": filters.link(path, before=None, speed=speed),
            "current": filters.speed == speed,
        }
        for label, speed in speeds
    ]


def _next_link(filters: GamesFilter, path: str, rows: list[HistoryRow], size: int) -> str | None:
    """The link to the page after `rows[:size]`, when `rows` has one more game."""
    if len(rows) <= size:
        return None
    last = rows[size - 1].entry
    return filters.link(path, before=(last.ended, last.game_id))


def game_view(row: HistoryRow) -> dict[str, Any]:
    """A game of the list as the page and the JSON show it."""
    entry = row.entry
    ended = datetime.datetime.fromtimestamp(entry.ended / 1000, datetime.UTC)
    other = entry.opponent_account
    user = None if other is None else _tables().accounts.user_by_id(other)
    deleted = user is not None and user.deleted
    return {
        "id": entry.game_id,
        "color": color_name(entry.color),
        "result": entry.result,
        "result_text": RESULT_WORDS[entry.result],
        "opponent": DELETED_NAME if deleted else entry.opponent,
        "opponent_href": f"/@/{user.name}" if user is not None and not deleted else None,
        "speed": entry.speed,
        "speed_name": entry.speed[0].upper() + entry.speed[1:],
        "control": entry.control,
        "rated": entry.rated,
        "eco": entry.eco,
        "opening": entry.opening,
        "moves": (entry.plies + 1) // 2,
        "ended": entry.ended,
        "ended_iso": ended.isoformat(timespec="seconds"),
        "ended_text": ended.strftime("%-d %b %Y, %H:%M UTC"),
        "review": row.review_id,
    }


def rating_cards(store: ProfileTables, account: Account) -> list[dict[str, Any]]:
    """The ratings the page lists: the speeds the player has rated games in (server.games.rating
    shows them as the API does, provisional while the deviation is high), the most played
    first, as lichess lists them."""
    shown = ratings_json(store.ratings.ratings_of(account.id), time.time())
    played = [{"speed": speed, **rating} for speed, rating in shown.items() if rating["games"]]
    return sorted(played, key=lambda card: -int(card["games"]))


def rating_graph(store: ProfileTables, account: Account) -> dict[str, list[list[int]]] | None:
    """The rating after each of the last GRAPH_GAMES rated games by speed, `{speed: [[ms,
    rating], ...]}` oldest first, or None before the first. Each speed's line starts from the
    rating its first game shown began with (1500 for a first game ever), at that game's time:
    a speed of one rated game is a line from where it started, not a lone dot."""
    graph: dict[str, list[list[int]]] = {}
    for point in store.ratings.rating_history(account.id, GRAPH_GAMES):
        # Whole ratings as the games show them (server.games.rating), the diff being theirs.
        time_ms, rating = int(point.played * 1000), int(point.rating)
        if point.speed not in graph:
            graph[point.speed] = [[time_ms, rating - point.diff]]
        graph[point.speed].append([time_ms, rating])
    return graph or None


# -- the API ----------------------------------------------------------------------------------


@api_blueprint.get("/users/<name>/games")
def games_json(name: str) -> Response:
    """A page of the player's finished games, newest first, and the cursor of the next."""
    account = find_account(name)
    filters = parse_games_filter(request.args)
    limit = parse_query_int("limit", request.args.get("limit", str(PAGE_SIZE)))
    if not 1 <= limit <= API_MAX_LIMIT:
        raise RequestError(
            "bad_request",
            N_("parameter 'limit' must be 1 to {API_MAX_LIMIT}"),
            API_MAX_LIMIT=API_MAX_LIMIT,
        )
    rows = _tables().history.player_games(filters.query(account.id, limit + 1))
    last = rows[limit - 1].entry if len(rows) > limit else None
    games = [_game_json(game_view(row)) for row in rows[:limit]]
    cursor = None if last is None else f"{last.ended}.{last.game_id}"
    return jsonify({"ok": True, "name": account.name, "games": games, "next": cursor})


def _game_json(view: dict[str, Any]) -> dict[str, Any]:
    shown = ("id", "color", "result", "opponent", "speed", "control", "rated", "eco", "opening")
    return {
        **{key: view[key] for key in shown},
        "moves": view["moves"],
        "ended": view["ended"],
        "review": view["review"],
    }


@api_blueprint.get("/account/games")
def my_games() -> Response:
    """The signed-in player's games on any browser: those in play (its seats, wherever they
    were taken) and the latest finished ones; the lobby's "Your games" lists them."""
    account = current_account()
    if account is None:
        raise RequestError("not_signed_in", N_("sign in to see your games on any browser"))
    store = _tables()
    playing = [
        _playing_json(color, game) for color, game in store.history.playing_games(account.id, 30)
    ]
    finished = store.history.player_games(GamesQuery(account.id, RECENT_GAMES))
    return jsonify(
        {
            "ok": True,
            "name": account.name,
            "profile": f"/@/{account.name}",
            "playing": playing,
            "finished": [_game_json(game_view(row)) for row in finished],
        }
    )


def _playing_json(color: int, game: OngoingGame) -> dict[str, Any]:
    settings = settings_from_data(game.settings)
    names = shown_names(settings, header_from_data(game.header))
    return {
        "id": game.id,
        "color": color_name(color),
        "opponent": names[1 - color],
        "control": control_name(settings.clock),
        "rated": settings.rated,
        "plies": game.plies,
        "updated": round(game.updated * 1000),
    }


@api_blueprint.get("/games/user/<name>")
def export_games(name: str) -> Response:
    """Every finished game of the player as one PGN file, newest first, streamed."""
    admission = WORK_ADMISSION.get()
    with ExitStack() as held:
        # Admitted before anything is looked up: a flood costs a bucket's look-up each.
        held.enter_context(admission.admit(request_client(), (EXPORT_UNITS - 1) * UNIT_BYTES))
        account = find_account(name)
        query = parse_games_filter(request.args).query(account.id, 0)
        pool = WORK.get()
        chunks = stream_games(_tables(), query, public_url(current_app.config), pool.run)
        # The first batch before the answer starts: a pool that refuses it (busy, too slow)
        # is answered with its error and status, not with an empty file.
        first = next(chunks, "")
        release = held.pop_all()  # the admission is held until the last byte is out
    stream = _released(itertools.chain([first], chunks), release)
    response = Response(stream_with_context(stream), mimetype="text/x-chess-pgn")
    response.headers["Content-Disposition"] = f'attachment; filename="{account.name}.pgn"'
    return response


def _released(chunks: Iterator[str], release: ExitStack) -> Iterator[str]:
    """`chunks`, then `release` closed, also when the client goes away mid-way."""
    with release:
        try:
            yield from chunks
        except RequestError as error:  # a batch refused by the pool (busy, too slow)
            log.warning("an export stopped: %s", error.message)
