"""Quick pairing by rating: which waiting player a newcomer is paired with.

Among the waits for the same time control, a rated wait pairs only with a rated wait of another
account, and a casual one only with a casual one; two rated waits whose accounts were seen
from one address or one browser lately (their bodies' `seen` marks meet) are never paired, and
each waits on for someone else (docs/ratings.md, "Fair play"), and so are two whose day's rated
games against each other are played (`capped`). A wait with a rating accepts an
opponent whose rating is within its window: WINDOW points at first, widening by WIDEN_PER_SECOND for
every second it has waited, so a player far from everyone waiting is still paired after a
while (300 points off: after 15 s; 1000 points off: after 85 s). Both sides' windows must
accept the pairing. Among the acceptable waits the nearest rating wins, then the longest wait.
Waits without a rating (visitors without an account, who play casual games) pair as before:
the longest wait first. Times are wall-clock seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.lobby.tables import StoredSeek

WINDOW = 150.0
WIDEN_PER_SECOND = 10.0


def window(seek: StoredSeek, now: float) -> float:
    """How far from its own rating `seek` accepts an opponent at `now`."""
    return WINDOW + WIDEN_PER_SECOND * max(now - seek.created, 0.0)


def rating_of(seek: StoredSeek) -> int | None:
    rating = seek.body.get("rating")
    return None if rating is None else int(rating)


def can_pair(a: StoredSeek, b: StoredSeek, now: float) -> bool:
    """Whether the waits `a` and `b` (same control) may be paired at `now`."""
    if a.owner == b.owner or bool(a.body.get("rated")) != bool(b.body.get("rated")):
        return False
    account_a, account_b = a.body.get("account"), b.body.get("account")
    if a.body.get("rated") and (account_a is None or account_a == account_b):
        return False
    if a.body.get("rated") and set(a.body.get("seen") or ()) & set(b.body.get("seen") or ()):
        return False  # seen from one address or browser: never rated against each other
    if a.body.get("rated") and (
        account_b in (a.body.get("capped") or ()) or account_a in (b.body.get("capped") or ())
    ):
        return False  # their day's rated games against each other are played
    rating_a, rating_b = rating_of(a), rating_of(b)
    if rating_a is None or rating_b is None:
        return True
    gap = abs(rating_a - rating_b)
    return gap <= window(a, now) and gap <= window(b, now)


def choose_partner(
    wait: StoredSeek, waiting: Sequence[StoredSeek], now: float
) -> StoredSeek | None:
    """The wait `wait` pairs with among `waiting` (same control), or None: it waits too."""
    fits = [other for other in waiting if can_pair(wait, other, now)]
    if not fits:
        return None
    own = rating_of(wait)

    def distance(other: StoredSeek) -> tuple[float, float, str]:
        theirs = rating_of(other)
        gap = 0 if own is None or theirs is None else abs(own - theirs)
        return gap, other.created, other.id

    return min(fits, key=distance)


def pairs_due(waiting: Sequence[StoredSeek], now: float) -> list[tuple[StoredSeek, StoredSeek]]:
    """Waits that their widened windows now let pair (the longest waiting first), each in one
    pair at most: what the lobby's heartbeat pairs without a newcomer."""
    left = sorted(waiting, key=lambda seek: (seek.created, seek.id))
    pairs = []
    while left:
        first = left.pop(0)
        same_control = [other for other in left if other.control == first.control]
        partner = choose_partner(first, same_control, now)
        if partner is not None:
            left.remove(partner)
            pairs.append((partner, first))  # the longer waiting side is the "waiting" one
    return pairs
