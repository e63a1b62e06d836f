"""The players' actions besides a move, as one table: name -> the game function that plans it.

`ACTIONS` is the one list of them: the Socket.IO handlers register an event per name, the HTTP
API accepts these names in `/games/<id>/actions`, the payload parsers check against them, and
the service plans the named action through its entry. Each plan is a pure function of the game
(`server.games.play`, `server.games.offers`) returning a `Change` or raising `RequestError`;
an offer, accept or decline names what is offered (`kind`: draw, takeback, rematch). Offering
or accepting a rematch agrees to one (`agree_to_rematch`): once both sides agree, the change
names the new game, which the service creates first, so that plan takes the new game's id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chesscore import Color
from server.games import offers, play
from server.games.play import Change, Game

# (game, colour acting, kind or None, now) -> the change.
Plan = Callable[[Game, Color, str | None, float], Change]
# (game, colour agreeing to a rematch, now, the new game's id) -> the change.
RematchPlan = Callable[[Game, Color, float, str], Change]


@dataclass(frozen=True)
class Action:
    plan: Plan
    takes_kind: bool  # offer / accept / decline name a kind; the others take only the game
    agree_to_rematch: RematchPlan | None = None  # offer / accept of a rematch, by its id


def _resign(game: Game, color: Color, kind: str | None, now: float) -> Change:
    return play.resign(game, color, now)


def _abort(game: Game, color: Color, kind: str | None, now: float) -> Change:
    return play.abort(game, color, now)


def _claim_draw(game: Game, color: Color, kind: str | None, now: float) -> Change:
    return play.claim_draw(game, color, now)


def _offer(game: Game, color: Color, kind: str | None, now: float) -> Change:
    assert kind is not None  # the parsers require it (takes_kind)
    return offers.offer(game, color, kind, now)


def _accept(game: Game, color: Color, kind: str | None, now: float) -> Change:
    assert kind is not None
    return offers.accept(game, color, kind, now)


def _decline(game: Game, color: Color, kind: str | None, now: float) -> Change:
    assert kind is not None
    return offers.decline(game, color, kind)


def _offer_rematch(game: Game, color: Color, now: float, rematch_id: str) -> Change:
    return offers.offer(game, color, "rematch", now, rematch_id)


def _accept_rematch(game: Game, color: Color, now: float, rematch_id: str) -> Change:
    return offers.accept(game, color, "rematch", now, rematch_id)


ACTIONS: dict[str, Action] = {
    "resign": Action(_resign, takes_kind=False),
    "abort": Action(_abort, takes_kind=False),
    "claim_draw": Action(_claim_draw, takes_kind=False),
    "offer": Action(_offer, takes_kind=True, agree_to_rematch=_offer_rematch),
    "accept": Action(_accept, takes_kind=True, agree_to_rematch=_accept_rematch),
    "decline": Action(_decline, takes_kind=True),
}
