"""What the lobby service tells, as a protocol: it calls down into it after each change.

The lobby knows no rooms or sockets; the transport's `server.lobby.events.LobbyRooms`
implements this (broadcasts to everyone on the lobby page, and a private message to the one
connection a seat is for), and the service's tests give it a recorder.
"""

from __future__ import annotations

from typing import Protocol

from server.lobby.seeks import Seat, Seek


class LobbyNotifier(Protocol):
    def seek_added(self, seek: Seek) -> None:
        """A new open challenge, for everyone in the lobby."""

    def seeks_removed(self, ids: list[str]) -> None:
        """Challenges taken, withdrawn or left: gone from everyone's list."""

    def paired(self, owner: str, seat: Seat) -> None:
        """The waiting connection `owner` was given `seat` in a new game: to it alone."""

    def games_changed(self) -> None:
        """The games in play changed (one started, ended or moved): the watch list is due."""
