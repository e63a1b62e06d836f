"""Who the current request is: the `Account` of its session, or None for a visitor without one.

This is the interface the rest of the server reads (ratings, profiles, the game service's
seats). An HTTP request's account comes from its session cookie (server.accounts.sessions),
looked up once per request; a Socket.IO connection's from the cookie of its handshake, once at
`connect`, kept per connection (server.edge.connections) and never taken from an event's
fields; signing out or changing the password ends it there too. Both are read through
`current_account()`, which works in either context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, cast

from flask import g, has_request_context, request

from server.shared.errors import N_, RequestError
from server.shared.slots import Slot


@dataclass(frozen=True)
class Account:
    """A signed-in player: the account's id (seats and ratings refer to it) and its name."""

    id: int
    name: str


class AccountSource(Protocol):
    """What answers `current_account` (server.accounts.service.Accounts is one)."""

    def request_account(self) -> Account | None:
        """The account of the current HTTP request's session cookie."""

    def connection_account(self, sid: str) -> Account | None:
        """The account a Socket.IO connection took at `connect`."""

    def is_account_name(self, name: str) -> bool:
        """Whether `name` reads like the name of an account (deleted ones included)."""


def current_account() -> Account | None:
    """The signed-in account of the HTTP request or Socket.IO event being served."""
    if not has_request_context():
        return None
    source = _source()
    sid: Any = getattr(request, "sid", None)
    if isinstance(sid, str):
        return source.connection_account(sid)
    if "account" not in g:
        g.account = source.request_account()
    return cast(Account | None, g.account)


def current_account_id() -> int | None:
    """The signed-in account's id (a seat taken now is linked to it), None for a visitor."""
    account = current_account()
    return None if account is None else account.id


def shown_name(chosen: str | None) -> str | None:
    """The name a player is shown by: a signed-in player's account name, else the display
    name the visitor chose (None: the server gives one), refused `bad_request` when it reads
    like an account's name: only the account's owner is shown by it."""
    account = current_account()
    if account is not None:
        return account.name
    if chosen is not None and _source().is_account_name(chosen):
        raise RequestError(
            "bad_request",
            N_("the name {chosen} is an account's: sign in to play under it"),
            chosen=repr(chosen),
        )
    return chosen


def _source() -> AccountSource:
    return ACCOUNT_SOURCE.get()


ACCOUNT_SOURCE: Slot[AccountSource] = Slot("accounts")
