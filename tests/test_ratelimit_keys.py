"""Which key a client's limits are kept under (server.edge.ratelimit.client_key): one per
IPv4 address, one per IPv6 /64, whatever address inside the block the visitor picks."""

from __future__ import annotations

import pytest

from server.edge.ratelimit import client_address, client_key

KEYS = [
    ("203.0.113.7", "203.0.113.7"),
    ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped: the same visitor
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
    ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # the next /64: another subscriber
    ("not an address", "not an address"),
]


@pytest.mark.parametrize(("address", "key"), KEYS)
def test_an_address_is_keyed_by_the_block_its_holder_controls(address: str, key: str) -> None:
    assert client_key(address) == key


def test_the_forwarded_address_of_a_trusted_proxy_is_keyed_alike() -> None:
    forwarded = "198.51.100.1, 2001:db8:1:2::abcd"
    assert client_address("127.0.0.1", forwarded, 1) == "2001:db8:1:2::/64"
    assert client_address("2001:db8:9:9::1", forwarded, 0) == "2001:db8:9:9::/64"


def test_a_junk_forwarded_value_is_cut_short() -> None:
    assert len(client_address("127.0.0.1", "x" * 5000, 1)) == 64
