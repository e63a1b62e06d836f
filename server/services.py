"""The composition root's one job: build every service, once, with explicit arguments.

`build_services` opens the database with every domain's tables (server.tables), starts the
engine pool and the work pool, and builds each feature's service over them in the order they
depend on each other (the games first; the accounts, the analysis board, the lobby, the reviews
and the trainer over them; the puzzles, with the shipped set loaded, and the review's finished
listener that makes a player's own puzzles), then adds the game service's end listeners (a
finished game into its players' histories). `put_in_slots`
gives each service to the `Slot` its feature's routes and events read it from
(server.shared.slots). Nothing else builds a service, and no service is found by a string key.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass
from functools import partial
from typing import Any

from flask import Flask
from flask_socketio import SocketIO

from server.accounts.identity import ACCOUNT_SOURCE
from server.accounts.service import ACCOUNTS, Accounts
from server.analysis.engine_events import ENGINES
from server.analysis.service import ANALYSIS, AnalysisService
from server.chat.service import CHAT, ChatService
from server.edge.broadcast import may_reach
from server.edge.connections import CONNECTIONS, Connections
from server.engine.pool import EnginePool, default_size
from server.games.pgn import pgn_headers, pgn_result
from server.games.play import Game
from server.games.rooms import RoomNotifier
from server.games.service import GAMES, GameService
from server.lobby.events import LobbyRooms, WatchingNotifier
from server.lobby.service import LOBBY, LobbyService
from server.lobby.watch import WatchedGame
from server.players.http import PROFILE_TABLES, record_history
from server.preferences.http import PREFERENCES
from server.puzzles.own import OwnPuzzles, accounts_by_color
from server.puzzles.service import PUZZLES, PuzzleService
from server.ratings.tables import RATINGS
from server.review.events import review_engine
from server.review.said import push_in_every_language
from server.review.service import REVIEWS, ReviewService
from server.shared.slots import Slot
from server.tables import Tables, open_tables
from server.training.http import finished_game
from server.training.positions import SiteGames
from server.training.service import TRAINING, TrainingService
from server.work.admission import WORK_ADMISSION, WorkAdmission
from server.work.pool import WORK, WorkPool

# What the work pool's workers run (imported before their first job: imports are no job's time).
JOB_MODULES = (
    "server.analysis.jobs",
    "server.review.requests",
    "server.review.sources",
    "server.players.export",
)


@dataclass(frozen=True)
class Services:
    """Everything one server process serves with, built once by `build_services`."""

    tables: Tables
    connections: Connections
    engines: EnginePool
    work: WorkPool
    work_admission: WorkAdmission
    games: GameService
    accounts: Accounts
    analysis: AnalysisService
    lobby: LobbyService
    reviews: ReviewService
    training: TrainingService
    puzzles: PuzzleService
    chat: ChatService


def build_services(app: Flask, socketio: SocketIO) -> Services:
    """Every service of the app, wired; the games in play resumed and the review queue
    running."""
    config = app.config
    tables = open_tables(app.instance_path, config)
    connections = Connections()
    engines = EnginePool(int(config["ENGINE_WORKERS"]) or default_size())
    work = WorkPool(
        int(config["WORK_PROCESSES"]),
        int(config["WORK_WAITING"]),
        float(config["WORK_SECONDS"]),
        modules=JOB_MODULES,
    )
    atexit.register(work.close)
    work_admission = WorkAdmission(
        float(config["WORK_BURST"]), float(config["WORK_UNITS_PER_SECOND"])
    )
    games = GameService(
        tables.games,
        tables.ratings,
        notifier=RoomNotifier(socketio, connections.connected_seats),
        engines=engines,
        spawn=socketio.start_background_task,
        sleep=socketio.sleep,
        computer_delay=float(config["COMPUTER_DELAY"]),
        attended=connections.has_player,
        limits=config,
    )
    games.resume()
    accounts = Accounts(tables.accounts, config, games.rename_seats)
    accounts.close_socket = lambda sid: socketio.server.disconnect(sid)
    analysis = AnalysisService(tables.analyses)
    lobby = _build_lobby(config, socketio, tables, games)
    lobby.sightings = accounts.sightings
    games.admit_rated_rematch = lobby.admit_rated_rematch
    reviews = _build_reviews(app, socketio, games, tables, analysis, engines)
    finished = SiteGames(tables.games.finished_game_ids, partial(finished_game, games))
    training = TrainingService(finished)
    puzzles = PuzzleService(tables.puzzles)
    puzzles.load_shipped()  # once per version of the file: a start after reads nothing
    own = OwnPuzzles(
        tables.puzzles,
        reviews.runner.engine.stockfish,
        partial(_game_accounts, tables),
        socketio.start_background_task,
    )
    atexit.register(own.close)
    reviews.runner.finished_listeners.append(own.review_finished)
    games.end_listeners.append(partial(record_history, tables.games, tables.history))
    return Services(
        tables,
        connections,
        engines,
        work,
        work_admission,
        games,
        accounts,
        analysis,
        lobby,
        reviews,
        training,
        puzzles,
        ChatService(lambda room, line: socketio.emit("chat", line, to=room), tables.chat),
    )


# The whole value, for the command line and the tests (`SERVICES.of(app)`).
SERVICES: Slot[Services] = Slot("services")


def put_in_slots(app: Flask, services: Services) -> None:
    """Each service where its feature's routes and events look for it."""
    SERVICES.put(app, services)
    PROFILE_TABLES.put(app, services.tables)
    RATINGS.put(app, services.tables.ratings)
    PREFERENCES.put(app, services.tables.preferences)
    CONNECTIONS.put(app, services.connections)
    ENGINES.put(app, services.engines)
    WORK.put(app, services.work)
    WORK_ADMISSION.put(app, services.work_admission)
    GAMES.put(app, services.games)
    ACCOUNTS.put(app, services.accounts)
    ACCOUNT_SOURCE.put(app, services.accounts)
    ANALYSIS.put(app, services.analysis)
    LOBBY.put(app, services.lobby)
    REVIEWS.put(app, services.reviews)
    TRAINING.put(app, services.training)
    PUZZLES.put(app, services.puzzles)
    CHAT.put(app, services.chat)


