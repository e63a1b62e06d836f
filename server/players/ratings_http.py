"""Ratings over HTTP: a player's public ratings per speed (`GET /api/users/<name>`), and the
ratings part of the signed-in account (`GET /api/account`, server.accounts.http).

Each speed's entry is `{"rating", "deviation", "provisional", "games"}` (server.ratings.wire:
`ratings_json`), the deviation as it stands now. Fields are in docs/protocol.md, "Accounts".
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, jsonify

from server.accounts.service import ACCOUNTS
from server.edge.http import answer_errors_as_json
from server.ratings.tables import RATINGS
from server.ratings.wire import ratings_json
from server.shared.errors import N_, RequestError

blueprint = answer_errors_as_json(Blueprint("ratings_api", __name__, url_prefix="/api/users"))

# A name in the address: an account name is 3 to 20 characters (server.accounts.usernames).
MAX_NAME = 20


def account_ratings(account_id: int) -> dict[str, dict[str, Any]]:
    """The account's ratings per speed, as the API shows them."""
    return ratings_json(RATINGS.get().ratings_of(account_id), time.time())


@blueprint.get("/<name>")
def user(name: str) -> Response:
    """The public side of an account: its name and ratings per speed."""
    if len(name) > MAX_NAME:
        raise RequestError("not_found", N_("no player named {name}..."), name=repr(name[:MAX_NAME]))
    account = ACCOUNTS.get().tables.account_by_name(name)
    if account is None:
        raise RequestError("not_found", N_("no player named {name}"), name=repr(name))
    body = {"name": account.name, "ratings": account_ratings(account.id)}
    return jsonify({"ok": True, "user": body})
