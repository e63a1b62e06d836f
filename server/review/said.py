"""A review said in its reader's language: the explanations rendered at read, never stored so.

A review is made once, by a background job, and read by players of every language: each
judged ply's explanation is stored with its English `text` and its `words`, the same as a
message (chesscore.words). Whatever hands a review to a player (the HTTP JSON, the socket's
answer and pushes, the reviewed PGN) passes it through here with the reader's `Translator`,
which replaces each `text` by the message said in that language. A review stored before its
explanations were kept as messages (no `words`) keeps its English text. The pushes go to one
room per language (`review_room`), each said once for all its watchers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chesscore.review.pgn import say_comments
from chesscore.words import ENGLISH, Translator, message_from_json, render
from server.i18n import LANGUAGES, language_words


def say_plies(plies: list[dict[str, Any]], words: Translator) -> list[dict[str, Any]]:
    """The review JSON's `plies` with each explanation's text said through `words` (copies:
    the stored ones are left as they are)."""
    if words is ENGLISH:
        return plies
    said = []
    for ply in plies:
        explanation = ply.get("explanation")
        if explanation and "words" in explanation:
            text = render(message_from_json(explanation["words"]), words)
            ply = {**ply, "explanation": {**explanation, "text": text}}
        said.append(ply)
    return said


def say_review(body: dict[str, Any], words: Translator) -> dict[str, Any]:
    """A review's JSON (or a `review_update` push) with its plies, and why it failed, said
    through `words`."""
    if words is ENGLISH:
        return body
    said = {**body}
    if "plies" in body:
        said["plies"] = say_plies(body["plies"], words)
    if body.get("error_words"):
        said["error"] = render(message_from_json(body["error_words"]), words)
    return said


def say_pgn(pgn: str, body: dict[str, Any], words: Translator) -> str:
    """The reviewed PGN with its comments (the accuracy, the explanations) said through
    `words` (`body`: the review's JSON, whose plies keep the explanations as messages)."""
    if words is ENGLISH:
        return pgn
    return say_comments(pgn, body.get("plies") or [], body.get("accuracy"), words)


def review_room(review_id: str, language: str) -> str:
    """The room of the watchers of a review who read it in `language`."""
    return f"review/{review_id}/{language}"


def push_in_every_language(
    send: Callable[[str, dict[str, Any]], None],
    review_id: str,
    payload: dict[str, Any],
    reaches: Callable[[str], bool],
) -> None:
    """`send(room, payload)` the `review_update` `payload` to the room of each language that
    `reaches` someone (behind Redis: every one), said in it."""
    for language in LANGUAGES:
        room = review_room(review_id, language)
        if reaches(room):
            send(room, say_review(payload, language_words(language)))
