"""The quick phrases: each one's key (what the wire carries) and its English text, in this one
place. A reader's page shows a line in its own words from the key (the texts are rendered into
the page, templates/chat_panel.html), so the translations come in here alone."""

from __future__ import annotations

PHRASES: dict[str, str] = {
    "hello": "Hello",
    "good_luck": "Good luck",
    "have_fun": "Have fun",
    "you_too": "You too",
    "good_game": "Good game",
    "well_played": "Well played",
    "thank_you": "Thank you",
    "got_to_go": "I've got to go",
    "bye": "Bye",
}


def is_phrase(key: str) -> bool:
    return key in PHRASES
