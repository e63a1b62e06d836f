"""Quick pairing by rating (server.lobby.pairing): rated with rated between two accounts, the
nearest rating first, windows that widen with the time waited, both sides' windows honoured."""

from __future__ import annotations

from typing import Any

from server.lobby.pairing import WIDEN_PER_SECOND, WINDOW, can_pair, choose_partner, pairs_due
from server.lobby.tables import StoredSeek


def wait(
    owner: str,
    rating: int | None,
    created: float = 0.0,
    rated: bool = False,
    account: int | None = None,
    control: str = "5+3",
) -> StoredSeek:
    body: dict[str, Any] = {"name": owner, "color": None, "assisted": not rated, "rated": rated}
    body.update({"account": account, "rating": rating, "provisional": False, "range": None})
    return StoredSeek(f"id-{owner}", "pair", owner, "1.2.3.4", control, body, created, "h")


def test_the_nearest_rating_is_preferred_to_the_longest_wait() -> None:
    newcomer = wait("new", 1500, created=10, account=1)
    waiting = [wait("far", 1640, created=0, account=2), wait("near", 1520, created=5, account=3)]
    assert choose_partner(newcomer, waiting, now=10) == waiting[1]


def test_equal_distances_go_to_the_longest_wait() -> None:
    newcomer = wait("new", 1500, created=10, account=1)
    waiting = [wait("later", 1450, created=5, account=2), wait("first", 1550, created=1, account=3)]
    assert choose_partner(newcomer, waiting, now=10) == waiting[1]


def test_the_window_widens_with_the_time_waited() -> None:
    gap = 400
    seconds = (gap - WINDOW) / WIDEN_PER_SECOND  # both have waited this long: just enough
    early = wait("a", 1500, created=0, account=1)
    late = wait("b", 1500 + gap, created=0, account=2)
    assert not can_pair(early, late, now=seconds - 1)
    assert can_pair(early, late, now=seconds)
    # A newcomer's window is the narrow one: the pairing waits for it too.
    newcomer = wait("c", 1500 + gap, created=seconds, account=3)
    assert not can_pair(early, newcomer, now=seconds)


def test_rated_pairs_only_with_rated_and_never_one_account_with_itself() -> None:
    rated = wait("a", 1500, rated=True, account=1)
    assert not can_pair(rated, wait("b", 1500, rated=False, account=2), now=0)
    assert not can_pair(rated, wait("c", 1500, rated=True, account=1), now=0)  # two tabs
    assert not can_pair(wait("v", None, rated=True), wait("w", None, rated=True), now=0)
    assert can_pair(rated, wait("d", 1500, rated=True, account=2), now=0)


def test_visitors_without_ratings_pair_as_before_the_longest_wait_first() -> None:
    newcomer = wait("new", None, created=10)
    waiting = [wait("first", None, created=1), wait("second", 2500, created=2, account=5)]
    assert choose_partner(newcomer, waiting, now=10) == waiting[0]
    assert choose_partner(newcomer, [], now=10) is None


def test_the_heartbeat_pairs_waits_whose_windows_met() -> None:
    a = wait("a", 1500, created=0, account=1)
    b = wait("b", 1900, created=1, account=2)
    c = wait("c", 1000, created=2, account=3, control="1+0")
    assert pairs_due([a, b, c], now=10) == []
    assert pairs_due([a, b, c], now=30) == [(b, a)]  # c waits for 1+0 alone
