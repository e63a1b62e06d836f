"""The lobby's page, the site's front page (templates/index.html): challenges, quick pairing,
games to watch; it talks to the lobby's events (server.lobby.events)."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, render_template

from server.accounts.identity import current_account
from server.ratings.tables import RATINGS
from server.ratings.wire import ratings_json

blueprint = Blueprint("lobby_pages", __name__)
# The speeds the lobby's games are played at, in the order the ratings are shown.
LOBBY_SPEEDS = ("bullet", "blitz", "rapid", "classical")


@blueprint.get("/")
def index() -> str:
    return render_template("index.html", my_ratings=my_ratings())


def my_ratings() -> dict[str, dict[str, Any]] | None:
    """The signed-in player's ratings in the lobby's speeds (None for a visitor)."""
    account = current_account()
    if account is None:
        return None
    shown = ratings_json(RATINGS.get().ratings_of(account.id), time.time())
    return {speed: shown[speed] for speed in LOBBY_SPEEDS}
