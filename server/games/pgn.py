"""A game's PGN headers and result token: the one place they are written.

The game's own PGN (server.games.http), its review (server.review) and a player's export
(server.players.export) all take their headers from here: the site's address, the date, the
shown names, a rated game's ratings (as lichess writes them: `WhiteElo` and `BlackElo` as the
game started, `WhiteRatingDiff` and `BlackRatingDiff` once it ended), the opening and how the
game ended.
"""

from __future__ import annotations

import datetime

from flask import current_app

from chesscore import BLACK, WHITE
from chesscore.openings import Opening, opening_of
from server.edge.headers import public_url
from server.games.play import Game, GameSettings, Header, shown_names
from server.games.rating import game_speed_of


def pgn_headers(game: Game) -> dict[str, str]:
    site = public_url(current_app.config)
    today = datetime.date.today()
    return stored_pgn_headers(
        game.id, game.settings, game.header, site, today, opening_of(game.board)
    )


def stored_pgn_headers(
    game_id: str,
    settings: GameSettings,
    header: Header,
    site: str,
    played: datetime.date,
    opening: Opening | None,
) -> dict[str, str]:
    """A game's PGN headers from what is stored of it, without its board: the export of a
    player's games (server.players.export) writes thousands of them."""
    names = shown_names(settings, header)
    headers = {
        "Event": "Casual game",
        "Site": f"{site}/game/{game_id}",
        "Date": played.strftime("%Y.%m.%d"),
        "White": names[WHITE],
        "Black": names[BLACK],
    }
    if settings.rated:
        headers["Event"] = f"Rated {game_speed_of(settings.clock).value} game"
        headers.update(rating_headers(settings, header))
    if opening is not None:
        headers["ECO"], headers["Opening"] = opening.eco, opening.name
    if header.outcome is not None:
        headers["Termination"] = header.outcome.termination.value
    elif header.status == "aborted":
        headers["Termination"] = "aborted"
    return headers


def rating_headers(settings: GameSettings, header: Header) -> dict[str, str]:
    """A rated game's Elo tags: each side's rating as the game started, and the change the
    game made once it ended ("+8", "-8", "+0")."""
    tags = {}
    for color, side in ((WHITE, "White"), (BLACK, "Black")):
        start = settings.ratings[color]
        if start is not None:
            tags[f"{side}Elo"] = str(start.rating)
        after = header.rated[color] if header.rated else None
        if after is not None and after.diff is not None:
            tags[f"{side}RatingDiff"] = f"{after.diff:+d}"
    return tags


def pgn_result(game: Game) -> str:
    return header_result(game.header)


def header_result(header: Header) -> str:
    """The PGN result token of a game with this header ("*" while it goes on or aborted)."""
    return header.outcome.result() if header.outcome else "*"
