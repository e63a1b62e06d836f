"""Claiming a browser's games: `POST /api/account/claim` (docs/protocol.md, "Accounts").

A visitor who signs up or in may claim the games this browser played: each seat cookie it holds
proves it sat there. The accounts link the seats (server.accounts.service, once per game), and
the claimed games that are already over join the player's history here, dated by their end.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from server.accounts.http import body_fields, signed_in_account
from server.accounts.service import ACCOUNTS
from server.edge.http import answer_errors_as_json
from server.games.seats import cookie_name, is_game_id
from server.games.service import GAMES
from server.players.http import record_claimed
from server.shared.errors import N_, RequestError
from server.shared.tokens import hash_token, is_token

blueprint = answer_errors_as_json(Blueprint("claims", __name__, url_prefix="/api/account"))

MAX_CLAIMED = 100


@blueprint.post("/claim")
def claim() -> Response:
    account = signed_in_account()
    seats = body_fields("seats")["seats"]
    if not isinstance(seats, list) or len(seats) > MAX_CLAIMED:
        raise RequestError(
            "bad_request",
            N_("field 'seats' must be a list of at most {MAX_CLAIMED} game ids"),
            MAX_CLAIMED=MAX_CLAIMED,
        )
    held = {}
    for game_id in seats:
        if not isinstance(game_id, str) or not is_game_id(game_id):
            raise RequestError(
                "bad_request", N_("{str} is not a game id"), str=repr(str(game_id)[:20])
            )
        token = request.cookies.get(cookie_name(game_id))
        if token is not None and is_token(token):
            held[game_id] = token  # the seat this browser holds proves it played there
    _refuse_both_seats(account.id, held)
    claimed = ACCOUNTS.get().claim(account, held)
    record_claimed(GAMES.get(), claimed)
    return jsonify({"ok": True, "claimed": claimed})


def _refuse_both_seats(account_id: int, seats: dict[str, str]) -> None:
    """`both_seats` when a seat this browser holds would give the account both sides of a game
    (the other seat is the account's already)."""
    tables = GAMES.get().tables
    for game_id, token in seats.items():
        color = tables.seat_color(game_id, hash_token(token))
        stored = tables.load_game(game_id) if color is not None else None
        if (
            color is not None
            and stored is not None
            and stored.accounts.get(1 - color) == account_id
        ):
            raise RequestError(
                "both_seats",
                N_("this account holds the other seat of game {game_id} already"),
                game_id=game_id,
            )
