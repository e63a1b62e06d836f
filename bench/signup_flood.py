"""The owner's sign-in during a sign-up flood (issue 33, 3), against one real server on 127.0.0.1.

Usage:
  python bench/signup_flood.py                      # 40 addresses x 5 sign-ups
  python bench/signup_flood.py --addresses 10 --each 2
  python bench/hostile.py --only signups            # the same, as part of the hostile run

The server is started as a user starts it (`python -m server`, its default limits). The owner,
from 127.0.0.2, signs up once, then signs in: five times alone, then once a second while
`--addresses` visitors from 127.0.2.x each try `--each` sign-ups at once, one after the other,
a sign-up answered `busy` tried again at once (a flood does not wait), one refused
`rate_limited` ending that address's flood. Printed: the owner's sign-in time alone and during
the flood (p50 and max; goal during: under 1 s), its answers, and the flood's answers by
status with the wait for each address's first answer. Beside each sign-in the owner reads the
lobby (`GET /api/lobby`, no hash): the serving loop's own delay, so that a sign-in slower than
that read by more than a hash would show a sign-in queueing behind the sign-ups' hashes.
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import requests

from tests.support.addresses import SourceAddress
from tests.support.live_server import LiveServer

OWNER = "127.0.0.2"
PASSWORD = "an owner's long passphrase"
# The owner signs in once a second: within its address's bucket of password checks
# (server/shared/config.py: 10 at once, then one every 2 s) for the flood's first 20 s.
SIGNIN_EVERY = 1.0
SIGNINS_ALONE = 5
MOST_SIGNINS = 30


def session_from(address: str) -> requests.Session:
    http = requests.Session()
    http.mount("http://", SourceAddress(address))
    return http


def timed_get(http: requests.Session, url: str) -> float:
    started = time.monotonic()
    http.get(url, timeout=120)
    return time.monotonic() - started


def timed_post(http: requests.Session, url: str, body: dict[str, str]) -> tuple[float, int]:
    started = time.monotonic()
    answer = http.post(url, json=body, timeout=120)
    return time.monotonic() - started, answer.status_code


class Flood:
    """`addresses` visitors signing up `each` times; what they were answered."""

    def __init__(self, url: str, addresses: int, each: int) -> None:
        self.url = url
        self.addresses = addresses
        self.each = each
        self.statuses: Counter[int] = Counter()
        self.first_answers: list[float] = []
        self.lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self._visitor, args=(index,), daemon=True)
            for index in range(addresses)
        ]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def is_running(self) -> bool:
        return any(thread.is_alive() for thread in self.threads)

    def join(self) -> None:
        for thread in self.threads:
            thread.join(timeout=300)

    def _visitor(self, index: int) -> None:
        http = session_from(f"127.0.2.{index % 250 + 1}")
        made = 0
        first = True
        while made < self.each:
            body = {"name": f"f{secrets.token_hex(6)}", "password": PASSWORD}
            took, status = timed_post(http, self.url + "/api/account/signup", body)
            with self.lock:
                self.statuses[status] += 1
                if first:
                    self.first_answers.append(took)
            first = False
            if status == 201:
                made += 1
            elif status != 503:
                return  # rate limited (or worse): this address is done


def summary(times: list[float]) -> str:
    if not times:
        return "no samples"
    return f"p50 {statistics.median(times):6.3f} s  max {max(times):6.3f} s  ({len(times)})"


def run_flood(url: str, addresses: int, each: int) -> dict[str, list[float]]:
    """The flood against the server at `url`; prints its figures and returns the owner's."""
    owner = session_from(OWNER)
    name = f"owner{secrets.token_hex(4)}"
    made = owner.post(url + "/api/account/signup", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    signin = {"name": name, "password": PASSWORD}
    alone = [timed_post(owner, url + "/api/account/login", signin) for _ in range(SIGNINS_ALONE)]
    reads_alone = [timed_get(owner, url + "/api/lobby") for _ in range(SIGNINS_ALONE)]
    flood = Flood(url, addresses, each)
    started = time.monotonic()
    flood.start()
    during: list[tuple[float, int]] = []
    reads: list[float] = []
    while flood.is_running() and len(during) < MOST_SIGNINS:
        reads.append(timed_get(owner, url + "/api/lobby"))
        during.append(timed_post(owner, url + "/api/account/login", signin))
        time.sleep(SIGNIN_EVERY)
    flood.join()
    lasted = time.monotonic() - started
    answers = Counter(status for _, status in during)
    print(f"sign-up flood: {addresses} addresses x {each} sign-ups, lasted {lasted:.1f} s")
    print(f"  owner's sign-in alone:  {summary([took for took, _ in alone])}")
    print(f"  owner's sign-in during: {summary([took for took, _ in during])} (goal: under 1 s)")
    print(f"  owner's answers during: {dict(sorted(answers.items()))}")
    print(f"  owner's lobby read alone:  {summary(reads_alone)}")
    print(f"  owner's lobby read during: {summary(reads)} (the serving loop's own delay)")
    print(f"  flood's answers: {dict(sorted(flood.statuses.items()))} (201 made, 503 busy)")
    print(f"  each address's first answer: {summary(flood.first_answers)}")
    return {"alone": [took for took, _ in alone], "during": [took for took, _ in during]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=40)
    parser.add_argument("--each", type=int, default=5)
    parser.add_argument("--async-mode", choices=("gevent", "threading"), default="gevent")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as instance:
        env = {"CHESS_ASYNC_MODE": args.async_mode}
        server = LiveServer(Path(instance), env=env).start(timeout=60)
        try:
            run_flood(server.url, args.addresses, args.each)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
