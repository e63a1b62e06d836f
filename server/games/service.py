"""The game service: every game action goes validate -> store -> apply -> notify under one lock.

`GameService` owns the games in play: it loads them from the store into a cache
(`server.games.cache`, which also holds a lock per game), serialises each game's actions with
its lock (Flask-SocketIO runs a client's events concurrently, so
twenty copies of one move race here and exactly one passes the ply check), commits each change
to the store before the game in memory or any client sees it, and then tells its notifier of the
game and the recorded change event. It knows nothing of Socket.IO or HTTP: it calls down into
the `Notifier` it is given (`server.games.notifier`; the app gives it the transport's rooms). It
also keeps time (a flag check on every action and one scheduled at each running clock's
deadline) and starts the computer's reply whenever it is the computer's turn, including after a
restart (`resume`), and plays a seat's premove the moment its turn comes
(`server.games.premoves`). Two concerns it hands on: whether a client may create a game at all
(`server.games.admission`), and ending the games nobody changed for long, which `resume` does
first (`server.games.abandoned`).

Several processes may share one store (PostgreSQL): a cached game is used only while the store
holds no newer version, a commit that loses the version race to another process is retried on
the reloaded game (which refuses the request cleanly if it no longer applies), and a process
that loads a game from the store arms its clock check and the computer's reply itself, so they
happen whichever process holds the players, even after the process that held them died. A
duplicate reply or check from two processes loses the version race harmlessly.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from chesscore import BLACK, WHITE, Color, Move
from server.engine.pool import EnginePool, default_size
from server.games import play
from server.games.abandoned import Sweeper
from server.games.actions import ACTIONS, RematchPlan
from server.games.admission import Admission
from server.games.cache import GameCache
from server.games.computer import ComputerMover
from server.games.notifier import Notifier
from server.games.play import Change, Event, Game, GameSettings, NewGame
from server.games.premoves import Premoves, premove_change
from server.games.rating import current_ratings, rate_ended
from server.games.scheduler import Scheduler
from server.games.seats import new_game_id
from server.games.stored import (
    StaleVersionError,
    StoredChange,
    header_to_data,
    stored_from_game,
)
from server.games.tables import GameTables
from server.ratings.tables import RatingTables
from server.shared.config import DEFAULTS
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot
from server.shared.tokens import hash_token, hashes_match, new_token

log = logging.getLogger(__name__)

T = TypeVar("T")

# Attempts at a request whose commit lost the version race to another process sharing the store.
CONFLICT_ATTEMPTS = 3


@dataclass(frozen=True)
class Created:
    game: Game
    color: Color
    seat: str
    invite: str | None


@dataclass(frozen=True)
class Done:
    """An action's result: the game after it, the recorded event, a rematch's seats."""

    game: Game
    event: Event
    rematch_seats: dict[Color, str] = field(default_factory=dict)


class GameService:
    def __init__(
        self,
        tables: GameTables,
        ratings: RatingTables,
        *,
        notifier: Notifier,
        engines: EnginePool | None = None,
        spawn: Callable[..., object],
        sleep: Callable[[float], object] = time.sleep,
        computer_delay: float = 0.5,
        clock: Callable[[], float] = time.time,
        cache_size: int = 5000,
        attended: Callable[[str], bool] | None = None,
        limits: Mapping[str, Any] | None = None,
    ) -> None:
        self.tables = tables
        self.ratings = ratings
        self.notifier = notifier
        self.clock = clock
        self.scheduler = Scheduler(spawn, clock)
        # ENGINE_WORKERS, MAX_COMPUTER_GAMES, CREATE_BURST, CREATE_INTERVAL, ABANDON_AFTER
        # (server.shared.config; the app passes its config).
        limits = DEFAULTS if limits is None else limits
        # The engine pool is the composition root's (the reviews and the analysis board share
        # it); a service built alone (tests) starts its own.
        if engines is None:
            engines = EnginePool(int(limits["ENGINE_WORKERS"]) or default_size())
        self.computer = ComputerMover(computer_delay, spawn, sleep, self.play_computer, engines)
        self.admission = Admission(limits)
        self.premoves = Premoves()  # the move each seat queued for its next turn
        self.cache = GameCache(tables, cache_size, self.premoves.forget)
        self.flag_checks: dict[str, float] = {}  # game id -> when its pending flag check runs
        self.flag_lock = threading.Lock()
        # `attended`: whether a player of this process is connected to a game (then the sweep
        # for abandoned games spares it).
        abandon_after = float(limits["ABANDON_AFTER"])
        self.sweeper = Sweeper(self, abandon_after, attended or (lambda game_id: False))
        # Called with each game a change of this process ended (under the game's lock, so
        # they must be quick and must not enter the game's session): the game reviews.
        self.end_listeners: list[Callable[[Game], None]] = []
        # Admits a rated game's rematch (acting account, the other, the acting address) or
        # refuses it: the lobby's rules and limits, given by the composition root
        # (server.lobby.service.LobbyService.admit_rated_rematch).
        self.admit_rated_rematch: Callable[[int | None, int | None, str | None], None] = (
            lambda acting, other, address: None
        )

    # -- loading and locking -------------------------------------------------------------

    def _load_settled(self, game_id: str) -> Game:
        """The loaded game with a clock that ran out settled. A game read from the store may
        have been left by another process (or one that died): its clock check and computer
        reply are armed here, so they happen in this process too."""
        game, fresh = self.cache.load(game_id)
        settled = self._settle_time(game)
        if fresh and not settled:
            self._after_change(game)
        return game

    def _retrying(self, work: Callable[[], T]) -> T:
        """Run `work`, again when its commit lost the race to another process: the retry works
        on the reloaded game, so a move that process already applied is refused as stale."""
        for _ in range(CONFLICT_ATTEMPTS - 1):
            try:
                return work()
            except RequestError as error:
                if error.code != "conflict":
                    raise
        return work()

    @contextmanager
    def session(self, game_id: str) -> Iterator[Game]:
        """Hold the game's lock; a clock that ran out is settled first."""
        with self.cache.lock(game_id):
            try:
                game = self._retrying(lambda: self._load_settled(game_id))
            except RequestError as error:
                # No lock is kept for a game that does not exist, or made-up ids would pile up.
                if error.code == "not_found":
                    self.cache.forget_missing(game_id)
                raise
            yield game

    @contextmanager
    def unloaded(self, game_id: str) -> Iterator[bool]:
        """Hold the game's lock without loading it; whether the game is out of memory, so that
        nobody here watches it. Once released, the lock of such a game is forgotten."""
        with self.cache.lock(game_id):
            yield not self.cache.holds(game_id)
        self.cache.forget_lock(game_id)  # held, a lock counts as in use and would stay

    def exists(self, game_id: str) -> bool:
        try:
            with self.session(game_id):
                return True
        except RequestError as error:
            if error.code != "not_found":
                raise
            return False

    def refresh(self, game_id: str) -> None:
        """Send the game's state again (a seat's connection came or went); a game that no
        longer exists is left alone."""
        try:
            with self.session(game_id) as game:
                self.notifier.refresh(game)
        except RequestError as error:
            if error.code != "not_found":
                raise

    # -- creating and seating -------------------------------------------------------------

    def create(
        self, request: NewGame, client: str | None = None, account: int | None = None
    ) -> Created:
        """Create the game `client` (its address; None: no per-address limits) asked for,
        its seat taken by `account` (a signed-in creator's id, server.accounts)."""
        color = secrets.randbelow(2) if request.color is None else request.color
        settings = request.settings(color, secrets.randbits(31))
        accounts = {} if account is None else {color: account}
        game, seats, invite = self._create_game(settings, (color,), client, accounts)
        return Created(game, color, seats[color], invite)

    def create_paired(
        self, settings: GameSettings, accounts: dict[Color, int] | None = None
    ) -> tuple[Game, dict[Color, str]]:
        """A game between two people, both seated from the start (the lobby pairs them); its
        seat tokens by colour; `accounts` the signed-in players' ids by colour. The lobby
        admits it by its own limits (server.lobby.service)."""
        game, seats, _ = self._create_game(settings, (WHITE, BLACK), None, accounts or {})
        return game, seats

    def _create_game(
        self,
        settings: GameSettings,
        colors: tuple[Color, ...],
        client: str | None,
        accounts: dict[Color, int],
    ) -> tuple[Game, dict[Color, str], str | None]:
        """Create a game of `client` once admitted; seats for `colors` (taken by `accounts`,
        colour -> account id, where signed in), an invitation if the friend's seat is left
        open."""
        with self.admission.admitted(client, settings.computer is not None) as place:
            return self._store_new_game(settings, colors, place, accounts)

    def _store_new_game(
        self,
        settings: GameSettings,
        colors: tuple[Color, ...],
        place: str | None,
        accounts: dict[Color, int],
    ) -> tuple[Game, dict[Color, str], str | None]:
        game = play.new_game(new_game_id(), settings)
        seats = {color: new_token() for color in colors}
        invite = new_token() if settings.opponent == "friend" and len(colors) == 1 else None
        invite_hash = hash_token(invite) if invite else None
        hashes = {color: hash_token(token) for color, token in seats.items()}
        if len(colors) == 2:  # a rematch between friends: both seats are taken from the start
            game.header = replace(game.header, seated=frozenset(colors))
        self.tables.create_game(stored_from_game(game, invite_hash), hashes, accounts)
        # Before the computer's first reply, which queues by its owner.
        self.admission.confirm(place, game.id)
        with self.cache.lock(game.id):
            self.cache.add(game, invite_hash)
            self._after_change(game)
        return game, seats, invite

    def seat_of(self, game_id: str, token: str) -> Color | None:
        """The colour `token` holds in the game, or None."""
        color = self.tables.seat_color(game_id, hash_token(token))
        return None if color is None else int(color)

    def claim_invite(
        self, game_id: str, invite: str, account: int | None = None
    ) -> tuple[Color, str] | None:
        """Give the friend's seat to the invitation's holder (`account`: signed in as it);
        None once it was taken; `both_seats` to the account of the creator's seat (one
        account never plays both sides)."""
        return self._retrying(lambda: self._claim_invite(game_id, invite, account))

    def _claim_invite(
        self, game_id: str, invite: str, account: int | None
    ) -> tuple[Color, str] | None:
        with self.session(game_id) as game:
            if not hashes_match(invite, self.cache.invite_hashes.get(game_id)):
                raise RequestError("forbidden", N_("the invitation token is not this game's"))
            color = 1 - game.settings.creator
            if color in game.header.seated:
                return None
            if (
                account is not None
                and self._seat_accounts(game).get(game.settings.creator) == account
            ):
                raise RequestError(
                    "both_seats", N_("this account holds the other seat of the game")
                )
            token = new_token()
            seat = (color, hash_token(token))
            self.commit(game, play.claim_seat(game, color), seat=seat, seat_account=account)
            return color, token

    def name_friend(self, game_id: str, color: Color, name: str) -> None:
        """Give the invited friend's seat its player's display name, once (play.name_friend);
        for any other seat, or a friend already named, nothing changes."""
        self._retrying(lambda: self._name_friend(game_id, color, name))

    def _name_friend(self, game_id: str, color: Color, name: str) -> None:
        with self.session(game_id) as game:
            change = play.name_friend(game, color, name)
            if change is not None:
                self.commit(game, change)

    def rename_seats(self, seats: list[tuple[str, Color]], name: str) -> None:
        """Show the players of `seats` (game id, colour) as `name` (a deleted account's games,
        server.accounts): rewritten in the store under each game's lock, so no change of
        this process comes between, and the cached copy dropped to be read again."""
        for game_id, color in seats:
            with self.cache.lock(game_id):
                self.tables.rename_seat(game_id, color, name)
                self.cache.forget(game_id)

    def changes_since(self, game: Game, since: int | None) -> list[Event] | None:
        """What a client that saw version `since` missed; None if `since` is not a version."""
        if since is None or not 0 <= since <= game.version:
            return None
        if since == game.version:
            return []
        return self.tables.changes_since(game.id, since)

    # -- actions -------------------------------------------------------------------------

    def move(self, game_id: str, color: Color, ply: int, move: Move | str) -> Done:
        """Play `move`: a `Move`, or SAN text read against the game's position under its lock."""
        return self._retrying(lambda: self._move(game_id, color, ply, move))

    def _move(self, game_id: str, color: Color, ply: int, move: Move | str) -> Done:
        with self.session(game_id) as game:
            if isinstance(move, str):
                move = play.read_san(game, color, ply, move)
            change = play.make_move(game, color, ply, move, self.clock())
            return Done(game, self.commit(game, change))

    def premove(self, game_id: str, color: Color, move: Move | None) -> Done | None:
        """Queue `move` for `color` to play the moment it becomes its turn (None: cancel the
        queued one). On its turn already (the opponent's move crossed the premove), the move is
        played at once, as a move; the Done of that move, else None."""
        return self._retrying(lambda: self._premove(game_id, color, move))

    def _premove(self, game_id: str, color: Color, move: Move | None) -> Done | None:
        with self.session(game_id) as game:
            play.require_playing(game)
            if color == game.settings.computer:
                raise RequestError("forbidden", N_("the computer's seat makes no premoves"))
            if move is not None and game.board.turn == color:
                self.premoves.queue(game_id, color, None)
                change = premove_change(game, color, move, self.clock())
                return Done(game, self.commit(game, change))
            self.premoves.queue(game_id, color, move)
            return None

    def _play_premove(self, game: Game) -> bool:
        """Play the premove queued for the side to move, if any; whether one was played. One
        that is not legal now is dropped and its seat told why."""
        color = game.board.turn
        move = self.premoves.take(game.id, color)
        if move is None:
            return False
        try:
            change = premove_change(game, color, move, self.clock())
        except RequestError as error:
            self.notifier.premove_dropped(game, color, move.uci(), error.message)
            return False
        try:
            self.commit(game, change)
        except RequestError:
            # Another process changed the game first: the premove was for a position now gone.
            log.info("game %s: a premove lost the race to another change", game.id)
            return False
        return True

    def act(
        self,
        game_id: str,
        color: Color,
        action: str,
        kind: str | None = None,
        client: str | None = None,
    ) -> Done:
        """One of `ACTIONS` (server.games.actions) by name; offer/accept/decline name a `kind`.
        `client` is the address acting: a rematch is a new game it creates."""
        return self._retrying(lambda: self._act(game_id, color, action, kind, client))

    def _act(
        self, game_id: str, color: Color, action: str, kind: str | None, client: str | None
    ) -> Done:
        with self.session(game_id) as game:
            now = self.clock()
            planned = ACTIONS.get(action)
            if planned is None:
                raise RequestError(
                    "bad_request", N_("unknown action {action}"), action=repr(action)
                )
            if kind == "rematch" and planned.agree_to_rematch is not None:
                return self._agree_to_rematch(game, color, planned.agree_to_rematch, now, client)
            change = planned.plan(game, color, kind, now)
            return Done(game, self.commit(game, change))

    def _agree_to_rematch(
        self, game: Game, color: Color, agree: RematchPlan, now: float, client: str | None
    ) -> Done:
        """`color` agrees to a rematch (offers or accepts one); once both sides agree, the
        rematch is made: the new game, colours swapped, is created first, and the change
        names it."""
        # Validate with a placeholder id before creating anything, so a refusal creates nothing.
        change = agree(game, color, now, "placeholder")
        if change.header.rematch is None:  # the opponent has yet to agree
            return Done(game, self.commit(game, change))
        creator, seed = 1 - game.settings.creator, secrets.randbits(31)
        white_name, black_name = game.names  # the players swap colours, names follow
        accounts = self._swapped_accounts(game)
        if game.settings.rated:  # before anything is made: a refusal leaves the offer standing
            self.admit_rated_rematch(accounts.get(1 - color), accounts.get(color), client)
        # The players' ratings as they stand now (after this game, if it was rated).
        ratings = current_ratings(self.ratings, accounts, game.settings.clock, now)
        swapped = replace(
            game.settings,
            creator=creator,
            seed=seed,
            names=(black_name, white_name),
            ratings=ratings if any(ratings) else game.settings.ratings[::-1],
        )
        people = tuple(c for c in (WHITE, BLACK) if c != swapped.computer)
        # A rematch is a new game, admitted as any other (by whom: `rematch_client`).
        client = self.admission.rematch_client(game.id, client, swapped.computer is not None)
        rematch, seats, _ = self._create_game(swapped, people, client, accounts)
        event = self.commit(game, agree(game, color, now, rematch.id))
        self.notifier.rematch_made(game, rematch, seats)
        # The caller's seat in the new game is the other colour.
        return Done(game, event, {1 - color: seats[1 - color]})

    def _swapped_accounts(self, game: Game) -> dict[Color, int]:
        """The accounts of the game's seats, colours swapped: a rematch's."""
        return {1 - color: account for color, account in self._seat_accounts(game).items()}

    def _seat_accounts(self, game: Game) -> dict[Color, int]:
        """The accounts that took the game's seats, by colour (as stored)."""
        stored = self.tables.load_game(game.id)
        return {} if stored is None else dict(stored.accounts)

    def play_computer(self, game_id: str, version: int, move: Move) -> None:
        """Play the computer's reply found at `version`; one for an earlier position is dropped."""
        try:
            self._play_computer(game_id, version, move)
        except RequestError as error:
            if error.code != "conflict":
                raise
            # Another process played the same reply (or something else) first.
            log.info("game %s: the computer's reply for version %d lost a race", game_id, version)

    def _play_computer(self, game_id: str, version: int, move: Move) -> None:
        with self.session(game_id) as game:
            if game.version != version or not game.is_playing:
                log.info(
                    "game %s: the computer's reply for version %d thrown away", game_id, version
                )
                return
            color = game.board.turn
            self.commit(game, play.make_move(game, color, game.ply, move, self.clock()))

    # -- committing ------------------------------------------------------------------------

    def commit(
        self,
        game: Game,
        change: Change,
        seat: tuple[int, str] | None = None,
        seat_account: int | None = None,
    ) -> Event:
        """Store `change`, apply it, tell everyone; the caller holds the game's lock (a
        `session`). `seat`: a seat taken with it, by `seat_account` if signed in."""
        event: Event = {"version": game.version + 1, **change.event}
        first_ply = change.keep_plies if change.keep_plies is not None else game.ply
        stored = StoredChange(
            version=game.version + 1,
            header=header_to_data(change.header),
            event=event,
            active=change.header.status == "playing",
            added=[(first_ply + index, record) for index, record in enumerate(change.added)],
            keep_plies=change.keep_plies,
            seat=seat,
            seat_account=seat_account,
        )
        try:
            self.tables.commit(game.id, stored)
        except StaleVersionError as error:
            # Another process changed the game: forget our copy, the next request reloads it.
            self.cache.forget(game.id)
            raise RequestError(
                "conflict", N_("the game changed meanwhile; join again and retry")
            ) from error
        was_playing = game.is_playing
        game.apply(change)
        if change.keep_plies is not None:
            self.premoves.forget(game.id)  # a takeback: the premoves were for another position
        self.notifier.changed(game, event)
        self._after_change(game)
        if was_playing and not game.is_playing:
            self._ended(game)
            self._rate(game)
        return event

    def _ended(self, game: Game) -> None:
        for listener in self.end_listeners:
            try:
                listener(game)
            except Exception:
                log.exception("a listener of game %s's end failed", game.id)

    def _rate(self, game: Game) -> None:
        """Rate a rated game that just ended (server.games.rating) and show the new ratings
        in its state. The ratings are stored once by the store whatever happens here; should
        the change that shows them lose a race to another process, the game is not shown its
        ratings (logged), which only that game's page misses."""
        try:
            change = rate_ended(self.ratings, game, self.clock())
            if change is not None:
                self.commit(game, change)
        except Exception:
            log.exception("game %s: rating its end failed", game.id)

    def _settle_time(self, game: Game) -> bool:
        """Commit the flag of a clock that ran out; whether there was one."""
        change = play.expire(game, self.clock())
        if change is not None:
            self.commit(game, change)
        return change is not None

    def _after_change(self, game: Game) -> None:
        """Arm the flag check and start the computer's reply when they are due."""
        # Every change makes a search in flight for this game stale (takeback, resignation...);
        # only a game against the computer has one (its pool's locks, spared for the others).
        if game.settings.computer is not None:
            self.computer.cancel(game.id)
        if not game.is_playing:
            self.premoves.forget(game.id)
            self.admission.computer_games.finish(game.id)
            return
        if self._play_premove(game):
            return  # its own commit armed what comes next
        self._arm_flag_check(game)
        if game.board.turn == game.settings.computer:
            self.admission.computer_games.touch(game.id)
            level = game.settings.level or 1
            seed = game.settings.seed + game.ply
            moves = [record.uci for record in game.moves]
            start = game.settings.start_fen
            client = self.admission.computer_games.owner(game.id)
            self.computer.request(game.id, game.version, start, moves, level, seed, client)

    def _arm_flag_check(self, game: Game) -> None:
        """Make sure a check is scheduled no later than the running clock's deadline.

        One pending check per game at most: when it fires, `check_time` arms the next one, so
        the scheduler holds one entry per game with a running clock, not one per move."""
        deadline = game.header.clock.deadline() if game.header.clock else None
        if deadline is None:
            return
        with self.flag_lock:
            pending = self.flag_checks.get(game.id)
            if pending is not None and pending <= deadline:
                return
            self.flag_checks[game.id] = deadline
        game_id = game.id
        self.scheduler.schedule(deadline, lambda: self.check_time(game_id, deadline))

    def check_time(self, game_id: str, deadline: float) -> None:
        with self.flag_lock:
            if self.flag_checks.get(game_id) == deadline:
                del self.flag_checks[game_id]
        # Entering the session settles a clock that ran out; otherwise arm the next check.
        with self.session(game_id) as game:
            if game.is_playing:
                self._arm_flag_check(game)

    # -- starting and stopping -------------------------------------------------------------

    def resume(self) -> None:
        """After a start: end the games abandoned meanwhile (most without loading them), then
        settle clocks, re-arm timers and restart the computer's pending replies of the rest;
        and sweep for abandoned games from now on (server.games.abandoned)."""
        handled = self.sweeper.sweep()
        for game_id in self.tables.active_game_ids():
            if game_id in handled:
                continue
            try:
                # Loading a game from the store settles it and arms what is due (_load_settled).
                with self.session(game_id):
                    pass
            except Exception:
                log.exception("could not resume game %s", game_id)
        self.sweeper.schedule()

    def close(self) -> None:
        self.scheduler.stop()
        self.computer.close()


GAMES: Slot[GameService] = Slot("game service")
