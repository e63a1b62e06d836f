"""Seeks and pairings as data: the time controls offered, what a visitor asks for, what the
lobby lists, and the seat each side of a new game receives.

An open challenge (a seek) is listed for everyone and taken by one click; a quick-pairing wait
is never listed: it is matched with the next visitor asking for the same time control. Both
are kept in the store as plain data (`server.lobby.tables.StoredSeek`); `seek_to_body`
and `seek_from_stored` are the paired conversions. Colours stay ints here (None: random) until
the transport names them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Protocol

from chesscore import BLACK, WHITE, Color
from server.games.clock import ClockSettings
from server.games.play import ShownRating
from server.lobby.tables import StoredSeek

# The quick-pairing buttons, and the time controls a seek may have ("M+I": minutes, then the
# increment in seconds), as lichess offers them; a seek may also have no clock.
QUICK_CONTROLS: dict[str, ClockSettings] = {
    "1+0": ClockSettings(60_000, 0),
    "3+2": ClockSettings(180_000, 2_000),
    "5+3": ClockSettings(300_000, 3_000),
    "10+5": ClockSettings(600_000, 5_000),
    "15+10": ClockSettings(900_000, 10_000),
    "30+20": ClockSettings(1_800_000, 20_000),
}
UNTIMED = ""  # the control of a seek without a clock, as stored

SEEK = "seek"
PAIR = "pair"


class Member(Protocol):
    """A signed-in player as the lobby needs one (server.accounts.identity.Account is one)."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class SeekRequest:
    """An open challenge as its creator asks for it (`control` None: no clock)."""

    control: str | None
    color: Color | None  # the creator's colour; None: random
    assisted: bool
    name: str | None
    rated: bool = False
    rating_range: tuple[int, int] | None = None  # the taker's rating, lowest and highest


@dataclass(frozen=True)
class PairRequest:
    """A quick-pairing wait for one of QUICK_CONTROLS."""

    control: str
    name: str | None
    rated: bool = False


@dataclass(frozen=True)
class Seek:
    """An open challenge as the lobby lists it: never its owner's connection or address."""

    id: str
    name: str
    control: str | None
    color: Color | None
    assisted: bool
    created: float
    rated: bool = False
    rating: ShownRating | None = None  # its owner's, in the speed of the control
    rating_range: tuple[int, int] | None = None


@dataclass(frozen=True)
class Seat:
    """One side of a game the lobby made: the game, its colour and its secret seat token, for
    that side only."""

    game: str
    color: Color
    token: str
    opponent: str  # the other side's display name


def new_seek_id() -> str:
    return secrets.token_urlsafe(9)


def clock_of(control: str | None) -> ClockSettings | None:
    return None if not control else QUICK_CONTROLS[control]


@dataclass(frozen=True)
class Entry:
    """What a seek or wait says of its owner and terms, as stored in its body."""

    name: str
    color: Color | None = None
    assisted: bool = True
    rated: bool = False
    account: int | None = None  # the owner's account id (never listed)
    rating: ShownRating | None = None
    rating_range: tuple[int, int] | None = None
    # Where the owner's account was seen lately (server.accounts.sightings; never listed): a
    # rated game needs two accounts with none in common.
    seen: tuple[str, ...] = ()
    # The accounts the owner played its day's rated games against already (never listed).
    capped: tuple[int, ...] = ()


def seek_to_body(entry: Entry) -> dict[str, Any]:
    rating = entry.rating
    return {
        "name": entry.name,
        "color": entry.color,
        "assisted": entry.assisted,
        "rated": entry.rated,
        "account": entry.account,
        "rating": None if rating is None else rating.rating,
        "provisional": None if rating is None else rating.provisional,
        "range": None if entry.rating_range is None else list(entry.rating_range),
        "seen": list(entry.seen),
        "capped": list(entry.capped),
    }


def entry_from_body(body: dict[str, Any]) -> Entry:
    """The entry of a stored body (one stored before ratings has none of theirs)."""
    rating = body.get("rating")
    shown = None if rating is None else ShownRating(int(rating), bool(body.get("provisional")))
    low_high = body.get("range")
    return Entry(
        str(body["name"]),
        body["color"],
        bool(body["assisted"]),
        bool(body.get("rated", False)),
        body.get("account"),
        shown,
        None if low_high is None else (int(low_high[0]), int(low_high[1])),
        tuple(str(mark) for mark in body.get("seen") or ()),
        tuple(int(account) for account in body.get("capped") or ()),
    )


def seek_from_stored(stored: StoredSeek) -> Seek:
    entry = entry_from_body(stored.body)
    return Seek(
        stored.id,
        entry.name,
        stored.control or None,
        entry.color,
        entry.assisted,
        stored.created,
        entry.rated,
        entry.rating,
        entry.rating_range,
    )


def draw_colors(creator_color: Color | None, coin: int) -> tuple[Color, Color]:
    """The colours of (the seek's owner, the one taking it); `coin` decides a random one."""
    owner = (WHITE if coin == 0 else BLACK) if creator_color is None else creator_color
    return owner, 1 - owner
