"""The quick phrases: each one's key (what the wire carries) and its English text, in this one
place. A reader's page shows a line in its own words from the key: the texts are msgids of the
`messages` catalog (marked `N_`), rendered into the page in the reader's language
(templates/chat_panel.html), so two players of two languages each read their own."""

from __future__ import annotations

from server.shared.errors import N_

PHRASES: dict[str, str] = {
    "hello": N_("Hello"),
    "good_luck": N_("Good luck"),
    "have_fun": N_("Have fun"),
    "you_too": N_("You too"),
    "good_game": N_("Good game"),
    "well_played": N_("Well played"),
    "thank_you": N_("Thank you"),
    "got_to_go": N_("I've got to go"),
    "bye": N_("Bye"),
}


def is_phrase(key: str) -> bool:
    return key in PHRASES
