"""A store run on one OS thread of its own, for gevent mode.

Under gevent every game shares one OS thread, so a call that blocks it stalls them all: SQLite's
commit waits for the disk (an fsync of about a quarter of a millisecond with
`synchronous=FULL`, hundreds of times a second under load). `ThreadedStore` hands every call to
a single worker thread and lets the other greenlets run meanwhile; SQLite releases the GIL while
it waits. One thread keeps the calls in order and the SQLite connection to one user at a time,
as its lock did before. PostgreSQL needs none of this: its driver waits through gevent's
patched sockets, and its pool serves several calls at once.
"""

from __future__ import annotations

from typing import Any

from server.store import GameStore, StoredChange, StoredGame


class ThreadedStore:
    """A `GameStore` whose calls run on a single gevent thread-pool thread."""

    def __init__(self, store: GameStore) -> None:
        from gevent.threadpool import ThreadPool

        self.store = store
        self.shared = store.shared
        self.pool = ThreadPool(1)

    def create_game(self, game: StoredGame, seats: dict[int, str]) -> None:
        self.pool.apply(self.store.create_game, (game, seats))

    def load_game(self, game_id: str) -> StoredGame | None:
        return self.pool.apply(self.store.load_game, (game_id,))  # type: ignore[no-any-return]

    def version_of(self, game_id: str) -> int | None:
        return self.pool.apply(self.store.version_of, (game_id,))  # type: ignore[no-any-return]

    def commit(self, game_id: str, change: StoredChange) -> None:
        self.pool.apply(self.store.commit, (game_id, change))

    def changes_since(self, game_id: str, version: int) -> list[dict[str, Any]]:
        return self.pool.apply(self.store.changes_since, (game_id, version))  # type: ignore[no-any-return]

    def seat_color(self, game_id: str, token_hash: str) -> int | None:
        return self.pool.apply(self.store.seat_color, (game_id, token_hash))  # type: ignore[no-any-return]

    def active_game_ids(self) -> list[str]:
        return self.pool.apply(self.store.active_game_ids)  # type: ignore[no-any-return]

    def close(self) -> None:
        self.pool.apply(self.store.close)
        self.pool.kill()
