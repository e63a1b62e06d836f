"""Premoves: one move per seat queued to be played the moment that seat's turn comes.

As on lichess, a player may queue a move while the opponent thinks; the service plays it right
after the opponent's (or the computer's) move is committed, under the same lock, if it is legal
in the new position, and drops it otherwise. The queue is plain memory of this process (a
premove is worth nothing once its game moved on, and a restart forgets it as a reload of the
page does). A pawn premoved to the last rank without a piece promotes to a queen: chessground's
premove names no piece.
"""

from __future__ import annotations

import threading

from chesscore import Color, Move
from server.games import play
from server.games.play import Change, Game


class Premoves:
    """The queued premoves by game and colour; safe to use from several threads."""

    def __init__(self) -> None:
        self.queued: dict[str, dict[Color, Move]] = {}
        self.lock = threading.Lock()

    def queue(self, game_id: str, color: Color, move: Move | None) -> None:
        """Queue `move` for `color`, replacing its earlier one (None: only cancel that)."""
        with self.lock:
            seats = self.queued.setdefault(game_id, {})
            seats.pop(color, None)
            if move is not None:
                seats[color] = move
            if not seats:
                del self.queued[game_id]

    def take(self, game_id: str, color: Color) -> Move | None:
        """The move `color` queued, taken off the queue; None if there is none."""
        with self.lock:
            seats = self.queued.get(game_id)
            move = seats.pop(color, None) if seats else None
            if seats == {}:
                del self.queued[game_id]
            return move

    def forget(self, game_id: str) -> None:
        """Drop the game's premoves (a takeback, the end, the game leaving memory)."""
        with self.lock:
            self.queued.pop(game_id, None)


def premove_change(game: Game, color: Color, move: Move, now: float) -> Change:
    """The move a premove makes now (a refusal raises RequestError, as a move's does)."""
    if move.promotion is None and not game.board.is_legal(move):
        queen = Move.from_uci(move.uci() + "q")
        if game.board.is_legal(queen):
            move = queen
    return play.make_move(game, color, game.ply, move, now)
