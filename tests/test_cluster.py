"""Several server processes sharing PostgreSQL and Redis, behind nginx: games survive them all.

The tests start everything themselves (deploy/cluster.py's functions): one PostgreSQL and one
Redis for the module, and per test two `python -m server` processes and nginx with `ip_hash` in
front. They check that a game is played with its players on different processes, that a
process killed with -9 loses no acknowledged move while its clients come back through the
balancer, that the computer's reply is played by whichever process holds the game, and (the
soak) that many games with connections dropped at random end with no lost, doubled or illegal
move. Without PostgreSQL, Redis or nginx the tests are skipped, saying what is missing; with
CI=true a missing one is a failure. Run them with `pytest -m cluster`; the soak plays for
CHESS_SOAK_SECONDS (100 by default, to keep the suite under ~3 minutes; set it higher for a
longer soak) with CHESS_SOAK_GAMES tables (12).
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import socket
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess
import pytest
from socketio import exceptions as socketio_errors

from chesscore import Board
from deploy import cluster
from server.games.play import MoveRecord
from server.games.stored import StaleVersionError, StoredChange, StoredGame
from server.tables import Tables
from tests.support.game_client import GameClient, api_state, create_game, invite_token
from tests.support.live_server import LiveServer
from tests.support.stored import HEADER

if TYPE_CHECKING:
    # Imported where used: without psycopg installed the module must still load, to skip.
    pass

pytestmark = [pytest.mark.cluster, pytest.mark.server]

# Morphy's Opera game: 33 plies to mate, with castling, captures and checks.
OPERA_GAME = (
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 "
    "O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"
)


def uci_line(sans: str) -> list[str]:
    board = chess.Board()
    return [board.push_san(san).uci() for san in sans.split()]


OPERA_UCI = uci_line(OPERA_GAME)


@dataclass
class Backends:
    folder: Path
    database: str
    redis: str


@dataclass
class Cluster:
    servers: list[LiveServer]
    balancer: str

    @property
    def urls(self) -> list[str]:
        return [server.url for server in self.servers]


@pytest.fixture(scope="module")
def backends() -> Iterator[Backends]:
    """PostgreSQL and Redis for the module: skipped without them, failed without them on CI."""
    missing = cluster.missing_programs()
    if missing:
        message = f"cluster tests need {', '.join(missing)} (apt-get install postgresql"
        message += " redis-server nginx; pip install 'psycopg[binary]' redis)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    # Not under pytest's tmp_path: as root, PostgreSQL runs as `postgres`, who must reach it.
    folder = Path(tempfile.mkdtemp(prefix="chess-cluster-"))
    folder.chmod(0o755)
    try:
        database = cluster.start_postgres(folder, cluster.free_port())
        redis = cluster.start_redis(folder, cluster.free_port())
        yield Backends(folder, database, redis)
    finally:
        cluster.stop_by_pid_file(folder / "redis.pid")
        cluster.stop_postgres(folder)
        shutil.rmtree(folder, ignore_errors=True)


def start_cluster(
    backends: Backends, folder: Path, delays: tuple[float, float] = (0.2, 0.2)
) -> Cluster:
    servers = []
    for index, delay in enumerate(delays, start=1):
        environment = cluster.server_environment(
            backends.folder, index, backends.database, backends.redis
        )
        instance = folder / f"server-{index}"
        environment.update(CHESS_INSTANCE_PATH=str(instance), CHESS_COMPUTER_DELAY=str(delay))
        servers.append(LiveServer(instance_path=instance, env=environment).start())
    ports = [server.port for server in servers]
    balancer = cluster.start_nginx(folder / "nginx", cluster.free_port(), ports)
    return Cluster(servers, balancer)


def stop_cluster(running: Cluster, folder: Path) -> None:
    cluster.stop_by_pid_file(folder / "nginx" / "nginx.pid")
    for server in running.servers:
        server.stop()


@pytest.fixture
def two_processes(backends: Backends, tmp_path: Path) -> Iterator[Cluster]:
    running = start_cluster(backends, tmp_path)
    yield running
    stop_cluster(running, tmp_path)


def move_change(version: int, ply: int, uci: str) -> StoredChange:
    event = {"version": version, "type": "move", "uci": uci}
    return StoredChange(version, HEADER, event, True, [(ply, MoveRecord(uci, uci))])


def new_stored_game(store: Tables) -> str:
    game_id = secrets.token_hex(6)
    store.games.create_game(
        StoredGame(game_id, {"opponent": "friend"}, HEADER, 0, []), {0: "hash-w"}
    )
    return game_id


@pytest.mark.parametrize(
    "duplicate",
    [move_change(1, 1, "d2d4"), move_change(2, 0, "d2d4")],
    ids=["same_version", "same_ply"],
)
def test_postgres_refuses_a_stale_change(backends: Backends, duplicate: StoredChange) -> None:
    from tests.support.stored import postgres_tables

    store = postgres_tables(backends.database)
    game_id = new_stored_game(store)
    store.games.commit(game_id, move_change(1, 0, "e2e4"))
    with pytest.raises(StaleVersionError):
        store.games.commit(game_id, duplicate)
    loaded = store.games.load_game(game_id)
    assert loaded is not None and loaded.version == 1
    assert [record.uci for record in loaded.moves] == ["e2e4"]
    assert [change["uci"] for change in store.games.changes_since(game_id, 0)] == ["e2e4"]
    # A copy at the stored version reads nothing; an older one reads the game.
    assert store.games.load_if_changed(game_id, 1) is None
    changed = store.games.load_if_changed(game_id, 0)
    assert changed is not None and changed.version == 1 and changed.moves == loaded.moves
    store.close()


def test_postgres_takebacks_and_seats(backends: Backends) -> None:
    """The changes that are more than a move: a takeback drops plies (and a stale one drops
    none), a claimed seat is stored, and a seat already taken refuses the whole change."""
    from tests.support.stored import postgres_tables

    store = postgres_tables(backends.database)
    game_id = new_stored_game(store)
    for version, uci in enumerate(["e2e4", "e7e5", "g1f3"], start=1):
        store.games.commit(game_id, move_change(version, version - 1, uci))
    takeback = StoredChange(4, HEADER, {"version": 4, "type": "takeback"}, True, [], keep_plies=1)

    def stored() -> tuple[int, list[str]]:
        loaded = store.games.load_game(game_id)
        assert loaded is not None
        return loaded.version, [record.uci for record in loaded.moves]

    with pytest.raises(StaleVersionError):
        store.games.commit(game_id, replace(takeback, version=3))
    assert stored() == (3, ["e2e4", "e7e5", "g1f3"])
    store.games.commit(game_id, takeback)
    assert stored() == (4, ["e2e4"])
    claim = StoredChange(5, HEADER, {"version": 5, "type": "seat"}, True, [], seat=(1, "hash-b"))
    store.games.commit(game_id, claim)
    assert store.games.seat_color(game_id, "hash-b") == 1
    with pytest.raises(StaleVersionError):
        store.games.commit(game_id, replace(claim, version=6, seat=(1, "hash-x")))
    assert stored() == (5, ["e2e4"]) and store.games.seat_color(game_id, "hash-x") is None
    assert [change["version"] for change in store.games.changes_since(game_id, 2)] == [3, 4, 5]
    store.close()


def test_two_stores_racing_for_one_position_store_one_move(backends: Backends) -> None:
    from tests.support.stored import postgres_tables

    # Two stores stand for two processes; twenty threads each try a different first move.
    stores = [postgres_tables(backends.database), postgres_tables(backends.database)]
    game_id = new_stored_game(stores[0])
    candidates = ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a2a4", "b2b4"]
    outcomes: list[str] = []
    start = threading.Barrier(20)

    def attempt(index: int) -> None:
        uci = candidates[index % len(candidates)]
        start.wait()
        try:
            stores[index % 2].games.commit(game_id, move_change(1, 0, uci))
            outcomes.append(uci)
        except StaleVersionError:
            outcomes.append("stale")

    threads = [threading.Thread(target=attempt, args=(index,)) for index in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [uci for uci in outcomes if uci != "stale"]
    assert len(outcomes) == 20 and len(applied) == 1
    loaded = stores[1].games.load_game(game_id)
    assert loaded is not None and loaded.version == 1
    assert [record.uci for record in loaded.moves] == applied
    for store in stores:
        store.close()


def established_connections(port: int) -> int:
    """Open TCP connections to a local listening port (Linux's /proc/net/tcp*)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] == "01":  # 01: ESTABLISHED
                    count += 1
    return count


def play_line(
    players: dict[str, GameClient],
    watchers: list[GameClient],
    game: str,
    ucis: list[str],
    first_ply: int,
) -> list[tuple[int, str]]:
    """Play `ucis` from `first_ply`, white and black in turn; every watcher sees each move."""
    acknowledged = []
    for ply, uci in enumerate(ucis, start=first_ply):
        reply = players["white" if ply % 2 == 0 else "black"].move(game, ply, uci)
        assert reply["ok"], (ply, uci, reply)
        acknowledged.append((ply, uci))
        for client in watchers:
            seen = client.wait_version(reply["version"])
            assert seen["ply"] >= ply + 1
    return acknowledged


def test_a_whole_game_with_the_players_on_two_processes(two_processes: Cluster) -> None:
    first, second = two_processes.urls
    created = create_game(first, opponent="friend", color="white")
    game = created["game"]
    white = GameClient(first)
    white.join(game, seat=created["seat"])
    black = GameClient(second)
    joined = black.join(game, invite=invite_token(created))
    assert joined["role"] == "black"
    spectator = GameClient(second)
    assert spectator.join(game)["role"] == "spectator"
    clients = [white, black, spectator]
    play_line({"white": white, "black": black}, clients, game, OPERA_UCI, 0)
    final = spectator.wait_for(lambda state: state["status"] == "finished")
    assert [move["uci"] for move in final["moves"]] == OPERA_UCI
    assert final["outcome"]["termination"] == "checkmate"
    # The spectator on the second process saw every move the first process committed.
    seen_plies = {state["ply"] for state in spectator.states}
    assert seen_plies >= set(range(1, len(OPERA_UCI) + 1))
    assert spectator.call("move", {"game": game, "ply": 33, "uci": "a2a3"})["ok"] is False
    for url in (first, second):
        assert api_state(url, game)["fen"] == final["fen"]
    # A chat line said on the first process is read from the store by a page that opens the
    # chat later on the second.
    white.call("chat_join", {"game": game})
    assert white.call("chat_say", {"game": game, "phrase": "good_game"})["ok"]
    late = GameClient(second)
    late.join(game, seat=joined["seat"])
    lines = late.call("chat_join", {"game": game})["lines"]
    assert lines == [{"phrase": "good_game", "by": "white", "name": None}]
    for client in [*clients, late]:
        client.close()


def test_a_killed_process_loses_no_acknowledged_move(two_processes: Cluster) -> None:
    balancer = two_processes.balancer
    created = create_game(balancer, opponent="friend", color="white")
    game = created["game"]
    white = GameClient(balancer)
    white.join(game, seat=created["seat"])
    black = GameClient(balancer)
    black_seat = black.join(game, invite=invite_token(created))["seat"]
    seats = {"white": created["seat"], "black": black_seat}
    players = {"white": white, "black": black}
    acknowledged = play_line(players, [white, black], game, OPERA_UCI[:12], 0)
    # Every loopback client hashes to the same process: the one holding their connections.
    holder = next(s for s in two_processes.servers if established_connections(s.port) >= 2)
    version = white.states[-1]["version"]
    holder.kill()
    for client in (white, black):
        assert client.disconnected.wait(15), "the balancer kept a dead process's connection"
    players = {color: GameClient(balancer) for color in seats}
    for color, client in players.items():
        reply = client.join(game, seat=seats[color], since=version)
        assert reply["role"] == color
        assert [move["uci"] for move in reply["state"]["moves"]] == [u for _, u in acknowledged]
    watchers = list(players.values())
    acknowledged += play_line(players, watchers, game, OPERA_UCI[12:], 12)
    final = players["black"].wait_for(lambda state: state["status"] == "finished")
    assert [move["uci"] for move in final["moves"]] == [uci for _, uci in acknowledged]
    assert final["outcome"]["winner"] == "white"
    for client in watchers:
        client.close()


def test_the_computer_replies_from_whichever_process_holds_the_game(
    backends: Backends, tmp_path: Path
) -> None:
    # The second process would wait long before replying; it is killed before it does, and the
    # first, whose copy of the game predates the move, must play it when the player comes back.
    running = start_cluster(backends, tmp_path, delays=(0.1, 60.0))
    try:
        first, second = running.urls
        created = create_game(first, opponent="computer", color="white", level=1)
        game = created["game"]
        player = GameClient(second)
        player.join(game, seat=created["seat"])
        reply = player.move(game, 0, "e2e4")
        assert reply["ok"], reply
        running.servers[1].kill()
        player = GameClient(first)
        player.join(game, seat=created["seat"])
        answered = player.wait_for(lambda state: state["ply"] == 2)
        assert answered["moves"][0]["uci"] == "e2e4"
        assert answered["turn"] == "white"
        player.close()
    finally:
        stop_cluster(running, tmp_path)


# -- the soak ------------------------------------------------------------------------------------

SOAK_SECONDS = float(os.environ.get("CHESS_SOAK_SECONDS", "100"))
SOAK_GAMES = int(os.environ.get("CHESS_SOAK_GAMES", "12"))
MOVE_PAUSE = 0.25  # seconds between the moves of one game: about four moves a second each
DROP_CHANCE = 0.06  # per move, one of the game's connections is dropped and opened again
ANSWER_SECONDS = 5.0


@dataclass
class Seat:
    color: str
    token: str
    client: GameClient


@dataclass
class PlayedGame:
    """What the soak's clients know of one game, to compare with what the store kept."""

    id: str
    acknowledged: dict[int, str]  # ply -> uci, answered {"ok": true}
    unanswered: dict[int, set[str]]  # ply -> ucis sent whose answer was lost with a connection
    refusals: list[dict[str, Any]]


def newest(client: GameClient) -> dict[str, Any]:
    with client.condition:
        return max(client.states, key=lambda state: state["version"])


def random_move(state: dict[str, Any], rng: random.Random) -> str:
    origin = rng.choice(sorted(state["dests"]))
    target = rng.choice(state["dests"][origin])
    promotions = (state.get("promotions") or {}).get(origin, [])
    return origin + target + (rng.choice("qrbn") if target in promotions else "")


def drop(client: GameClient) -> None:
    """Cut the connection's TCP stream, as a lost network does (no Socket.IO goodbye)."""
    websocket = client.client.eio.ws
    if websocket is not None and websocket.sock is not None:
        with contextlib.suppress(OSError):
            websocket.sock.shutdown(socket.SHUT_RDWR)
    client.disconnected.wait(ANSWER_SECONDS)
    with contextlib.suppress(socketio_errors.SocketIOError, OSError):
        client.client.disconnect()  # already gone is what we want


class SoakTable:
    """One thread's games, one after another: white and black on different processes (or the
    balancer), a spectator, random legal moves, connections dropped at random."""

    def __init__(self, urls: list[str], index: int, deadline: float) -> None:
        self.urls = urls
        self.rng = random.Random(index)
        self.deadline = deadline
        self.games: list[PlayedGame] = []
        self.error: str | None = None

    def run(self) -> None:
        try:
            while time.monotonic() < self.deadline:
                self.play_one()
        except BaseException:  # reported by the test
            self.error = traceback.format_exc()

    def connect(self, game: str, token: str | None, since: int | None) -> GameClient:
        client = GameClient(self.rng.choice(self.urls))
        fields: dict[str, Any] = {"since": since} if since is not None else {}
        if token is not None:
            fields["seat"] = token
        client.join(game, **fields)
        return client

    def play_one(self) -> None:
        created = create_game(self.rng.choice(self.urls), opponent="friend", color="white")
        game = created["game"]
        white = self.connect(game, created["seat"], None)
        black = GameClient(self.rng.choice(self.urls))
        black_token = black.join(game, invite=invite_token(created))["seat"]
        seats = {"white": Seat("white", created["seat"], white)}
        seats["black"] = Seat("black", black_token, black)
        spectator = Seat("spectator", "", self.connect(game, None, None))
        played = PlayedGame(game, {}, {}, [])
        self.games.append(played)
        state = newest(white)
        while state["status"] == "playing" and time.monotonic() < self.deadline:
            self.move(played, seats[state["turn"]], state)
            if self.rng.random() < DROP_CHANCE:
                self.reconnect(game, self.rng.choice([*seats.values(), spectator]))
            time.sleep(MOVE_PAUSE)
            state = self.settle(game, [*seats.values(), spectator])
        for seat in (*seats.values(), spectator):
            seat.client.close()

    def move(self, played: PlayedGame, seat: Seat, state: dict[str, Any]) -> None:
        state = seat.client.wait_version(state["version"])  # the mover's copy has its dests
        uci = random_move(state, self.rng)
        ply = state["ply"]
        payload = {"game": played.id, "ply": ply, "uci": uci}
        if self.rng.random() < DROP_CHANCE:
            # The connection dies while the move is on its way: its answer may be lost.
            threading.Timer(self.rng.uniform(0, 0.01), drop, (seat.client,)).start()
        try:
            reply = seat.client.client.call("move", payload, timeout=ANSWER_SECONDS)
        except socketio_errors.SocketIOError:
            played.unanswered.setdefault(ply, set()).add(uci)
            return
        if reply["ok"]:
            played.acknowledged[ply] = uci
        else:
            played.refusals.append({"ply": ply, "uci": uci, **reply})

    def reconnect(self, game: str, seat: Seat) -> None:
        since = newest(seat.client)["version"]
        drop(seat.client)
        seat.client = self.connect(game, seat.token or None, since)

    def settle(self, game: str, seats: list[Seat]) -> dict[str, Any]:
        """The newest state, once every connection has it (a dead one is opened again)."""
        for seat in seats:
            if not seat.client.connected:
                self.reconnect(game, seat)
        version = max(newest(seat.client)["version"] for seat in seats)
        for seat in seats:
            seat.client.wait_version(version)
        return max((newest(seat.client) for seat in seats), key=lambda state: state["version"])


def check_game(url: str, played: PlayedGame) -> None:
    """The stored move list is legal, holds every acknowledged move, and nothing else but
    moves whose answer was lost; chesscore and python-chess agree on where it leads."""
    stored = api_state(url, played.id)
    moves = [move["uci"] for move in stored["moves"]]
    board, oracle = Board(), chess.Board()
    for ply, uci in enumerate(moves):
        assert chess.Move.from_uci(uci) in oracle.legal_moves, (played.id, ply, uci)
        oracle.push_uci(uci)
        board.push_uci(uci)
        assert uci == played.acknowledged.get(ply) or uci in played.unanswered.get(ply, ()), (
            played.id,
            ply,
            uci,
        )
    for ply, uci in played.acknowledged.items():
        assert ply < len(moves) and moves[ply] == uci, (played.id, ply, uci, "lost")
    assert stored["fen"] == board.fen() == oracle.fen()
    assert played.refusals == [], played.refusals


def test_soak_with_connections_dropped_at_random(two_processes: Cluster) -> None:
    urls = [*two_processes.urls, two_processes.balancer]
    deadline = time.monotonic() + SOAK_SECONDS
    tables = [SoakTable(urls, index, deadline) for index in range(SOAK_GAMES)]
    threads = [threading.Thread(target=table.run) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(SOAK_SECONDS + 120)
    assert [table.error for table in tables] == [None] * len(tables)
    played = [game for table in tables for game in table.games]
    unanswered = sum(len(game.unanswered) for game in played)
    print(
        f"soak: {len(played)} games, {sum(len(g.acknowledged) for g in played)} moves acknowledged,"
        f" {unanswered} answers lost with their connection"
    )
    assert sum(len(game.acknowledged) for game in played) > SOAK_GAMES * 20
    for game in played:
        check_game(two_processes.urls[0], game)
