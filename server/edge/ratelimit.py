"""The transport's limits on one client: events per connection, and the key of an address.

A connection may send `BURST` events at once, then `PER_SECOND` a second (a `TokenBucket`
per connection, server.edge.connections). Limits per client address (creating games,
games against the computer: server.games.admission; the buckets: server.shared.buckets) are
kept under the key `client_address` reads from a request: the peer's address, or from the
proxy's X-Forwarded-For only when the server is configured to trust that many proxies.
"""

from __future__ import annotations

import ipaddress

# A connection's events: at once, then per second.
BURST = 20
PER_SECOND = 10.0


def client_address(remote: str | None, forwarded_for: str | None, trusted_proxies: int) -> str:
    """The client's address: the peer's, or, behind `trusted_proxies` proxies that each append
    the address they saw to X-Forwarded-For, the one the outermost trusted proxy saw. Entries
    further left are the client's own say and never trusted (werkzeug's ProxyFix rule)."""
    if trusted_proxies > 0 and forwarded_for:
        hops = [hop.strip() for hop in forwarded_for.split(",")]
        if len(hops) >= trusted_proxies and hops[-trusted_proxies]:
            return client_key(hops[-trusted_proxies])
    return client_key(remote or "unknown")


def client_key(address: str) -> str:
    """The key an address's limits are kept under: an IPv4 address as it is (an IPv4-mapped
    IPv6 one turned back into it), an IPv6 address by its /64 network, the block one
    subscriber holds: keyed by the full address, one visitor had 2**64 keys to spread over.
    Anything that is no address (the proxy's say) is a key of its own, cut short."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
