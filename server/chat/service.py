"""The chat's service: who may say what where, the rate limit, the recent lines.

A connection that joined a game (server.edge.connections knows its role) opens the chat of its
audience: a seat's is the players' chat, anyone else's the spectators'. A line said there goes
to that audience's room and nowhere else, so the two chats stay apart. Each speaker (a seat, or
a spectator's address) may say `BURST` lines at once, then one every `INTERVAL` seconds: the
phrases are preset, but repeated at speed they are still noise. The last lines of each chat
are kept in the store (server.chat.tables), for a page that opens it later (a reload, a
spectator arriving) on whichever server process it reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chesscore import Color
from server.accounts.identity import Account
from server.chat.tables import ChatTables
from server.chat.wire import ChatLine, chat_room, line_json
from server.games.play import color_name
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_
from server.shared.slots import Slot

BURST = 4
INTERVAL = 3.0

Emit = Callable[[str, dict[str, Any]], None]  # (room, line)


def audience_of(role: Color | None) -> str:
    return "spectators" if role is None else "players"


class ChatService:
    """The games' chats over `tables`; `emit(room, line)` sends a line to a room."""

    def __init__(
        self, emit: Emit, tables: ChatTables, burst: int = BURST, interval: float = INTERVAL
    ) -> None:
        self.emit = emit
        self.tables = tables
        self.speakers = AddressBuckets(burst, interval)

    def lines(self, game_id: str, role: Color | None) -> list[dict[str, Any]]:
        """The recent lines of the chat `role` reads in the game."""
        room = chat_room(game_id, audience_of(role))
        return [line_json(line) for line in self.tables.recent(room)]

    def say(
        self,
        game_id: str,
        role: Color | None,
        phrase: str,
        speaker: str,
        account: Account | None = None,
    ) -> ChatLine:
        """`phrase` said in the game by `role` (a spectator signed in to `account`, if any);
        `speaker` is whom the rate limit counts (a seat, or a spectator's address)."""
        self.speakers.take(speaker, N_("chat lines"))
        if role is None:
            line = ChatLine(phrase, "spectator", account.name if account else None)
        else:
            line, account = ChatLine(phrase, color_name(role)), None  # a seat speaks unnamed
        room = chat_room(game_id, audience_of(role))
        self.tables.add(room, line, account.id if account else None)
        self.emit(room, line_json(line))
        return line


CHAT: Slot[ChatService] = Slot("chat service")
