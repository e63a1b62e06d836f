"""The lobby service: open challenges, quick pairing and the games to watch, over the store.

Every seek and pairing wait lives in the store (`LobbyTables.add_seek` and the rest, each one
atomic), so the processes sharing a PostgreSQL store share one lobby; the service itself keeps
no lobby state but the per-address buckets. A visitor (one connection, `owner`) holds one seek
or one wait at a time: a new one replaces the old (the reply names what it replaced), and
leaving the lobby (disconnecting) withdraws it. Each address may hold `LOBBY_PER_ADDRESS`
entries at once and create or take them at `LOBBY_BURST` at once, then one every
`LOBBY_INTERVAL` seconds. A game the lobby makes has both seats taken from the start; the
taker's seat comes back to the caller, the waiting side's goes to its connection alone through
the notifier. Each process beats in the store every BEAT_SECONDS; the seeks of a process not
heard from for LEASE_SECONDS (it died, and its connections with it) are removed by the next
beat of any other. The games are admitted by these limits, not charged to the game service's
creation bucket: a pairing is made by two visitors, and the one who happens to complete it
should not pay for both.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from chesscore import BLACK, WHITE, Board, Color
from chesscore.ratings import PlayerRating
from server.accounts.sightings import Sightings
from server.games.play import GameSettings
from server.games.rating import game_speed_of, shown_rating
from server.games.service import GameService
from server.lobby.notifier import LobbyNotifier
from server.lobby.pairing import choose_partner, pairs_due
from server.lobby.seeks import (
    PAIR,
    SEEK,
    UNTIMED,
    Entry,
    Member,
    PairRequest,
    Seat,
    Seek,
    SeekRequest,
    clock_of,
    draw_colors,
    entry_from_body,
    new_seek_id,
    seek_from_stored,
    seek_to_body,
)
from server.lobby.tables import LobbyTables, OwnSeekError, SeekLimitError, StoredSeek
from server.lobby.watch import SCANNED, WatchedGame, make_watch_list, names_in_play
from server.ratings.tables import RatingTables
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_, RequestError
from server.shared.names import is_look_alike, make_anonymous_name
from server.shared.slots import Slot

log = logging.getLogger(__name__)

# Open challenges listed at most (the oldest first); more stay stored and show as others go.
MAX_LISTED = 200
WATCHED = 30
# A process's heartbeat in the store, and how long it may miss before its seeks are removed.
BEAT_SECONDS = 10.0
LEASE_SECONDS = 30.0


DAY = 24 * 3600.0
SAME_PLAYER = N_(
    "you cannot play a rated game against an account seen from your connection or your browser"
    " in the last day"
)


def no_reserved_names(name: str) -> bool:
    """No account holds a name (until accounts exist): `LobbyService.reserved_names`."""
    return False


class LobbyService:
    def __init__(
        self,
        tables: LobbyTables,
        ratings: RatingTables,
        games: GameService,
        notifier: LobbyNotifier,
        limits: Mapping[str, Any],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.ratings = ratings
        self.games = games
        self.notifier = notifier
        self.clock = clock
        # LOBBY_BURST, LOBBY_INTERVAL, LOBBY_PER_ADDRESS (server.shared.config).
        self.requests = AddressBuckets(int(limits["LOBBY_BURST"]), float(limits["LOBBY_INTERVAL"]))
        self.per_address = int(limits["LOBBY_PER_ADDRESS"])
        self.same_opponent = int(limits.get("RATED_SAME_OPPONENT_PER_DAY", 0))
        self.quiet_after = float(limits["TV_QUIET_AFTER"])  # server.lobby.watch
        self.host = secrets.token_hex(8)  # this process, in the seeks it stores
        # The connections of this process that stored a seek or wait: only theirs are looked
        # for in the store when a connection closes (most never enter the lobby). A seek taken
        # meanwhile leaves its owner here until it leaves: one needless delete, no harm.
        self.holders: set[str] = set()
        # The accounts' hook (issue 27 builds server/accounts/): whether a display name reads
        # like an account's name, its `skeleton` (server.shared.names) looked up in the accounts'
        # store. No accounts yet: no name is reserved.
        self.reserved_names: Callable[[str], bool] = no_reserved_names
        # Where accounts were seen (server.accounts.sightings), given by the composition root;
        # None: rated games are not checked for one person behind two accounts.
        self.sightings: Sightings | None = None
        self.beat()

    # -- this process's lease -------------------------------------------------------------

    def beat(self) -> None:
        """Tell the store this process is alive; remove the seeks of processes that are not."""
        now = self.clock()
        removed = self.tables.beat(self.host, now, now - LEASE_SECONDS)
        if removed:
            self.notifier.seeks_removed(removed)

    def keep_alive(self, sleep: Callable[[float], object]) -> None:
        """Beat every BEAT_SECONDS, for as long as the process runs (a background task)."""
        while True:
            sleep(BEAT_SECONDS)
            try:
                self.beat()
                self.pair_waiting()
            except Exception:
                log.exception("the lobby's heartbeat failed; trying again")

    # -- reading ---------------------------------------------------------------------------

    def seeks(self) -> list[Seek]:
        return [seek_from_stored(stored) for stored in self.tables.list_seeks(MAX_LISTED)]

    def watch_list(self) -> list[WatchedGame]:
        rows = self.tables.ongoing_games(SCANNED)
        return make_watch_list(rows, WATCHED, self.clock(), self.quiet_after)

    # -- seeks -----------------------------------------------------------------------------

    def create_seek(
        self, owner: str, address: str, request: SeekRequest, member: Member | None = None
    ) -> tuple[Seek, list[str]]:
        """List a new open challenge of `owner` (signed in as `member`, if at all); the ids of
        the entries it replaced."""
        self.requests.take(address, N_("lobby requests"))
        if request.rating_range is not None and member is None:
            raise RequestError("not_signed_in", N_("sign in to give a challenge a rating range"))
        entry = self._terms(request.control, request.name, request.rated, member)
        entry = replace(
            entry,
            seen=self._seen(member, address, request.rated),
            capped=self._capped(member, request.rated),
            color=request.color,
            assisted=request.assisted and not request.rated,
            rating_range=request.rating_range,
        )
        stored = self._entry(SEEK, owner, address, request.control, entry)
        replaced = self._limited(lambda: self.tables.add_seek(stored, self.per_address))
        self.holders.add(owner)
        if replaced:
            self.notifier.seeks_removed(replaced)
        seek = seek_from_stored(stored)
        self.notifier.seek_added(seek)
        return seek, replaced

    def cancel(self, owner: str, seek_id: str | None = None) -> list[str]:
        """Withdraw `owner`'s seek or wait (`seek_id`, or any); the ids withdrawn."""
        removed = [seek.id for seek in self.tables.remove_seeks(owner, seek_id)]
        if removed:
            self.notifier.seeks_removed(removed)
        return removed

    def leave(self, owner: str) -> None:
        """`owner` left the lobby (its connection closed): what it held is withdrawn."""
        if owner in self.holders:
            self.holders.discard(owner)
            self.cancel(owner)

    def accept(
        self,
        taker: str,
        address: str,
        seek_id: str,
        name: str | None,
        member: Member | None = None,
    ) -> Seat:
        """`taker` (signed in as `member`, if at all) takes the open challenge `seek_id`: a
        new game; the taker's seat."""
        self.requests.take(address, N_("lobby requests"))
        # The terms are checked before the seek is taken, so a refusal leaves it listed.
        listed = [seek for seek in self.tables.list_seeks(MAX_LISTED) if seek.id == seek_id]
        seen = self._seen(member, address, True)
        taker_entry = self._taker_terms(listed[0], name, member, seen) if listed else None
        try:
            stored = self.tables.take_seek(seek_id, taker)
        except OwnSeekError:
            raise RequestError(
                "not_allowed", N_("this is your own challenge: wait for someone to take it")
            ) from None
        if stored is None:
            raise RequestError(
                "not_found",
                N_("challenge {seek_id} is gone: taken or withdrawn"),
                seek_id=repr(seek_id),
            )
        replaced = [seek.id for seek in self.tables.remove_seeks(taker)]
        self.notifier.seeks_removed([stored.id, *replaced])
        seek = seek_from_stored(stored)
        if taker_entry is None:  # stored past the MAX_LISTED shown: checked once taken
            taker_entry = self._taker_terms(stored, name, member, seen)
        owner_color, taker_color = draw_colors(seek.color, secrets.randbelow(2))
        return self._start(stored, owner_color, taker_color, taker_entry)

    def _taker_terms(
        self, stored: StoredSeek, name: str | None, member: Member | None, seen: tuple[str, ...]
    ) -> Entry:
        """The taker's entry for the seek `stored`, or the refusal: a rated seek takes a
        signed-in player of another account not seen where its owner was (`seen`: the
        taker's sightings), a range a rating inside it."""
        seek = entry_from_body(stored.body)
        if seek.rated and member is None:
            raise RequestError("not_signed_in", N_("sign in to play a rated game"))
        if member is not None and member.id == seek.account:
            raise RequestError(
                "not_allowed", N_("this is your own challenge: wait for someone to take it")
            )
        if seek.rated and set(seek.seen) & set(seen):
            raise RequestError("same_player", SAME_PLAYER)
        if seek.rated and member is not None and seek.account is not None:
            self._check_opponent(member.id, seek.account)
        entry = self._terms(stored.control or None, name, seek.rated, member)
        if seek.rating_range is not None:
            low, high = seek.rating_range
            if entry.rating is None or not low <= entry.rating.rating <= high:
                if entry.rating is None:
                    said = N_("this challenge is for ratings {low} to {high}")
                else:
                    said = N_("this challenge is for ratings {low} to {high}; yours is {rating}")
                rating = None if entry.rating is None else entry.rating.rating
                raise RequestError("out_of_range", said, low=low, high=high, rating=rating)
        return entry

    # -- quick pairing ---------------------------------------------------------------------

    def pair(
        self, owner: str, address: str, request: PairRequest, member: Member | None = None
    ) -> tuple[Seat | None, list[str]]:
        """Pair `owner` (signed in as `member`, if at all) with a visitor waiting for the same
        control and terms, the nearest rating first (server.lobby.pairing), and return its
        seat; or make it wait (None). Second, the ids of the entries this replaced."""
        self.requests.take(address, N_("lobby requests"))
        entry = self._terms(request.control, request.name, request.rated, member)
        # A casual quick game is assisted, as it always was; a rated one never is.
        entry = replace(
            entry,
            assisted=not request.rated,
            seen=self._seen(member, address, request.rated),
            capped=self._capped(member, request.rated),
        )
        wait = self._entry(PAIR, owner, address, request.control, entry)

        def choose(new: StoredSeek, waiting: list[StoredSeek]) -> StoredSeek | None:
            return choose_partner(new, waiting, self.clock())

        partner, replaced = self._limited(
            lambda: self.tables.pair_or_wait(wait, self.per_address, choose)
        )
        if replaced:
            self.notifier.seeks_removed(replaced)
        if partner is None:
            self.holders.add(owner)
            return None, replaced
        partner_color, own_color = draw_colors(None, secrets.randbelow(2))
        return self._start(partner, partner_color, own_color, entry_from_body(wait.body)), replaced

    def pair_waiting(self) -> None:
        """Pair the waits whose windows have widened enough since they came (each heartbeat):
        without it two players far apart would wait until someone else came."""
        now = self.clock()
        for waiting, other in self.tables.take_due_pairs(lambda waits: pairs_due(waits, now)):
            waiting_color, other_color = draw_colors(None, secrets.randbelow(2))
            seat = self._start(waiting, waiting_color, other_color, entry_from_body(other.body))
            self.notifier.paired(other.owner, seat)

    # -- fair play (server.accounts.sightings) ---------------------------------------------

    def _seen(self, member: Member | None, address: str, rated: bool) -> tuple[str, ...]:
        """`member` (if signed in) is seen now from `address`; where its account was seen
        lately, for a rated entry (none for a casual one)."""
        if member is None or self.sightings is None:
            return ()
        self.sightings.seen(member.id, address)
        return tuple(sorted(self.sightings.marks_of(member.id))) if rated else ()

    def admit_rated_rematch(
        self, acting: int | None, other: int | None, address: str | None
    ) -> None:
        """A rated game's rematch, asked by the account `acting` from `address` against
        `other`: held to the lobby's rules and limits (its bucket of requests; no rated game
        between accounts seen together), as a new rated pairing is."""
        if address is not None:
            self.requests.take(address, N_("lobby requests"))
        if acting is None or other is None:
            return
        if self.sightings is not None:
            if address is not None:
                self.sightings.seen(acting, address)
            if self.sightings.seen_together(acting, other):
                raise RequestError("same_player", SAME_PLAYER)
        self._check_opponent(acting, other)

    def _capped(self, member: Member | None, rated: bool) -> tuple[int, ...]:
        """For a rated entry of `member`: the accounts it played its day's rated games
        against already (`RATED_SAME_OPPONENT_PER_DAY`)."""
        if member is None or not rated:
            return ()
        return tuple(sorted(self._capped_ids(member.id)))

    def _check_opponent(self, account: int, other: int) -> None:
        """`same_opponent` once the two played their day's rated games against each other."""
        if other in self._capped_ids(account):
            raise RequestError(
                "same_opponent",
                N_(
                    "you have played {same_opponent} rated games against this player in the "
                    "last day: play them casual, or someone else rated"
                ),
                same_opponent=self.same_opponent,
            )

    def _capped_ids(self, account: int) -> frozenset[int]:
        if self.same_opponent <= 0:
            return frozenset()
        since = self.clock() - DAY
        return self.ratings.frequent_opponents(account, since, self.same_opponent)

    # -- making the game ------------------------------------------------------------------

    def _terms(
        self, control: str | None, name: str | None, rated: bool, member: Member | None
    ) -> Entry:
        """Who enters, as the lobby shows them: a signed-in player by the account's name and
        rating in the control's speed; a visitor by the name given (or one made up). Rated
        play takes an account."""
        if member is None:
            if rated:
                raise RequestError("not_signed_in", N_("sign in to play rated games"))
            return Entry(name or make_anonymous_name())
        speed = game_speed_of(clock_of(control))
        player = self.ratings.ratings_of(member.id).get(speed, PlayerRating())
        return Entry(
            member.name, rated=rated, account=member.id, rating=shown_rating(player, self.clock())
        )

    def _entry(
        self, kind: str, owner: str, address: str, control: str | None, entry: Entry
    ) -> StoredSeek:
        if entry.account is None:
            self._check_not_look_alike(owner, entry.name)
        body = seek_to_body(entry)
        return StoredSeek(
            new_seek_id(), kind, owner, address, control or UNTIMED, body, self.clock(), self.host
        )

    def _check_not_look_alike(self, owner: str, name: str) -> None:
        """Refuse a name that reads like a name in use (server.shared.names) without being it:
        that of another visitor's seek or pairing wait, of a player seated in a game in play
        (the lobby lists those games), or of an account (`reserved_names`)."""
        in_use = {
            str(stored.body["name"])
            for stored in self.tables.list_seeks(MAX_LISTED)
            if stored.owner != owner
        }
        in_use |= names_in_play(self.tables.ongoing_games(SCANNED))
        if is_look_alike(name, in_use) or self.reserved_names(name):
            raise RequestError(
                "bad_request",
                N_("the name {name} reads like a name in use: choose another"),
                name=repr(name),
            )

    def _limited(self, work: Callable[[], Any]) -> Any:
        try:
            return work()
        except SeekLimitError:
            raise RequestError(
                "too_many_seeks",
                N_(
                    "your address already holds {per_address} open challenges and pairing waits "
                    "(the limit): wait for one to be taken, or cancel one"
                ),
                per_address=self.per_address,
            ) from None

    def _start(
        self, waiting: StoredSeek, waiting_color: Color, taker_color: Color, taker: Entry
    ) -> Seat:
        """The game between the waiting side (`waiting`'s owner) and the taker, on the
        waiting side's terms (assisted, rated); the waiting side is told its seat privately,
        the taker's is returned."""
        terms = entry_from_body(waiting.body)
        sides = {waiting_color: terms, taker_color: taker}
        settings = GameSettings(
            "friend",
            waiting_color,
            Board().fen(),
            clock_of(waiting.control),
            None,
            secrets.randbits(31),
            terms.assisted and not terms.rated,
            (sides[WHITE].name, sides[BLACK].name),
            rated=terms.rated,
            ratings=(sides[WHITE].rating, sides[BLACK].rating),
        )
        accounts = {color: entry.account for color, entry in sides.items() if entry.account}
        game, seats = self.games.create_paired(settings, accounts)
        self.notifier.paired(
            waiting.owner, Seat(game.id, waiting_color, seats[waiting_color], taker.name)
        )
        self.notifier.games_changed()
        return Seat(game.id, taker_color, seats[taker_color], terms.name)


LOBBY: Slot[LobbyService] = Slot("lobby")
