"""The HTTP API's way into the work pool: admitted per address first, then run in a worker.

`install` gives the app its `WorkPool` and `WorkAdmission` (server.work), sized by the
`WORK_*` settings, and closes the pool's workers when the process exits. `offload(size,
function, *args)` is what a handler calls with the bytes a request makes the server read (its
body, a stored tree): the address's bucket and its one job in flight are checked before
anything is decoded, then `function` runs in a worker (server.analysis.jobs).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from server.edge.clients import request_client
from server.work.admission import WORK_ADMISSION
from server.work.pool import WORK

T = TypeVar("T")

# A game here costs about what its PGN would (server.work.admission costs requests by size).
PGN_BYTES_PER_MOVE = 16


def offload(size: int, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in the work pool for the current request's address, which makes the
    server read `size` bytes: `rate_limited`, `busy`, `too_slow` or the function's refusal."""
    admission = WORK_ADMISSION.get()
    pool = WORK.get()
    with admission.admit(request_client(), size):
        return pool.run(function, *args)
