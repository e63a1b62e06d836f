"""Drills given out and not yet answered: the only place their answers are kept.

A drill's id is `secrets.token_urlsafe` (unguessable); `take` hands a drill back once, to
the address it was given to, and forgets it, so an id is answered once and a guessed, stale,
foreign or answered id is the same refusal. The store is bounded: each address keeps at most
`per_address` drills (its oldest go first: a trainee answers the latest), all addresses
together `total`, and a drill is forgotten `ttl` seconds after it was given. Thread-safe.

An account (issue 27) would keep nothing more here: ratings and progress are the page's
(localStorage) until then, and would be stored beside the account, not with the drills.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from chesscore.training import Drill

PER_ADDRESS = 20
TOTAL = 50_000
TTL_SECONDS = 30 * 60


@dataclass(frozen=True, slots=True)
class Pending:
    drill: Drill
    address: str
    given: float


class PendingDrills:
    """Unanswered drills by id (see the module docstring)."""

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        total: int = TOTAL,
        ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address, self.total, self.ttl, self.clock = per_address, total, ttl, clock
        self.drills: OrderedDict[str, Pending] = OrderedDict()  # oldest first
        self.by_address: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    def add(self, drill: Drill, address: str) -> str:
        """Keep `drill` for `address`; its new id."""
        drill_id = secrets.token_urlsafe(18)
        with self.lock:
            self._expire()
            self.drills[drill_id] = Pending(drill, address, self.clock())
            ids = self.by_address.setdefault(address, [])
            ids.append(drill_id)
            while len(ids) > self.per_address:
                self._forget(ids[0])
            while len(self.drills) > self.total:
                self._forget(next(iter(self.drills)))
        return drill_id

    def take(
        self, drill_id: str, address: str, check: Callable[[Drill], None] = lambda drill: None
    ) -> Drill | None:
        """The drill `drill_id` given to `address`, forgotten now; None if there is none.
        `check(drill)` runs first: if it raises, the drill stays, waiting for its answer."""
        with self.lock:
            self._expire()
            pending = self.drills.get(drill_id)
            if pending is None or pending.address != address:
                return None
            check(pending.drill)
            self._forget(drill_id)
            return pending.drill

    def __len__(self) -> int:
        return len(self.drills)

    def _expire(self) -> None:
        oldest = self.clock() - self.ttl
        while self.drills:
            drill_id, pending = next(iter(self.drills.items()))
            if pending.given > oldest:
                break
            self._forget(drill_id)

    def _forget(self, drill_id: str) -> None:
        pending = self.drills.pop(drill_id)
        ids = self.by_address[pending.address]
        ids.remove(drill_id)
        if not ids:
            del self.by_address[pending.address]
