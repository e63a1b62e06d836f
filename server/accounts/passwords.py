"""Passwords: Argon2id hashes through argon2-cffi, and which passwords are refused.

Parameters (RFC 9106's Argon2id with less memory, as OWASP lists): time cost 3, 32 MiB,
one lane. On this project's machine one hash took 59 ms of one core (bench/signin.py;
docs/performance.md): within the 50-100 ms the issue sets, so a guess costs an attacker
as much while a sign-in stays quick. A hash runs off the serving loop, in a lane of its own
kind (server.accounts.hash_lanes): a sign-in's never waits behind sign-ups, and no wait for a
turn is longer than a second or two before the answer is `busy`. A wrong password is a
normal answer (False), never an exception out of the hashing thread. Recovery codes are not
hashed here: they are random, and a keyed hash serves them (server.accounts.codes).

A password is refused (`weak_password`) when shorter than 8 characters, longer than 128, the
account's own name, or one of the 11,611 common passwords of 8 or more characters in zxcvbn's
list (data/common_passwords.txt; its README gives the source and MIT licence), compared
without regard to case. Unknown names are verified against `DUMMY_HASH`, so they cost and
answer what a wrong password does; it is built at start-up (`prepare`). Passwords are
NFC-normalised (`normal`) before they are checked, hashed or verified.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from server.accounts.hash_lanes import CHECKS, Lane
from server.shared.errors import N_, RequestError

TIME_COST = 3
MEMORY_KIB = 32 * 1024
PARALLELISM = 1
MIN_LENGTH = 8
MAX_LENGTH = 128
COMMON_FILE = Path(__file__).resolve().parent / "data" / "common_passwords.txt"
HASHER = PasswordHasher(time_cost=TIME_COST, memory_cost=MEMORY_KIB, parallelism=PARALLELISM)


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
        raise RequestError("weak_password", N_("the password must be a string"))
    password = normal(password)
    if len(password) < MIN_LENGTH:
        raise RequestError(
            "weak_password",
            N_("the password is shorter than {MIN_LENGTH} characters"),
            MIN_LENGTH=MIN_LENGTH,
        )
    if len(password) > MAX_LENGTH:
        raise RequestError(
            "weak_password",
            N_("the password is longer than {MAX_LENGTH} characters"),
            MAX_LENGTH=MAX_LENGTH,
        )
    if password.casefold() == name.casefold():
        raise RequestError("weak_password", N_("the password is the account's name"))
    if is_name_and_digits(password, name):
        raise RequestError("weak_password", N_("the password is the account's name and digits"))
    if password.casefold() in common_passwords():
        raise RequestError(
            "weak_password", N_("the password is one of the most commonly used: choose another")
        )
    return password


def is_name_and_digits(password: str, name: str) -> bool:
    """Whether `password` is `name` with digits before or after it ("alice1", "2024alice"):
    the first guesses of anyone who knows the name."""
    typed, named = password.casefold(), re.escape(name.casefold())
    return re.fullmatch(rf"(?:{named}\d+|\d+{named})", typed) is not None


def hash_password(password: str, lane: Lane = CHECKS) -> str:
    """The Argon2id hash of `password`, made in `lane` (a new account's in SIGNUPS)."""
    return lane.run(HASHER.hash, password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Whether `password` is the one hashed; an unknown account (None) costs the same and is
    never right."""
    matched = CHECKS.run(_matches, password_hash or dummy_hash(), password)
    return matched and password_hash is not None


def _matches(password_hash: str, password: str) -> bool:
    """Argon2's verification as a yes or no, in the hashing thread itself: a mismatch raised
    out of gevent's pool would be logged there as a traceback, one per wrong password."""
    try:
        return bool(HASHER.verify(password_hash, password))
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