def _game_accounts(tables: Tables, game_id: str) -> dict[str, int]:
    """A game's accounts by colour name, for the own puzzles of its review."""
    stored = tables.games.load_game(game_id)
    return {} if stored is None else accounts_by_color(stored.accounts)


def _build_lobby(
    config: Any, socketio: SocketIO, tables: Tables, games: GameService
) -> LobbyService:
    """The lobby over the games and the store, its rooms told of every game that changes."""
    lobby: LobbyService | None = None

    def watch() -> list[WatchedGame]:
        assert lobby is not None
        return lobby.watch_list()

    rooms = LobbyRooms(socketio, watch)
    lobby = LobbyService(tables.lobby, tables.ratings, games, rooms, config)
    if not tables.lobby.shared:
        tables.lobby.clear_seeks()  # a lone process starting: nobody who held one is connected
    socketio.start_background_task(lobby.keep_alive, socketio.sleep)
    games.notifier = WatchingNotifier(games.notifier, rooms.games_changed)
    return lobby


def _build_reviews(
    app: Flask,
    socketio: SocketIO,
    games: GameService,
    tables: Tables,
    analysis: AnalysisService,
    engines: EnginePool,
) -> ReviewService:
    """The reviews, pushed to each review's room as they run; the queue started."""

    def emit(review_id: str, payload: dict[str, Any]) -> None:
        def send(room: str, said: dict[str, Any]) -> None:
            socketio.emit("review_update", said, to=room)

        push_in_every_language(send, review_id, payload, lambda room: may_reach(socketio, room))

    def headers_of(game: Game) -> dict[str, str]:
        with app.app_context():  # the site's address comes from the app's settings
            return {**pgn_headers(game), "Result": pgn_result(game)}

    reviews = ReviewService(
        games,
        tables.reviews,
        analysis,
        engines,
        review_engine(app.config),
        emit,
        socketio.start_background_task,
        socketio.sleep,
        headers_of,
        float(app.config["REVIEW_QUEUE_SECONDS"]),
        float(app.config["REVIEW_ADDRESS_SECONDS"]),
    )
    reviews.start()
    return reviews
