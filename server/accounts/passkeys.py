"""Passkeys (WebAuthn), a second way to sign in, through the `webauthn` package.

A signed-in player adds a passkey from the settings page: the server hands the browser
registration options (`registration_options`: a random challenge, this site as the relying
party, the account's existing passkeys excluded, a discoverable credential asked for), the
browser's authenticator makes a key pair, and `register` checks its answer against the
challenge, the site's id and origin, then stores the credential's id and public key. Signing
in (`login_options`, `login`) asks for any of this site's passkeys; the authenticator signs
the challenge, and the signature, the origin and the counter are checked against the stored
key. Each ceremony's challenge is kept here under a random ticket for `CHALLENGE_SECONDS`,
used once, at most `MAX_PENDING` at a time (the oldest dropped).

The relying party is this site: the host and origin of CHESS_PUBLIC_URL, else of the request
(its Host is one the site answers to, server.edge.wsgi). Browsers allow WebAuthn on
https and on `localhost`, not on a bare IP address.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import urllib.parse
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from server.accounts.identity import Account
from server.accounts.tables import AccountTables
from server.shared.errors import RequestError

RP_NAME = "Chess"
CHALLENGE_SECONDS = 300.0
MAX_PENDING = 10_000
REFUSED = "the passkey was not accepted"


@dataclass(frozen=True)
class RelyingParty:
    """This site as WebAuthn knows it: its host name and its origin."""

    id: str
    origin: str


def relying_party(public_url: str, request_url: str) -> RelyingParty:
    """The site of CHESS_PUBLIC_URL if set, else of the request's own address."""
    parts = urllib.parse.urlsplit(public_url or request_url)
    return RelyingParty(parts.hostname or "", f"{parts.scheme}://{parts.netloc}")


class Passkeys:
    """The passkey ceremonies of one server process over the accounts' tables."""

    def __init__(self, tables: AccountTables) -> None:
        self.tables = tables
        # ticket -> (challenge, the account registering or None for a sign-in, when made)
        self.pending: OrderedDict[str, tuple[bytes, int | None, float]] = OrderedDict()
        self.lock = threading.Lock()

    def registration_options(self, account: Account, party: RelyingParty) -> dict[str, Any]:
        options = generate_registration_options(
            rp_id=party.id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=str(account.id).encode(),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.REQUIRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential_id))
                for credential_id in self.tables.passkey_ids(account.id)
            ],
        )
        return self._pending(options.challenge, account.id, options_to_json(options))

    def register(
        self, account: Account, ticket: object, credential: object, party: RelyingParty
    ) -> None:
        challenge = self._take(ticket, account.id)
        try:
            verified = verify_registration_response(
                credential=_credential(credential),
                expected_challenge=challenge,
                expected_rp_id=party.id,
                expected_origin=party.origin,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise RequestError("bad_credentials", f"{REFUSED}: {str(error)[:200]}") from error
        passkey = (
            bytes_to_base64url(verified.credential_id),
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
        )
        if not self.tables.add_passkey(account.id, passkey):
            raise RequestError("conflict", "this passkey is registered already")

    def login_options(self, party: RelyingParty) -> dict[str, Any]:
        options = generate_authentication_options(
            rp_id=party.id, user_verification=UserVerificationRequirement.REQUIRED
        )
        return self._pending(options.challenge, None, options_to_json(options))

    def login(self, ticket: object, credential: object, party: RelyingParty) -> Account:
        """The account whose passkey signed this ceremony's challenge, or `bad_credentials`."""
        challenge = self._take(ticket, None)
        answer = _credential(credential)
        credential_id = answer.get("id")
        stored = self.tables.passkey(credential_id) if isinstance(credential_id, str) else None
        if stored is None:
            raise RequestError("bad_credentials", f"{REFUSED}: not a passkey of this site")
        user_id, public_key, sign_count = stored
        try:
            verified = verify_authentication_response(
                credential=answer,
                expected_challenge=challenge,
                expected_rp_id=party.id,
                expected_origin=party.origin,
                credential_public_key=base64url_to_bytes(public_key),
                credential_current_sign_count=sign_count,
                require_user_verification=True,
            )
        except (WebAuthnException, ValueError, KeyError, TypeError) as error:
            raise RequestError("bad_credentials", f"{REFUSED}: {str(error)[:200]}") from error
        self.tables.count_passkey(str(credential_id), verified.new_sign_count)
        user = self.tables.user_by_id(user_id)
        if user is None or user.deleted:
            raise RequestError("bad_credentials", f"{REFUSED}: the account is gone")
        return Account(user.id, user.name)

    def _pending(self, challenge: bytes, account: int | None, options: str) -> dict[str, Any]:
        ticket = secrets.token_urlsafe(16)
        now = time.monotonic()
        with self.lock:
            while self.pending and (
                len(self.pending) >= MAX_PENDING
                or next(iter(self.pending.values()))[2] < now - CHALLENGE_SECONDS
            ):
                self.pending.popitem(last=False)
            self.pending[ticket] = (challenge, account, now)
        return {"ticket": ticket, "options": json.loads(options)}

    def _take(self, ticket: object, account: int | None) -> bytes:
        """The challenge of `ticket`, once, if it is this ceremony's and not too old."""
        with self.lock:
            held = self.pending.pop(ticket, None) if isinstance(ticket, str) else None
        if held is None or held[1] != account or held[2] < time.monotonic() - CHALLENGE_SECONDS:
            raise RequestError("bad_credentials", f"{REFUSED}: start again (the challenge is gone)")
        return held[0]


def _credential(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RequestError("bad_request", "field 'credential' must be the browser's JSON object")
    return value
