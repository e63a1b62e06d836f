"""HTTP from a chosen loopback address, so a server on 127.0.0.1 sees another client.

Linux routes all of 127.0.0.0/8 to the loopback interface, so a client bound to 127.0.0.2 is,
to the server's per-address limits and fair queue, a second visitor on the same machine.
"""

from __future__ import annotations

from typing import Any

from requests.adapters import HTTPAdapter


class SourceAddress(HTTPAdapter):
    """Connect from a chosen local address, so the server sees another client."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)
