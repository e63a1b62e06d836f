"""Ratings over HTTP: a player's public ratings per speed (`GET /api/users/<name>`), and the
ratings part of the signed-in account (`GET /api/account`, server.accounts.http).

Each speed's entry is `{"rating", "deviation", "provisional", "games"}` (server.games.rating:
`ratings_json`), the deviation as it stands now. Fields are in docs/protocol.md, "Accounts".
"""

from __future__ import annotations

import time
from typing import Any, cast

from flask import Blueprint, Response, current_app, jsonify

from server.accounts.tables import AccountTables
from server.games.http import answer_errors_as_json
from server.games.rating import ratings_json
from server.ratings.tables import RatingTables
from server.shared.errors import RequestError

blueprint = answer_errors_as_json(Blueprint("ratings_api", __name__, url_prefix="/api/users"))

# A name in the address: an account name is 3 to 20 characters (server.accounts.usernames).
MAX_NAME = 20


def account_ratings(account_id: int) -> dict[str, dict[str, Any]]:
    """The account's ratings per speed, as the API shows them."""
    store = cast(RatingTables, current_app.extensions["chess_tables"].ratings)
    return ratings_json(store.ratings_of(account_id), time.time())


@blueprint.get("/<name>")
def user(name: str) -> Response:
    """The public side of an account: its name and ratings per speed."""
    if len(name) > MAX_NAME:
        raise RequestError("not_found", f"no player named {name[:MAX_NAME]!r}...")
    store = cast(AccountTables, current_app.extensions["chess_tables"].accounts)
    account = store.account_by_name(name)
    if account is None:
        raise RequestError("not_found", f"no player named {name!r}")
    body = {"name": account.name, "ratings": account_ratings(account.id)}
    return jsonify({"ok": True, "user": body})
