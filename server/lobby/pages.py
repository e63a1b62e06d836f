"""The lobby's page, the site's front page (templates/index.html): challenges, quick pairing,
games to watch; it talks to the lobby's events (server.lobby.events)."""

from __future__ import annotations

from flask import Blueprint, render_template

blueprint = Blueprint("lobby_pages", __name__)


@blueprint.get("/")
def index() -> str:
    return render_template("index.html")
