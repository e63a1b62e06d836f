"""The accounts' HTTP API: sign up, sign in and out, the signed-in account, its password,
recovery, deletion, claiming this browser's earlier games, and passkeys (docs/protocol.md,
"Accounts").

Thin handlers over server.accounts.service: each request's address limits are checked before
its body is read (sign-ups by their bucket, anything that checks a secret by the address's
failed attempts), then the body is parsed, the service decides, and the session cookie is set
or cleared (server.accounts.sessions). Refusals use the API's error shape (server.games.http);
cross-site requests never get here (server.edge.origins, at the edge).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, make_response, request

from server.accounts import devices
from server.accounts.identity import Account, current_account
from server.accounts.passkeys import RelyingParty, relying_party
from server.accounts.service import ACCOUNTS, Accounts, SignedIn
from server.accounts.sessions import (
    COOKIE,
    clear_session_cookie,
    is_secure,
    set_session_cookie,
)
from server.edge.clients import request_client
from server.edge.http import answer_errors_as_json, json_body
from server.ratings.tables import RATINGS
from server.ratings.wire import ratings_json
from server.shared.errors import N_, RequestError

blueprint = answer_errors_as_json(Blueprint("accounts_api", __name__, url_prefix="/api/account"))
# Game ids one claim may name (the browser remembers 30 games: static/js/storage.js).


def _accounts() -> Accounts:
    return ACCOUNTS.get()


def account_json(account: Account) -> dict[str, Any]:
    """The account as the API shows it; `ratings` per speed (server.ratings.wire)."""
    ratings = ratings_json(RATINGS.get().ratings_of(account.id), time.time())
    return {"id": account.id, "name": account.name, "ratings": ratings}


def body_fields(*names: str) -> dict[str, Any]:
    """The JSON object body's fields `names` (None where missing), `bad_request` otherwise."""
    body = json_body()
    if not isinstance(body, dict):
        raise RequestError("bad_request", N_("the body must be a JSON object"))
    return {name: body.get(name) for name in names}


def _signed_in(signed: SignedIn, status: int = 200) -> Response:
    """The reply that starts a session: the old one (if any) ends, the new id is the cookie."""
    _accounts().logout(request.cookies.get(COOKIE))
    g.account = signed.account
    body: dict[str, Any] = {"ok": True, "account": account_json(signed.account)}
    if signed.recovery_codes:
        body["recovery_codes"] = list(signed.recovery_codes)
    response = make_response(jsonify(body), status)
    secure = is_secure(current_app.config)
    set_session_cookie(response, signed.session_id, secure)
    response.set_cookie(
        devices.COOKIE,
        _accounts().signed_in_browser(signed.account, _device(), request_client()),
        max_age=devices.MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=secure,
        path="/api/account",
    )
    return response


def _device() -> str | None:
    """The known-device cookie this browser holds (server.accounts.devices), if any."""
    return request.cookies.get(devices.COOKIE)


def signed_in_account() -> Account:
    account = current_account()
    if account is None:
        raise RequestError("not_signed_in", N_("sign in first"))
    return account


def _guarded() -> str:
    """The address of a request that checks a secret, refused while it must wait."""
    address = request_client()
    _accounts().check_address(address)
    return address


@blueprint.post("/signup")
def signup() -> Response:
    address = request_client()
    _accounts().check_signup(address)
    fields = body_fields("name", "password")
    return _signed_in(_accounts().signup(fields["name"], fields["password"], address), 201)


@blueprint.post("/login")
def login() -> Response:
    address = _guarded()
    fields = body_fields("name", "password")
    return _signed_in(_accounts().login(fields["name"], fields["password"], address, _device()))


@blueprint.post("/logout")
def logout() -> Response:
    _accounts().logout(request.cookies.get(COOKIE))
    response = make_response(jsonify({"ok": True}))
    clear_session_cookie(response, is_secure(current_app.config))
    return response


@blueprint.get("")
def account() -> Response:
    return jsonify({"ok": True, "account": account_json(signed_in_account())})


@blueprint.post("/password")
def change_password() -> Response:
    account = signed_in_account()
    address = _guarded()
    fields = body_fields("current", "new")
    return _signed_in(
        _accounts().change_password(account, fields["current"], fields["new"], address, _device())
    )


@blueprint.post("/recover")
def recover() -> Response:
    address = _guarded()
    fields = body_fields("name", "code", "password")
    signed = _accounts().recover(fields["name"], fields["code"], fields["password"], address)
    return _signed_in(signed)


@blueprint.post("/delete")
def delete() -> Response:
    account = signed_in_account()
    address = _guarded()
    _accounts().delete(account, body_fields("password")["password"], address, _device())
    response = make_response(jsonify({"ok": True}))
    clear_session_cookie(response, is_secure(current_app.config))
    return response


# -- passkeys (server.accounts.passkeys)


def _party() -> RelyingParty:
    return relying_party(str(current_app.config.get("PUBLIC_URL") or ""), request.host_url)


@blueprint.post("/passkeys/options")
def passkey_registration_options() -> Response:
    account = signed_in_account()
    address = _guarded()
    _accounts().confirm(account, body_fields("password")["password"], address, _device())
    options = _accounts().passkeys.registration_options(account, _party())
    return jsonify({"ok": True, **options})


@blueprint.get("/passkeys")
def passkey_list() -> Response:
    account = signed_in_account()
    return jsonify({"ok": True, "passkeys": _accounts().tables.passkey_ids(account.id)})


@blueprint.post("/passkeys/delete")
def passkey_delete() -> Response:
    account = signed_in_account()
    _accounts().delete_passkey(account, body_fields("id")["id"])
    return jsonify({"ok": True})


@blueprint.post("/passkeys")
def passkey_register() -> Response:
    account = signed_in_account()
    _guarded()
    fields = body_fields("ticket", "credential")
    _accounts().passkeys.register(account, fields["ticket"], fields["credential"], _party())
    return jsonify({"ok": True})


@blueprint.post("/passkey/options")
def passkey_login_options() -> Response:
    _guarded()
    return jsonify({"ok": True, **_accounts().passkeys.login_options(_party())})


@blueprint.post("/passkey/login")
def passkey_login() -> Response:
    _guarded()
    fields = body_fields("ticket", "credential")
    account = _accounts().passkeys.login(fields["ticket"], fields["credential"], _party())
    return _signed_in(_accounts().sign_in_as(account))
