"""chesscore's errors carry their words as data (chesscore.words.Message): the msgid with its
named placeholders and the values, a reason nested as a message of its own, said through any
gettext-shaped translation while `str(error)` stays the English sentence."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from babel.support import Translations

from chesscore import Board, ChessError
from chesscore.errors import InvalidFenError, InvalidPgnError
from chesscore.rules.pgn_import import read_games
from chesscore.words import render, say

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def french() -> Translations:
    found = Translations.load(str(TRANSLATIONS), ["fr"], domain="messages")
    assert isinstance(found, Translations), "run make translations"
    return found


class Broken:
    """A translation that lost its placeholders' names."""

    def gettext(self, message: str) -> str:
        return "la rangée {rang} compte {count} cases"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular)


def raised(call: object, *args: object) -> ChessError:
    with pytest.raises(ChessError) as error:
        call(*args)  # type: ignore[operator]
    return error.value


def test_a_fen_error_keeps_its_message_its_values_and_its_english() -> None:
    error = raised(Board.from_fen, "4k3/8/8/8/8/8/8/8 w - - 0 1")
    assert isinstance(error, InvalidFenError)
    assert error.message.msgid == "unplayable position {fen}: {reason}"
    reason = dict(error.message.values)["reason"]
    assert reason == say("{count} white kings (there must be exactly one)", count=0)
    assert str(error) == (
        "unplayable position '4k3/8/8/8/8/8/8/8 w - - 0 1': "
        "0 white kings (there must be exactly one)"
    )
    assert render(error.message) == str(error)


def test_the_message_and_its_nested_reason_are_said_in_french() -> None:
    error = raised(read_games, "1. e4 e5 2. Ke3 *")
    assert isinstance(error, InvalidPgnError)
    said = render(error.message, french())
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert said == f"ligne 1 : 2. 'Ke3' : coup SAN illégal 'Ke3' dans '{fen}'"


def test_a_translation_that_lost_a_placeholder_falls_back_to_english() -> None:
    message = say("rank {rank} has {count} squares", rank=3, count=9)
    assert render(message, Broken()) == "rank 3 has 9 squares"


def test_a_message_without_values_is_taken_as_written() -> None:
    error = ChessError("no {braces} filled here")
    assert str(error) == "no {braces} filled here"
    assert render(error.message, Broken()) == "la rangée {rang} compte {count} cases"


def test_an_error_crosses_a_process_with_its_message() -> None:
    error = raised(Board.from_fen, "8/8/8/8/8/8/8/8/8 w - - 0 1")
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is InvalidFenError
    assert str(copy) == str(error) and copy.message == error.message
