"""Read-only look-ups on a game for the overlays: who may preview a move, squares in words.

A preview is the threat map and the facts of the position a candidate move would make, asked
while a piece is held over a target square (made and cached by server.threats.cache,
once `check_preview` lets the asker have it); a description is one square of a position read out
for a screen reader. Neither changes the game. Who may ask (docs/protocol.md, `preview` and
`describe`): spectators always, save while a rated game is played (`Game.withholds_overlays`:
nobody gets its threat facts then); a player of an assisted game previews only on its own
turn, since a piece can only be dragged then; a player of a game that is not assisted gets no
preview and hears only what stands on a square. Each refusal uses the error codes of the game
actions (`stale_ply`, `illegal_move` ...), so a client handles both alike. The caller holds the
game's lock: some of chesscore's questions make and unmake a move on the board they are asked.
"""

from __future__ import annotations

from chesscore import Board, Color
from chesscore.analysis.describe import PIECE_NAMES, describe_square
from chesscore.rules.squares import COLOR_NAMES, parse_square
from server.games.play import Game, color_name, require_playing
from server.shared.errors import N_, RequestError


def board_at(game: Game, ply: int) -> Board:
    """The position after the game's first `ply` moves, with its history."""
    if ply > game.ply:
        raise RequestError(
            "future_ply", N_("future ply {ply}: the game is at ply {ply2}"), ply=ply, ply2=game.ply
        )
    if ply == game.ply:
        return game.board
    board = Board.from_fen(game.settings.start_fen)
    for record in game.moves[:ply]:
        board.push_uci(record.uci)
    return board


def check_preview(game: Game, role: Color | None, ply: int) -> None:
    """Refuse `role` (None: a spectator) a preview of a move in the game's position at `ply`
    unless it may ask for one (see the module docstring); the caller then makes it, on the
    game's board, and refuses an illegal move."""
    require_playing(game)
    if game.withholds_overlays:
        raise RequestError("not_allowed", N_("a rated game in play has no previews, for anyone"))
    if role is not None and not game.settings.assisted:
        raise RequestError(
            "not_allowed", N_("this game is not assisted: its players get no previews")
        )
    if ply < game.ply:
        raise RequestError(
            "stale_ply", N_("stale ply {ply}: the game is at ply {ply2}"), ply=ply, ply2=game.ply
        )
    if ply > game.ply:
        raise RequestError(
            "future_ply", N_("future ply {ply}: the game is at ply {ply2}"), ply=ply, ply2=game.ply
        )
    if role is not None and role != game.board.turn:
        raise RequestError(
            "not_your_turn", N_("it is {color_name}'s turn"), color_name=color_name(game.board.turn)
        )


def describe_square_at(game: Game, role: Color | None, ply: int, square: str) -> str:
    """`square` of the position at `ply` in words, as `role` may hear it."""
    board = board_at(game, ply)
    assisted = (role is None or game.settings.assisted) and not game.withholds_overlays
    return describe(board, square, assisted=assisted)


def describe(board: Board, square: str, *, assisted: bool) -> str:
    """The square in words: every attacker and defender (chesscore.analysis.describe) when
    `assisted`, else only what stands on it, which is what a sighted player sees without
    overlays."""
    if assisted:
        return describe_square(board, square)
    piece = board.piece_at(parse_square(square))
    if piece is None:
        return f"{square}, empty"
    return f"{square}, {COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]}"
