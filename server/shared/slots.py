"""Typed places on the app for the services its routes and events use.

The composition root (server.services) builds every service with explicit arguments and puts
each into the `Slot` its feature declares; a route or an event handler asks that slot for its
service while it serves a request. The slot object itself is the key, so there is no string to
misspell and no cast at the call site: `GAMES.get()` is a `GameService` to the type checker.
Several apps may live in one process (the tests build many), so the value is kept per app,
and forgotten with it.
"""

from __future__ import annotations

from typing import Generic, TypeVar
from weakref import WeakKeyDictionary

from flask import Flask, current_app

T = TypeVar("T")


class Slot(Generic[T]):
    """One service's place on an app: `put` once by the composition root, `get` when serving."""

    def __init__(self, what: str) -> None:
        self.what = what  # for the error of a slot nobody filled
        self.values: WeakKeyDictionary[Flask, T] = WeakKeyDictionary()

    def put(self, app: Flask, value: T) -> None:
        self.values[app] = value

    def get(self) -> T:
        """The current app's value (inside a request, an event or an app context)."""
        # `current_app` is a proxy; the table is keyed by the app behind it.
        return self.of(current_app._get_current_object())  # type: ignore[attr-defined]

    def of(self, app: Flask) -> T:
        try:
            return self.values[app]
        except KeyError:
            message = f"the app has no {self.what}: the composition root did not set it"
            raise LookupError(message) from None

    def __repr__(self) -> str:
        return f"Slot({self.what!r})"
