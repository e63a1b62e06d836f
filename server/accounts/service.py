"""Accounts over the store: sign up, sign in and out, change or recover the password, delete,
claim earlier seats, and who a request or connection is.

The transport parses (server.accounts.http) and this decides. Every check of a
password runs through the limits first (server.accounts.limits) and costs one Argon2id
verification whatever the outcome: an unknown name is verified against a dummy hash and
answered `bad_credentials` like a wrong password. A recovery code is the owner's way back in:
it is limited per address only, never by the account's failures (a guesser holding those
must not keep the owner out), and it is checked by a keyed hash (server.accounts.codes).
A sign-up counts against its address's allowance, and the server's, only once its account is
made: a name taken or a password refused costs nothing (and no hash).

Sessions are looked up by their id's hash; a Socket.IO connection's account is taken from its
handshake's cookie once, at `connect`, and kept here per connection id until it disconnects,
signs out or its password changes; a sign-out, a password change, a recovery or a deletion
closes the connections of the sessions it ends (`close_socket`), so no open socket keeps
playing under the account.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import request

from server.accounts import codes, passwords
from server.accounts.devices import Devices, device_id
from server.accounts.hash_lanes import SIGNUPS
from server.accounts.identity import Account
from server.accounts.limits import Failures
from server.accounts.passkeys import Passkeys
from server.accounts.sessions import (
    COOKIE,
    IDLE_SECONDS,
    hash_session_id,
    is_session_id,
    new_session_id,
)
from server.accounts.sightings import Sightings
from server.accounts.tables import AccountTables, NameTakenError, StoredUser
from server.accounts.usernames import DELETED_NAME, legacy_name_key, name_key, parse_username
from server.shared.buckets import AddressBuckets, RateLimited, TokenBucket
from server.shared.errors import N_, RequestError
from server.shared.slots import Slot
from server.shared.tokens import hash_token

BAD_CREDENTIALS = N_("the name or the password is wrong")
# A signed-in account's own password asked again: the name is not in doubt.
WRONG_PASSWORD = N_("the password is wrong")


@dataclass(frozen=True)
class SignedIn:
    """A new session: its account, its id (for the cookie), and recovery codes if new."""

    account: Account
    session_id: str
    recovery_codes: tuple[str, ...] = ()


class Accounts:
    """The accounts of one server process (built by the composition root, server.services)."""

    def __init__(
        self,
        tables: AccountTables,
        config: dict[str, Any],
        rename_seats: Callable[[list[tuple[str, int]], str], None] | None = None,
    ) -> None:
        self.tables = tables
        self.passkeys = Passkeys(tables)
        secret_key = config.get("SECRET_KEY") or new_session_id()
        self.devices = Devices(tables.database)
        apart = float(config.get("RATED_APART_SECONDS", 0.0))
        self.sightings = Sightings(tables.database, str(secret_key).encode(), apart)
        self.code_hasher = codes.CodeHasher(secret_key)
        # How a deleted account's games come to show "deleted player" (GameService's).
        self.rename_seats = rename_seats or (lambda seats, name: None)
        self.signups = AddressBuckets(int(config["SIGNUP_BURST"]), float(config["SIGNUP_INTERVAL"]))
        # Accounts made on the whole server: many addresses must not make them without end.
        server_interval = float(config["SIGNUP_SERVER_INTERVAL"])
        self.server_signups = TokenBucket(int(config["SIGNUP_SERVER_BURST"]), 1 / server_interval)
        self.checks = AddressBuckets(int(config["SIGNIN_BURST"]), float(config["SIGNIN_INTERVAL"]))
        delay, cap = float(config["SIGNIN_DELAY"]), float(config["SIGNIN_MAX_DELAY"])
        self.address_failures = Failures(int(config["SIGNIN_FREE_ADDRESS"]), delay, cap)
        self.account_failures = Failures(int(config["SIGNIN_FREE_ACCOUNT"]), delay, cap)
        # Socket.IO connection id -> (its account, its session's hash).
        self.connections: dict[str, tuple[Account, str]] = {}
        # When each connection's session was last found live in the store (monotonic), and
        # how often it is looked up again (ended by another process?).
        self.checked: dict[str, float] = {}
        self.recheck = float(config["SESSION_RECHECK"])
        self.lock = threading.Lock()
        # How a connection whose session ended is closed (the transport's: a server-side
        # disconnect, which also withdraws its seeks and the seats it joined).
        self.close_socket: Callable[[str], None] = lambda sid: None

    # -- limits, checked by the transport before a body is read

    def check_address(self, address: str) -> None:
        """Before a request that checks a secret: the address's failures' wait, then its
        bucket of such requests (each costs a hash, right or wrong)."""
        self.address_failures.check(address, "from your address")
        self.checks.take(address, N_("password checks"))

    def check_signup(self, address: str) -> None:
        """Before the body is read: refused once the address's allowance is spent (taken only
        by accounts made, in `signup`)."""
        self.signups.check(address, N_("sign-ups"))

    # -- signing up and in

    def signup(self, name: object, password: object, address: str) -> SignedIn:
        username = parse_username(name)
        secret = passwords.check_password(password, username)
        key = name_key(username)
        if self._user_by_name(username) is not None:  # before the hash
            raise RequestError(
                "name_taken", N_("the name {username} is taken"), username=repr(username)
            )
        self._take_signup(address)
        try:
            recovery = codes.new_codes(codes.CODES_PER_ACCOUNT)
            hashed = [(codes.split_code(code)[0], self.code_hasher.hash(code)) for code in recovery]
            password_hash = passwords.hash_password(secret, SIGNUPS)
            user_id = self.tables.create_user((username, key, password_hash), hashed)
        except NameTakenError:
            self._give_back_signup(address)
            raise RequestError(
                "name_taken", N_("the name {username} is taken"), username=repr(username)
            ) from None
        except RequestError:  # busy: no account made
            self._give_back_signup(address)
            raise
        account = Account(user_id, username)
        return SignedIn(account, self._new_session(account), tuple(recovery))

    def _take_signup(self, address: str) -> None:
        """One account's worth of the address's allowance and of the server's."""
        self.signups.take(address, N_("sign-ups"))
        if not self.server_signups.allow():
            self.signups.give_back(address)
            wait = self.server_signups.wait_time()
            raise RateLimited(
                N_("too many sign-ups on the server now; retry in {wait} s"),
                wait,
                wait=f"{wait:.0f}",
            )

    def _give_back_signup(self, address: str) -> None:
        self.signups.give_back(address)
        self.server_signups.give_back()

    def _user_by_name(self, name: str) -> StoredUser | None:
        """The account of `name`'s key, or of the key accounts made before it were stored
        under (server.accounts.usernames.legacy_name_key)."""
        user = self.tables.user_by_key(name_key(name))
        if user is None and legacy_name_key(name) != name_key(name):
            user = self.tables.user_by_key(legacy_name_key(name))
        return user

    def login(
        self, name: object, password: object, address: str, device: str | None = None
    ) -> SignedIn:
        user = self._verified(name, password, address, device)
        account = Account(user.id, user.name)
        return SignedIn(account, self._new_session(account))

    def _verified(
        self,
        name: object,
        password: object,
        address: str,
        device: str | None,
        refusal: str = BAD_CREDENTIALS,
    ) -> StoredUser:
        """The user `name` whose password is `password`, or `bad_credentials` (an unknown
        name costs and answers the same), within the limits: the account's wait is spared
        a known device (`device`, its cookie: server.accounts.devices)."""
        key = name_key(name) if isinstance(name, str) and len(name) <= 64 else ""
        user = self._user_by_name(str(name)) if key else None
        if user is None or not self.devices.is_known(device, user.id):
            self.account_failures.check(key, "of this account")
        live = user is not None and not user.deleted
        typed = passwords.normal(password) if isinstance(password, str) else ""
        matched = passwords.verify_password(user.password_hash if live and user else None, typed)
        if not matched or user is None:
            self.address_failures.fail(address)
            self.account_failures.fail(key)
            raise RequestError("bad_credentials", refusal)
        # The address's count is not cleared: one's own account must not reset a sprayer's.
        self.account_failures.forget(key)
        return user

    def signed_in_browser(self, account: Account, cookie: str | None, address: str) -> str:
        """A browser (holding the known-device `cookie`, if any) signed in to `account` from
        `address`: it becomes known to the account, the account is seen from both
        (server.accounts.sightings); the browser's id for its cookie."""
        device = device_id(cookie)
        self.devices.remember(device, account.id)
        self.sightings.seen(account.id, address, device)
        return device

    def _new_session(self, account: Account) -> str:
        session_id = new_session_id()
        self.tables.add_session(hash_session_id(session_id), account.id)
        return session_id

    def sign_in_as(self, account: Account) -> SignedIn:
        """A new session for an account proven otherwise (a passkey)."""
        return SignedIn(account, self._new_session(account))

    def logout(self, session_id: str | None) -> None:
        if is_session_id(session_id):
            id_hash = hash_session_id(str(session_id))
            self.tables.end_session(id_hash)
            self._end_connections(lambda _, held: held == id_hash)

    # -- the password

    def change_password(
        self,
        account: Account,
        current: object,
        new: object,
        address: str,
        device: str | None = None,
    ) -> SignedIn:
        """Set a new password after checking the current one; every session ends, and the
        caller's continues under a new id (returned)."""
        secret = passwords.check_password(new, account.name)
        self._verified(account.name, current, address, device, WRONG_PASSWORD)
        self.tables.set_password(account.id, passwords.hash_password(secret))
        self._end_connections(lambda held, _: held.id == account.id)
        return SignedIn(account, self._new_session(account))

    def recover(self, name: object, code: object, password: object, address: str) -> SignedIn:
        """Reset the password with a recovery code (spent by it); signed in anew. Limited by
        the address's failures (checked by the transport), never the account's."""
        username = parse_username(name)
        secret = passwords.check_password(password, username)
        user = self._user_by_name(username)
        typed = codes.parse_code(code)
        stored = None
        if user is not None and not user.deleted and typed is not None:
            stored = self.tables.recovery_code_hash(user.id, codes.split_code(typed)[0])
        if (
            typed is None
            or user is None
            or not self.code_hasher.verify(stored, typed)
            or not self.tables.use_recovery_code(
                user.id, codes.split_code(typed)[0], passwords.hash_password(secret)
            )
        ):
            self.address_failures.fail(address)
            raise RequestError("bad_credentials", N_("the name or the recovery code is wrong"))
        account = Account(user.id, user.name)
        self._end_connections(lambda held, _: held.id == account.id)
        return SignedIn(account, self._new_session(account))

    def delete(
        self, account: Account, password: object, address: str, device: str | None = None
    ) -> None:
        """Delete the account once its password is confirmed: its games stay, its sessions,
        codes and name's use end (the name is never given again)."""
        self._verified(account.name, password, address, device, WRONG_PASSWORD)
        self.tables.delete_user(account.id)
        self._end_connections(lambda held, _: held.id == account.id)
        self.rename_seats(self.tables.account_seats(account.id), DELETED_NAME)

    # -- passkeys

    def confirm(self, account: Account, password: object, address: str, device: str | None) -> None:
        """The signed-in account's current password, checked within the limits (before a
        passkey is added: a session alone must not add a way in)."""
        self._verified(account.name, password, address, device, WRONG_PASSWORD)

    def delete_passkey(self, account: Account, credential_id: object) -> None:
        if not isinstance(credential_id, str) or not self.tables.delete_passkey(
            account.id, credential_id
        ):
            raise RequestError("not_found", N_("this account has no such passkey"))

    # -- seats

    def claim(self, account: Account, seats: dict[str, str]) -> list[str]:
        """Link the seats this browser holds (game id -> seat token) to the account, once
        (the claim's route has refused seats on both sides of a game: server.players.claim)."""
        claimed = self.tables.claim_seats(
            account.id, [(game_id, hash_token(token)) for game_id, token in seats.items()]
        )
        if claimed is None:
            raise RequestError("conflict", N_("this account has claimed its earlier games already"))
        return claimed

    # -- who a request is (server.accounts.identity.AccountSource)

    def session_account(self, session_id: str | None) -> Account | None:
        if not is_session_id(session_id):
            return None
        user = self.tables.session_user(
            hash_session_id(str(session_id)), time.time() - IDLE_SECONDS
        )
        return None if user is None else Account(user.id, user.name)

    def request_account(self) -> Account | None:
        return self.session_account(request.cookies.get(COOKIE))

    def connection_account(self, sid: str) -> Account | None:
        """The account the connection took at `connect`, while its session lives: ended here
        at once (`_end_connections`), and by another process (a cluster) found ended within
        `recheck` seconds, when the store is asked again."""
        held = self.connections.get(sid)
        if held is None:
            return None
        now = time.monotonic()
        if now - self.checked.get(sid, now) > self.recheck:
            user = self.tables.session_user(held[1], time.time() - IDLE_SECONDS)
            if user is None:
                self.disconnect(sid)
                return None
            self.checked[sid] = now
        return held[0]

    def is_account_name(self, name: str) -> bool:
        return self._user_by_name(name) is not None

    def connect(self, sid: str, session_id: str | None) -> Account | None:
        """A Socket.IO connection opened: its account from its handshake's cookie."""
        account = self.session_account(session_id)
        if account is not None:
            with self.lock:
                self.connections[sid] = (account, hash_session_id(str(session_id)))
                self.checked[sid] = time.monotonic()
        return account

    def disconnect(self, sid: str) -> None:
        with self.lock:
            self.connections.pop(sid, None)
            self.checked.pop(sid, None)

    def _end_connections(self, ended: Any) -> None:
        """Connections whose (account, session hash) `ended` says ended are closed: the seats
        they joined through the account and their seeks go with them, and a reconnection is
        a visitor's (or another session's)."""
        with self.lock:
            closing = [sid for sid, held in self.connections.items() if ended(*held)]
            for sid in closing:
                del self.connections[sid]
                self.checked.pop(sid, None)
        for sid in closing:  # outside the lock: closing runs the disconnect handler here
            self.close_socket(sid)


ACCOUNTS: Slot[Accounts] = Slot("accounts")
