"""Read-only look-ups on a game for the overlays: move previews and squares in words.

A preview is the threat map and the facts of the position a candidate move would make, asked
while a piece is held over a target square; a description is one square of a position read out
for a screen reader. Neither changes the game. Who may ask (docs/protocol.md, `preview` and
`describe`): spectators always; a player of an assisted game previews only on its own turn,
since a piece can only be dragged then; a player of a game that is not assisted gets no
preview and hears only what stands on a square. Each refusal uses the error codes of the game
actions (`stale_ply`, `illegal_move` ...), so a client handles both alike. The caller holds the
game's lock: some of chesscore's questions make and unmake a move on the board they are asked.
"""

from __future__ import annotations

from typing import Any

from chesscore import Board, ChessError, Color, Move
from server.errors import RequestError
from server.games.facts import cached_preview, describe
from server.games.play import Game, color_name, require_playing


def board_at(game: Game, ply: int) -> Board:
    """The position after the game's first `ply` moves, with its history."""
    if ply > game.ply:
        raise RequestError("future_ply", f"future ply {ply}: the game is at ply {game.ply}")
    if ply == game.ply:
        return game.board
    board = Board.from_fen(game.settings.start_fen)
    for record in game.moves[:ply]:
        board.push_uci(record.uci)
    return board


def preview_move(game: Game, role: Color | None, ply: int, move: Move) -> dict[str, Any]:
    """The preview of `move` in the game's current position, asked by `role` (None: a
    spectator)."""
    require_playing(game)
    if role is not None and not game.settings.assisted:
        raise RequestError("not_allowed", "this game is not assisted: its players get no previews")
    if ply < game.ply:
        raise RequestError("stale_ply", f"stale ply {ply}: the game is at ply {game.ply}")
    if ply > game.ply:
        raise RequestError("future_ply", f"future ply {ply}: the game is at ply {game.ply}")
    if role is not None and role != game.board.turn:
        raise RequestError("not_your_turn", f"it is {color_name(game.board.turn)}'s turn")
    try:
        return cached_preview(game.board, move)
    except ChessError as error:
        raise RequestError(
            "illegal_move", f"illegal move {move.uci()!r} in {game.board.fen()}"
        ) from error


def describe_square_at(game: Game, role: Color | None, ply: int, square: str) -> str:
    """`square` of the position at `ply` in words, as `role` may hear it."""
    board = board_at(game, ply)
    return describe(board, square, assisted=role is None or game.settings.assisted)
