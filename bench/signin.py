"""Sign-in time: the Argon2id cost alone, and a sign-in over HTTP against a real server.

Usage:
  python bench/signin.py                # 20 hashes, 20 sign-ins
  python bench/signin.py --repeat 50

Printed: one Argon2id hash with the server's parameters (server/accounts/passwords.py), as
CPU time of this process and as wall time (median, min, max); then a server started as a user
starts it (`python -m server`, gevent, in a fresh instance folder) and the wall time of
`POST /api/account/login` with the right password, with a wrong one, and for an unknown name,
each from its own address behind one trusted proxy, and the per-account limit lifted, so the
sign-in limits stay out of the way.
The three should cost about the same: an unknown name is verified against a dummy hash.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from server.accounts.passwords import HASHER, MEMORY_KIB, PARALLELISM, TIME_COST
from tests.support.live_server import LiveServer

PASSWORD = "correct horse battery"


def figures(label: str, samples: list[float]) -> None:
    ms = sorted(sample * 1000 for sample in samples)
    print(
        f"{label:<34} median {statistics.median(ms):7.1f} ms"
        f"   min {ms[0]:7.1f}   max {ms[-1]:7.1f}   (n={len(ms)})"
    )


def timed(work: Callable[[], object], repeat: int, clock: Callable[[], float]) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = clock()
        work()
        samples.append(clock() - start)
    return samples


def hashing(repeat: int) -> None:
    print(f"Argon2id: time cost {TIME_COST}, {MEMORY_KIB // 1024} MiB, {PARALLELISM} lane")
    figures(
        "hash, CPU of one core", timed(lambda: HASHER.hash(PASSWORD), repeat, time.process_time)
    )
    figures("hash, wall", timed(lambda: HASHER.hash(PASSWORD), repeat, time.perf_counter))
    stored = HASHER.hash(PASSWORD)
    figures(
        "verify, CPU of one core",
        timed(lambda: HASHER.verify(stored, PASSWORD), repeat, time.process_time),
    )


def http(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as instance:
        env = {
            "CHESS_TRUSTED_PROXIES": "1",
            "CHESS_SIGNUP_BURST": "1000",
            "CHESS_SIGNIN_FREE_ACCOUNT": "1000000",
        }
        server = LiveServer(Path(instance), env=env).start(timeout=120)
        try:
            signup = requests.post(
                server.url + "/api/account/signup",
                json={"name": "bencher", "password": PASSWORD},
                timeout=60,
            )
            assert signup.status_code == 201, signup.text
            counter = iter(range(10**6))

            def login(name: str, password: str, status: int) -> Callable[[], object]:
                def attempt() -> None:
                    address = f"10.9.{next(counter) % 250}.{next(counter) % 250}"
                    response = requests.post(
                        server.url + "/api/account/login",
                        json={"name": name, "password": password},
                        headers={"X-Forwarded-For": address},
                        timeout=60,
                    )
                    assert response.status_code == status, response.text

                return attempt

            login("bencher", PASSWORD, 200)()  # warm: the dummy hash, the first connections
            cases = {
                "HTTP sign-in, right password": login("bencher", PASSWORD, 200),
                "HTTP sign-in, wrong password": login("bencher", "wrong one!", 401),
                "HTTP sign-in, unknown name": login("nobody_here", PASSWORD, 401),
            }
            # Taken in turn, so a change in the machine's load falls on all three alike.
            samples: dict[str, list[float]] = {label: [] for label in cases}
            for _ in range(repeat):
                for label, attempt in cases.items():
                    samples[label] += timed(attempt, 1, time.perf_counter)
            for label, taken in samples.items():
                figures(label, taken)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    hashing(args.repeat)
    http(args.repeat)


if __name__ == "__main__":
    main()
