"""Offers between the two seats: a draw, a takeback, a rematch; made, accepted or declined.

Like the actions in `server.games.play`, each function validates and returns a `Change` without
touching the game. A pending offer is one colour per kind in the game's header. The computer
answers at once: it declines draws and accepts takebacks and rematches, so against it an offer
of those two is stored directly as its acceptance. A rematch needs the id of the new game, which
the caller creates (with colours swapped) before storing the acceptance.
"""

from __future__ import annotations

from dataclasses import replace

from chesscore import Color, Outcome, Termination
from server.games.play import (
    Change,
    Game,
    Header,
    finished_header,
    make_event,
    require_playing,
)
from server.shared.errors import N_, RequestError


def offer(game: Game, color: Color, kind: str, now: float, rematch_id: str | None = None) -> Change:
    """`color` offers `kind`; an offer the opponent already made of that kind is accepted."""
    opponent = 1 - color
    if game.header.offer_by(kind) == opponent and kind != "takeback":
        return accept(game, color, kind, now, rematch_id)
    if game.header.offer_by(kind) == color:
        raise RequestError("not_allowed", N_("you have already offered a {kind}"), kind=kind)
    _check_can_offer(game, color, kind)
    if game.settings.computer == opponent:
        if kind == "draw":
            raise RequestError("not_allowed", N_("the computer declines draw offers"))
        return _accepted(game, opponent, kind, now, rematch_id)
    header = game.header.with_offer(kind, color)
    return Change(make_event("offer", color, kind=kind), header)


def _check_can_offer(game: Game, color: Color, kind: str) -> None:
    if kind == "rematch":
        if game.is_playing:
            raise RequestError(
                "not_allowed", N_("a rematch can only be offered once the game is over")
            )
        if game.header.rematch is not None:
            raise RequestError(
                "not_allowed",
                N_("the rematch {rematch} exists already"),
                rematch=game.header.rematch,
            )
        return
    require_playing(game)
    if kind == "takeback":
        if game.header.offer_by("takeback") is not None:
            raise RequestError("not_allowed", N_("answer the opponent's takeback offer first"))
        if takeback_plies(game, color) > game.ply:
            raise RequestError("not_allowed", N_("you have no move to take back"))


def takeback_plies(game: Game, color: Color) -> int:
    """How many plies go back so that it is `color`'s turn again before its last move."""
    return 2 if game.board.turn == color else 1


def accept(
    game: Game, color: Color, kind: str, now: float, rematch_id: str | None = None
) -> Change:
    """`color` accepts the opponent's pending offer of `kind`."""
    if game.header.offer_by(kind) != 1 - color:
        raise RequestError(
            "not_allowed", N_("there is no {kind} offer from the opponent to accept"), kind=kind
        )
    if kind != "rematch":
        require_playing(game)
    return _accepted(game, color, kind, now, rematch_id)


def _accepted(game: Game, color: Color, kind: str, now: float, rematch_id: str | None) -> Change:
    header = game.header.with_offer(kind, None)
    if kind == "draw":
        outcome = Outcome(Termination.AGREEMENT, None)
        return Change(
            make_event("accept", color, kind=kind, outcome=outcome),
            finished_header(game, header, outcome, now),
        )
    if kind == "takeback":
        return _taken_back(game, color, header, now)
    if rematch_id is None:
        raise ValueError("accepting a rematch needs the new game's id")
    header = replace(header, rematch=rematch_id)
    return Change(make_event("accept", color, kind=kind, rematch=rematch_id), header)


def _taken_back(game: Game, color: Color, header: Header, now: float) -> Change:
    offerer = 1 - color
    plies = takeback_plies(game, offerer)
    board = game.board.copy()
    for _ in range(plies):
        board.pop()
    keep = game.ply - plies
    if header.clock is not None:
        header = replace(header, clock=header.clock.restarted(board.turn, now, keep))
    event = make_event("accept", color, kind="takeback", plies=plies)
    return Change(event, header, board, keep_plies=keep)


def decline(game: Game, color: Color, kind: str) -> Change:
    """`color` declines the opponent's pending offer of `kind`."""
    if game.header.offer_by(kind) != 1 - color:
        raise RequestError(
            "not_allowed", N_("there is no {kind} offer from the opponent to decline"), kind=kind
        )
    header = game.header.with_offer(kind, None)
    return Change(make_event("decline", color, kind=kind), header)
