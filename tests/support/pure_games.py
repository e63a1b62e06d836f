"""Helpers for the tests of the games' pure functions (server.games.play, offers): play moves
into a game record, and catch the code of a refusal."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chesscore import Move
from server.games.play import Game, make_move
from server.shared.errors import RequestError

NOW = 1000.0


def played(game: Game, *ucis: str, now: float = NOW) -> Game:
    """`game` with `ucis` applied in turn, each as the change `make_move` plans."""
    for uci in ucis:
        game.apply(make_move(game, game.board.turn, game.ply, Move.from_uci(uci), now))
    return game


def refusal(work: Callable[..., object], *args: object) -> str:
    """The code of the RequestError `work(*args)` raises."""
    with pytest.raises(RequestError) as caught:
        work(*args)
    return caught.value.code
