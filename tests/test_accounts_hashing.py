"""Password hashing's own bounds, in this (threading) process with the real Argon2id hasher:
each lane runs at most its threads' hashes at once however many request threads ask (counted,
not timed), a sign-in's lane is free while sign-ups fill theirs, a turn not found in time is
`busy`; recovery codes are a keyed hash (older Argon2id ones still verify); Unicode passwords
NFC-normalised, recovery codes with distinct ids, the dummy hash built at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import unicodedata
from pathlib import Path

from server import create_app
from server.accounts import codes, passwords
from server.accounts.hash_lanes import CHECKS, SIGNUPS, Lane
from server.shared.errors import RequestError
from tests.support.in_process import IN_PROCESS

ASKING = 8


def test_concurrent_hashes_in_threading_mode_are_bounded() -> None:
    inside = 0
    most = 0
    entered = threading.Condition()
    answers: list[str] = []

    def work(password: str) -> str:
        nonlocal inside, most
        with entered:
            inside += 1
            most = max(most, inside)
            entered.notify_all()
            # Hold the turn until a third hash would be inside too (never, when bounded).
            entered.wait_for(lambda: inside > CHECKS.threads, timeout=0.3)
        try:
            return passwords.HASHER.hash(password)
        finally:
            with entered:
                inside -= 1

    def ask() -> None:
        try:
            answers.append(CHECKS.run(work, "a long enough password"))
        except RequestError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=ask) for _ in range(ASKING)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == CHECKS.threads
    assert len(answers) == ASKING
    assert all(answer == "busy" or answer.startswith("$argon2id$") for answer in answers)
    assert CHECKS.most_running <= CHECKS.threads


def test_a_sign_in_hashes_while_sign_ups_hold_every_turn_of_theirs() -> None:
    """Sign-ups fill their lane and more wait; a sign-in's check runs meanwhile, and the
    sign-ups past the lane's wait are told `busy`."""
    release = threading.Event()
    holding = threading.Semaphore(0)
    answers: list[str] = []

    def held_hash(password: str) -> str:
        holding.release()
        release.wait(timeout=30)
        return passwords.HASHER.hash(password)

    def sign_up() -> None:
        try:
            answers.append(SIGNUPS.run(held_hash, "a new account's password"))
        except RequestError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=sign_up) for _ in range(SIGNUPS.threads + 2)]
    for thread in threads:
        thread.start()
    assert holding.acquire(timeout=30)  # the sign-up lane's turn is taken and held
    hashed = passwords.hash_password("the owner's own password")  # the checks' lane
    assert passwords.verify_password(hashed, "the owner's own password")
    # The waiting sign-ups give up after the lane's wait, before the held one is let go.
    for _ in range(600):
        if answers.count("busy") == 2:
            break
        release.wait(0.05)
    release.set()
    for thread in threads:
        thread.join()
    assert sorted(answer[:10] for answer in answers) == ["$argon2id$", "busy", "busy"]


def test_a_lane_past_its_waiting_bound_answers_busy_at_once() -> None:
    lane = Lane("test", threads=1, waiting=1, wait=30.0)
    inside = threading.Event()
    release = threading.Event()

    def held() -> str:
        inside.set()
        release.wait(timeout=30)
        return "done"

    first = threading.Thread(target=lambda: lane.run(held))
    first.start()
    assert inside.wait(timeout=30)
    try:
        lane.run(held)
    except RequestError as error:
        assert error.code == "busy"  # not after the 30 s wait: the lane's queue is full
    else:
        raise AssertionError("a second request was let into a full lane")
    finally:
        release.set()
        first.join()


def test_recovery_codes_are_a_keyed_hash_and_older_argon2_codes_still_verify() -> None:
    hasher = codes.CodeHasher("the app's secret key")
    code = codes.new_code()
    stored = hasher.hash(code)
    assert stored.startswith("hmac-sha256$") and code not in stored
    assert hasher.verify(stored, code)
    assert not hasher.verify(stored, codes.new_code())
    assert not codes.CodeHasher("another key").verify(stored, code)
    older = passwords.hash_password(codes.split_code(code)[1])  # as accounts made before
    assert older.startswith("$argon2id$")
    assert hasher.verify(older, code)
    assert not hasher.verify(older, codes.new_code())
    assert not hasher.verify(None, code)


def test_passwords_are_nfc_normalised_before_checking_and_hashing() -> None:
    composed = "caf\u00e9 au lait noir"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    assert passwords.check_password(decomposed, "someone") == composed
    hashed = passwords.hash_password(passwords.check_password(composed, "someone"))
    assert passwords.verify_password(hashed, passwords.normal(decomposed))


def test_recovery_codes_of_an_account_have_distinct_ids() -> None:
    for _ in range(2000):
        drawn = codes.new_codes(codes.CODES_PER_ACCOUNT)
        assert len(drawn) == codes.CODES_PER_ACCOUNT
        assert len({codes.split_code(code)[0] for code in drawn}) == len(drawn)


def test_the_dummy_hash_is_built_when_the_app_starts(tmp_path: Path) -> None:
    """So the first unknown name's sign-in costs one hash, as every later one does."""
    passwords.dummy_hash.cache_clear()
    create_app(IN_PROCESS | {"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert passwords.dummy_hash.cache_info().currsize == 1


GEVENT_LANES = """
from gevent import monkey
monkey.patch_all()
import os, threading
from server.accounts.hash_lanes import CHECKS, SIGNUPS
main = threading.get_native_id()
for lane in (CHECKS, SIGNUPS):
    hashed_on = lane.run(threading.get_native_id)
    nice = os.getpriority(os.PRIO_PROCESS, hashed_on)
    print(lane.name, hashed_on != main, nice - os.getpriority(os.PRIO_PROCESS, main))
"""


def test_in_gevent_mode_each_lane_hashes_on_native_threads_of_its_own() -> None:
    """Off the serving loop's thread (a hash there would stall every client), the sign-up
    lane's at a lower priority."""
    ran = subprocess.run(
        [sys.executable, "-c", GEVENT_LANES], capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 0, ran.stderr
    # A process started under `nice` lowers its threads only as far as 19 (0 steps under nice 19).
    base = os.getpriority(os.PRIO_PROCESS, 0)
    lowered = min(19, base + SIGNUPS.nice) - base
    assert ran.stdout.split("\n")[:2] == ["checks True 0", f"signups True {lowered}"]
