"""Password hashing's own bounds, in this (threading) process with the real Argon2id hasher:
at most HASH_THREADS hashes at once however many request threads ask (counted, not timed),
Unicode passwords NFC-normalised, recovery codes with distinct ids, the dummy hash built at
start-up."""

from __future__ import annotations

import threading
import unicodedata
from pathlib import Path

from server import create_app
from server.accounts import codes, passwords
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
            entered.wait_for(lambda: inside > passwords.HASH_THREADS, timeout=0.3)
        try:
            return passwords.HASHER.hash(password)
        finally:
            with entered:
                inside -= 1

    def ask() -> None:
        try:
            answers.append(passwords.off_loop(work, "a long enough password"))
        except RequestError as error:
            answers.append(error.code)

    threads = [threading.Thread(target=ask) for _ in range(ASKING)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == passwords.HASH_THREADS
    assert len(answers) == ASKING
    assert all(answer == "busy" or answer.startswith("$argon2id$") for answer in answers)
    assert passwords.most_running <= passwords.HASH_THREADS


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
