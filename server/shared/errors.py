"""The one error type every server layer raises for a refused request.

A `RequestError` carries a short machine `code` (listed in docs/protocol.md) and a sentence
naming what was wrong. Socket.IO handlers turn it into an acknowledgement
`{"ok": false, "error", "code"}`, the HTTP API into the same body with the status below. Game
logic, parsing and storage all raise it, so no layer needs to know how another reports errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chesscore.errors import ChessError
from chesscore.words import ENGLISH, Message, Translator, render

# code -> HTTP status; codes only Socket.IO can produce answer 400 over HTTP if they ever leak.
HTTP_STATUS = {
    "bad_request": 400,
    "bad_fen": 400,
    "bad_pgn": 400,
    "bad_tree": 400,
    "forbidden": 403,
    "not_found": 404,
    "not_your_turn": 409,
    "stale_ply": 409,
    "future_ply": 409,
    "illegal_move": 409,
    "ambiguous_move": 409,
    "game_over": 409,
    "not_allowed": 409,
    "seat_taken": 409,
    "conflict": 409,
    "payload_too_large": 413,
    "rate_limited": 429,
    "too_many_games": 429,
    "too_many_seeks": 429,
    "out_of_range": 409,  # a seek's rating range (server.lobby.service)
    "same_opponent": 429,  # rated games against one account in a day (server.lobby.service)
    "same_player": 409,  # a rated game between accounts seen together (server.accounts.sightings)
    "unknown_event": 400,
    "reserved_event": 400,
    "internal": 500,
    # game review (server.review)
    "too_long": 400,
    "game_in_play": 409,
    "not_ready": 409,
    "replaced": 409,
    "queue_full": 503,
    # the edge (server.edge.wsgi): a Host the site does not answer to
    "bad_host": 400,
    # the work pool (server.work)
    "busy": 503,
    "too_slow": 422,
    # accounts (server.accounts)
    "bad_name": 400,
    "reserved_name": 400,
    "weak_password": 400,
    "name_taken": 409,
    "bad_credentials": 401,
    "not_signed_in": 401,
    "too_many_attempts": 429,
    "both_seats": 409,  # a claim that would seat one account on both sides of a game
    # a state-changing request from another site (server.edge.origins)
    "cross_site": 403,
}


class RequestError(Exception):
    """A request refused with `code`; `message` says what was wrong.

    The message is an English msgid of the `messages` catalog (marked `N_` where it is
    written, for `make messages`) with `{name}` placeholders filled from `params`, or a whole
    `chesscore.words.Message` (`said`): `message` and `str()` are the English sentence,
    `to_json` says it in the request's language through the words `translate_with` installed
    (server.i18n), any message among the values said with it.
    """

    def __init__(self, code: str, message: str | Message, **params: Any) -> None:
        if code not in HTTP_STATUS:
            raise ValueError(f"unknown error code {code!r}")
        said = message if isinstance(message, Message) else Message(message, tuple(params.items()))
        english = render(said)
        super().__init__(english)
        self.code = code
        self.message = english
        self.said = said

    @property
    def http_status(self) -> int:
        return HTTP_STATUS[self.code]

    def words(self) -> str:
        """The message in the language of the request being answered."""
        return spoken(self.said)

    def to_json(self) -> dict[str, Any]:
        return {"ok": False, "error": self.words(), "code": self.code}


def N_(message: str) -> str:
    """Marks a refusal's message for extraction into the catalog; translated when answered."""
    return message


def refusal(code: str, error: ChessError) -> RequestError:
    """The refusal saying chesscore's `error` in the request's language (its English
    `message` is the error's own)."""
    return RequestError(code, error.message)


def spoken(message: Message) -> str:
    """`message` in the language of the request (or the connection's event) being answered."""
    return render(message, _words[0]())


def _english() -> Translator:
    return ENGLISH


# The words of the current request's language: English until the app installs its catalogs
# (server.i18n.install); one for the process, like the catalogs.
_words: list[Callable[[], Translator]] = [_english]


def translate_with(words: Callable[[], Translator]) -> None:
    """Say every refusal answered from now on through the words `words()` gives."""
    _words[0] = words


def error_reply(code: str, message: str, **params: object) -> dict[str, Any]:
    """The failure reply without raising (for handlers that answer directly)."""
    return RequestError(code, message, **params).to_json()
