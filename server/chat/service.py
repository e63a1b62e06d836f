"""The chat's service: who may say what where, the rate limit, the recent lines.

A connection that joined a game (server.edge.connections knows its role) opens the chat of its
audience: a seat's is the players' chat, anyone else's the spectators'. A line said there goes
to that audience's room and nowhere else, so the two chats stay apart. Each speaker (a seat, or
a spectator's address) may say `BURST` lines at once, then one every `INTERVAL` seconds: the
phrases are preset, but repeated at speed they are still noise. The last `KEPT` lines of each
chat are kept in this process's memory, for a page that opens it later (a reload, a spectator
arriving); they are gone when the server restarts, as a chat of a finished game may be.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from chesscore import Color
from server.chat.wire import ChatLine, chat_room, line_json
from server.games.play import color_name
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_
from server.shared.slots import Slot

BURST = 4
INTERVAL = 3.0
KEPT = 30
MAX_CHATS = 10_000  # the chats kept in memory; the least recently used go first

Emit = Callable[[str, dict[str, Any]], None]  # (room, line)


def audience_of(role: Color | None) -> str:
    return "spectators" if role is None else "players"


class ChatService:
    """The games' chats; `emit(room, line)` sends a line to a room."""

    def __init__(self, emit: Emit, burst: int = BURST, interval: float = INTERVAL) -> None:
        self.emit = emit
        self.speakers = AddressBuckets(burst, interval)
        self.chats: OrderedDict[str, deque[ChatLine]] = OrderedDict()
        self.lock = threading.Lock()

    def lines(self, game_id: str, role: Color | None) -> list[dict[str, Any]]:
        """The recent lines of the chat `role` reads in the game."""
        with self.lock:
            kept = list(self.chats.get(chat_room(game_id, audience_of(role)), ()))
        return [line_json(line) for line in kept]

    def say(
        self, game_id: str, role: Color | None, phrase: str, speaker: str, name: str | None
    ) -> ChatLine:
        """`phrase` said in the game by `role` (a spectator named `name`, if signed in);
        `speaker` is whom the rate limit counts (a seat, or a spectator's address)."""
        self.speakers.take(speaker, N_("chat lines"))
        if role is None:
            line = ChatLine(phrase, "spectator", name)
        else:
            line = ChatLine(phrase, color_name(role))
        room = chat_room(game_id, audience_of(role))
        with self.lock:
            kept = self.chats.setdefault(room, deque(maxlen=KEPT))
            kept.append(line)
            self.chats.move_to_end(room)
            while len(self.chats) > MAX_CHATS:
                self.chats.popitem(last=False)
        self.emit(room, line_json(line))
        return line


CHAT: Slot[ChatService] = Slot("chat service")
