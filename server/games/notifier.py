"""What the game service tells after a change, as a protocol: the service calls down into it.

The games know nothing of rooms, sockets or who is listening: `GameService` is given an object
with these methods (the transport's `server.games.rooms.RoomNotifier` in the app, a
recorder in the service's own tests) and calls it after each committed change, under the
game's lock, so the messages of one game go out in the order of its changes.
"""

from __future__ import annotations

from typing import Protocol

from chesscore import Color
from server.games.play import Event, Game


class Notifier(Protocol):
    def changed(self, game: Game, event: Event) -> None:
        """`game` changed (already stored and applied); `event` is the recorded change."""

    def refresh(self, game: Game) -> None:
        """Send `game`'s state again, unchanged but for who is connected."""

    def rematch_made(self, game: Game, rematch: Game, seats: dict[Color, str]) -> None:
        """`game`'s rematch was made: `seats` are the rematch's seat tokens by its colours."""

    def premove_dropped(self, game: Game, color: Color, uci: str, reason: str) -> None:
        """The premove `uci` that `color` queued was not legal when its turn came: dropped."""
