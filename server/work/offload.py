"""The HTTP API's way into the work pool: admitted per address first, then run in a worker.

`install` gives the app its `WorkPool` and `WorkAdmission` (server.work), sized by the
`WORK_*` settings, and closes the pool's workers when the process exits. `offload(size,
function, *args)` is what a handler calls with the bytes a request makes the server read (its
body, a stored tree): the address's bucket and its one job in flight are checked before
anything is decoded, then `function` runs in a worker (server.analysis.jobs).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, current_app

from server.edge.clients import request_client
from server.work.admission import WorkAdmission
from server.work.pool import WorkPool

T = TypeVar("T")

# A game here costs about what its PGN would (server.work.admission costs requests by size).
PGN_BYTES_PER_MOVE = 16
# What the workers run (imported before their first job: imports are no job's time).
JOB_MODULES = (
    "server.analysis.jobs",
    "server.review.sources",
    "server.players.export",
)


def install(app: Flask) -> None:
    config = app.config
    pool = WorkPool(
        int(config["WORK_PROCESSES"]),
        int(config["WORK_WAITING"]),
        float(config["WORK_SECONDS"]),
        modules=JOB_MODULES,
    )
    app.extensions["chess_work"] = pool
    app.extensions["chess_work_admission"] = WorkAdmission(
        float(config["WORK_BURST"]), float(config["WORK_UNITS_PER_SECOND"])
    )
    atexit.register(pool.close)


def offload(size: int, function: Callable[..., T], *args: Any) -> T:
    """`function(*args)` in the work pool for the current request's address, which makes the
    server read `size` bytes: `rate_limited`, `busy`, `too_slow` or the function's refusal."""
    admission = cast(WorkAdmission, current_app.extensions["chess_work_admission"])
    pool = cast(WorkPool, current_app.extensions["chess_work"])
    with admission.admit(request_client(), size):
        return pool.run(function, *args)
