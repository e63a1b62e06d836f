"""A finished game as its players' history rows (server.players.tables), made once at its end.

`history_entries` gives one `HistoryEntry` per signed-in seat: the result from that side, the
opponent's name as the game's record shows it, the speed of the time control, whether it was
rated, the opening of its last named position and the plies. An aborted game has none (lichess
keeps no aborted game either). The opening is worked out here, from the board the game already
has, so the profile's list and the export never replay a game to name it.

The speed is the ratings' (chesscore.ratings.speed: lichess's sorting by the estimated
duration), so a game is listed under the speed it is rated in.
"""

from __future__ import annotations

from collections.abc import Mapping

from chesscore.openings import opening_of
from chesscore.ratings.speed import Speed
from server.games.clock import ClockSettings, control_name
from server.games.play import Game, shown_names
from server.games.rating import game_speed_of
from server.players.tables import HistoryEntry

SPEEDS = tuple(speed.value for speed in Speed)


def speed_of(clock: ClockSettings | None) -> str:
    """The speed of a game with that clock (None: correspondence), as the ratings name it."""
    return game_speed_of(clock).value


def history_entries(game: Game, accounts: Mapping[int, int], ended: float) -> list[HistoryEntry]:
    """The rows of `game`, which ended at `ended` (wall-clock seconds), for its signed-in
    seats (`accounts`: colour -> account id); none when it was aborted or still goes on."""
    outcome = game.header.outcome
    if outcome is None:
        return []
    opening = opening_of(game.board)
    names = shown_names(game.settings, game.header)
    entries = []
    for color, account in sorted(accounts.items()):
        entries.append(
            HistoryEntry(
                account=account,
                game_id=game.id,
                color=color,
                ended=int(ended * 1000),
                speed=speed_of(game.settings.clock),
                control=control_name(game.settings.clock) or "-",
                rated=game.settings.rated,
                result=result_of(outcome.winner, color),
                opponent=names[1 - color],
                opponent_account=accounts.get(1 - color),
                eco=opening.eco if opening else None,
                opening=opening.name if opening else None,
                plies=game.ply,
            )
        )
    return entries


def result_of(winner: int | None, color: int) -> str:
    """The result from `color`'s side of a game `winner` won (None: drawn)."""
    if winner is None:
        return "draw"
    return "win" if winner == color else "loss"
