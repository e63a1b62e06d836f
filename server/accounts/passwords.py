"""Passwords: Argon2id hashes through argon2-cffi, and which passwords are refused.

Parameters (RFC 9106's Argon2id with less memory, as OWASP lists): time cost 3, 32 MiB,
one lane. On this project's machine one hash took 59 ms of one core (bench/signin.py;
docs/performance.md): within the 50-100 ms the issue sets, so a guess costs an attacker
as much while a sign-in stays quick. A hash runs off the serving loop (`off_loop`): in gevent
mode in a native thread of a small pool (argon2's C code releases the GIL), so other players
are not held up for its 59 ms. Either way at most HASH_THREADS hashes (32 MiB each) run at
once: gevent's pool has that many threads, and in threading mode each request thread takes a
turn of a semaphore of that size, answered `busy` after TURN_WAIT seconds without one.

A password is refused (`weak_password`) when shorter than 8 characters, longer than 128, the
account's own name, or one of the 11,611 common passwords of 8 or more characters in zxcvbn's
list (data/common_passwords.txt; its README gives the source and MIT licence), compared
without regard to case. Unknown names are verified against `DUMMY_HASH`, so they cost and
answer what a wrong password does; it is built at start-up (`prepare`). Passwords are
NFC-normalised (`normal`) before they are checked, hashed or verified.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from server.shared.errors import RequestError

TIME_COST = 3
MEMORY_KIB = 32 * 1024
PARALLELISM = 1
MIN_LENGTH = 8
MAX_LENGTH = 128
COMMON_FILE = Path(__file__).resolve().parent / "data" / "common_passwords.txt"
# Native threads hashing at once (gevent mode): the machine's cores are the bound anyway.
HASH_THREADS = 2
# Hashes running or waiting at once in this process (about 2 s of waiting at 60 ms each).
HASHES_WAITING = 64
# Threading mode: how long a request thread waits for one of the HASH_THREADS turns before
# it is answered `busy` (each waiting thread holds no hash memory).
TURN_WAIT = 2.0

HASHER = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM)
T = TypeVar("T")
_waiting = threading.BoundedSemaphore(HASHES_WAITING)
# Threading mode's bound on hashes running at once (gevent's is its pool's size).
_turns = threading.BoundedSemaphore(HASH_THREADS)
# Threading mode: how many hashes run at once now, and the most seen (tests/ count them).
running = 0
most_running = 0
_count_lock = threading.Lock()


@functools.cache
def common_passwords() -> frozenset[str]:
    return frozenset(COMMON_FILE.read_text().split())


@functools.cache
def dummy_hash() -> str:
    """A hash of nothing anyone can type, to verify an unknown name's guess against (built
    at start-up by `prepare`, so the first unknown name costs one hash like the others)."""
    return HASHER.hash("\x00no account\x00")


def prepare() -> None:
    """Build what the first check would otherwise pay for: the dummy hash, the common list."""
    dummy_hash()
    common_passwords()


def normal(password: str) -> str:
    """The password as hashed: Unicode NFC, so one typed on another keyboard still matches."""
    return unicodedata.normalize("NFC", password)


def check_password(password: object, name: str) -> str:
    """`password` if it may be used by the account `name`, else `weak_password` saying why."""
    if not isinstance(password, str):
        raise RequestError("weak_password", "the password must be a string")
    password = normal(password)
    if len(password) < MIN_LENGTH:
        raise RequestError("weak_password", f"the password is shorter than {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise RequestError("weak_password", f"the password is longer than {MAX_LENGTH} characters")
    if password.casefold() == name.casefold():
        raise RequestError("weak_password", "the password is the account's name")
    if password.casefold() in common_passwords():
        raise RequestError(
            "weak_password", "the password is one of the most commonly used: choose another"
        )
    return password


def hash_password(password: str) -> str:
    return off_loop(HASHER.hash, password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed; an unknown account (None) costs the same and is
    never right."""
    try:
        matched = off_loop(HASHER.verify, password_hash or dummy_hash(), password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return bool(matched) and password_hash is not None


def off_loop(work: Callable[..., T], *args: Any) -> T:
    """Run `work` where it does not stall the serving loop (see the module docstring); `busy`
    when HASHES_WAITING hashes wait already (the per-address limits keep one visitor far
    below it; many at once wait a little or are told to retry)."""
    if not _waiting.acquire(blocking=False):
        raise RequestError("busy", "the server is checking many passwords now; try again soon")
    try:
        pool = _native_pool()
        if pool is None:
            return _in_turn(work, *args)
        return pool.apply(work, args)  # type: ignore[no-any-return]
    finally:
        _waiting.release()


def _in_turn(work: Callable[..., T], *args: Any) -> T:
    """Threading mode: at most HASH_THREADS hashes at once (32 MiB each), the other request
    threads wait their turn up to TURN_WAIT seconds, then `busy`."""
    if not _turns.acquire(timeout=TURN_WAIT):
        raise RequestError("busy", "the server is checking many passwords now; try again soon")
    try:
        return _counted(work, *args)
    finally:
        _turns.release()


def _counted(work: Callable[..., T], *args: Any) -> T:
    global running, most_running
    with _count_lock:
        running += 1
        most_running = max(most_running, running)
    try:
        return work(*args)
    finally:
        with _count_lock:
            running -= 1


@functools.cache
def _native_pool() -> Any:
    """gevent's pool of native threads when the process is patched, else None (threads)."""
    try:
        from gevent import monkey
        from gevent.threadpool import ThreadPool
    except ImportError:
        return None
    if not monkey.is_module_patched("threading"):
        return None
    return ThreadPool(HASH_THREADS)
