"""The game's pages: a game (`/game/<id>`, its seat and invitation links) and the help on
reading the threat overlays."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request
from flask.typing import ResponseReturnValue

from server.accounts.identity import current_account_id, shown_name
from server.games.clock import control_name
from server.games.http import set_seat_cookie
from server.games.play import GameSettings
from server.games.rating import game_speed_of
from server.games.seats import is_game_id
from server.games.service import GAMES
from server.shared.errors import RequestError
from server.shared.tokens import is_token

blueprint = Blueprint("game_pages", __name__)


@blueprint.get("/help/overlays")
def overlays_help() -> str:
    """How to read the threat overlays (linked from the legend beside their controls)."""
    return render_template("help_overlays.html")


def game_kind(settings: GameSettings) -> dict[str, object]:
    """What kind of game it is, as lichess heads a game ("Rated · Blitz 3+2", "Casual ·
    Rapid 10+5", "Casual · Unlimited" with no clock): its parts, for game.html to word whole
    in the page's language (the speed's name a msgid of the catalog)."""
    control = control_name(settings.clock)
    speed = game_speed_of(settings.clock).value
    return {
        "rated": settings.rated,
        "speed": None if control is None else speed[0].upper() + speed[1:],
        "control": control,
    }


@blueprint.get("/game/<game_id>")
def game_page(game_id: str) -> ResponseReturnValue:
    """The game page; `?seat=` (private link) and `?invite=` set the seat cookie and redirect
    to the plain address, so the token leaves the address bar and the browser history."""
    service = GAMES.get()
    if not is_game_id(game_id) or not service.exists(game_id):
        abort(404)
    seat, invite = request.args.get("seat"), request.args.get("invite")
    if seat is None and invite is None:
        with service.session(game_id) as game:
            kind = game_kind(game.settings)
        return render_template(["game.html", "index.html"], game_id=game_id, game_kind=kind)
    response = redirect(f"/game/{game_id}", 302)
    if seat is not None:
        if not is_token(seat) or service.seat_of(game_id, seat) is None:
            abort(403)
        set_seat_cookie(response, game_id, seat)
    elif invite is not None:
        if not is_token(invite):
            abort(403)
        try:
            claimed = service.claim_invite(game_id, invite, current_account_id())
        except RequestError:
            abort(403)
        if claimed is not None:
            set_seat_cookie(response, game_id, claimed[1])
            name = shown_name(None)
            if name is not None:  # a signed-in friend is shown by the account's name
                service.name_friend(game_id, claimed[0], name)
    return response
