"""The positions each visitor was given drills on, per kind: a drill repeats no position while
others are left.

Kept per address, as the pending drills are (server.training.pending: the address is who a
visitor is until accounts keep training progress): for each address and kind the FENs of the
last `per_kind` drills given (the oldest forgotten first), for at most `addresses` addresses
(the one that asked least recently forgotten first). The shipped set holds over a thousand
positions, so a visitor meets a position again only after hundreds of drills of one kind; the
bounds keep the memory small (the FENs are the facts cache's own strings: a reference each).
Thread-safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque

PER_KIND = 200
ADDRESSES = 2_000


class SeenPositions:
    """The FENs given to each address, per kind (see the module docstring)."""

    def __init__(self, per_kind: int = PER_KIND, addresses: int = ADDRESSES) -> None:
        self.per_kind, self.addresses = per_kind, addresses
        self.by_address: OrderedDict[str, dict[str, deque[str]]] = OrderedDict()
        self.lock = threading.Lock()

    def of(self, address: str, kind: str) -> frozenset[str]:
        """The FENs of the drills of `kind` given to `address` lately."""
        with self.lock:
            kinds = self.by_address.get(address)
            return frozenset(kinds.get(kind, ())) if kinds else frozenset()

    def add(self, address: str, kind: str, fen: str) -> None:
        with self.lock:
            kinds = self.by_address.pop(address, None) or {}
            self.by_address[address] = kinds  # now the most recent
            kinds.setdefault(kind, deque(maxlen=self.per_kind)).append(fen)
            while len(self.by_address) > self.addresses:
                self.by_address.popitem(last=False)
