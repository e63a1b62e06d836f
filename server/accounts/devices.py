"""Known devices: a signed cookie a browser gets at each successful sign-in to an account,
which spares it that account's failure wait (server.accounts.limits) from then on.

Without it anyone could keep an owner out of their account (and out of recovery, password
change and deletion) by one wrong guess each time the per-account wait ends. The cookie names
the account by its name's key and carries an HMAC-SHA256 of it under the app's secret key;
nobody without a past sign-in to that account can make one. A browser holding it is still
limited per address, so a thief of the cookie guesses no faster than any single address.
"""

from __future__ import annotations

import hashlib
import hmac

COOKIE = "known_device"
# A year: the owner signs in now and then, and each sign-in sets it again.
MAX_AGE = 365 * 24 * 3600


class Devices:
    """Makes and checks known-device cookies under one secret key."""

    def __init__(self, secret: str | bytes) -> None:
        self.secret = secret.encode() if isinstance(secret, str) else secret

    def token(self, key: str) -> str:
        """The cookie's value for the account of name key `key`."""
        mac = hmac.new(self.secret, b"known-device\x00" + key.encode(), hashlib.sha256)
        return mac.hexdigest()

    def is_known(self, cookie: str | None, key: str) -> bool:
        """Whether `cookie` was set at a sign-in to the account of name key `key`."""
        return bool(cookie) and hmac.compare_digest(str(cookie), self.token(key))
