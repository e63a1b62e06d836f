"""Display names: what a visitor without an account is called, checked once at the edge.

No accounts: a visitor chooses a name on the lobby (the browser keeps it) or is given one like
"Anonymous-4821". A name is 1 to 20 characters of letters, digits, spaces, `_` and `-`, neither
starting nor ending with a space: nothing that markup, a control character or a look-alike space
could hide in. Pages show names as text only; this check is the second guard, not the first.

Letters alone are not enough to be what a name shows (issue 26): 20 HANGUL FILLERs are letters
that draw nothing, and "Anonymous-1234" spelt with Cyrillic A and o reads as an anonymous name. So a
name's letters are of one script (Japanese may mix its kana and kanji), its digits ASCII or of
that script, no letter is one that draws nothing, and the name is in Unicode's compatibility
normal form (NFKC: no fullwidth or mathematical look-alikes of plain letters). A name whose
`skeleton` (case, the common Cyrillic and Greek look-alikes of Latin letters, i / l / 1,
"rn" / "m" and "vv" / "w" folded away) is that of an anonymous name is refused unless it is
exactly one ("Anonymous-" and four digits, as the browser makes them); `is_look_alike`
compares a name with the names in use.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

MAX_NAME_LENGTH = 20
NAME_WHAT = (
    f"a display name of 1 to {MAX_NAME_LENGTH} letters of one script, digits, spaces, '_' or '-' "
    "(not starting or ending with a space, not a look-alike of another name)"
)
# Letters of any script and decimal digits; marks are refused, so a name is what it shows.
NAME_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"})
# Letters by category that draw nothing (Hangul fillers).
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Scripts (the first word of a character's Unicode name) that one writing system mixes.
SCRIPT_FAMILIES = {"HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE", "CJK": "JAPANESE"}
# Cyrillic and Greek letters drawn like Latin ones, and digits like letters: folded for
# `skeleton`. A few dozen that fonts draw alike, not Unicode's whole confusables table. i, l,
# 1 and the dotless and Cyrillic and Greek i's are one letter (a sans-serif capital I is drawn
# as a small l: "Ilya" and "llya" read alike), and so are "rn" and "m", "vv" and "w".
LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕԁһԛԝкмнтвпѵ" + "αβεικνορτυχζ" + "01" + "i\u0131",
    "aeopcyxljsdhqwkmhtbnv" + "abelknoptuxz" + "ol" + "ll",
)
LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"))
ANONYMOUS = re.compile(r"Anonymous-[0-9]{4}")
ANONYMOUS_SKELETON = re.compile(r"an[ol]nym[ol]us-?[0-9ol]{4}")


def is_name(text: str) -> bool:
    """Whether `text` is an acceptable display name (see the module docstring)."""
    if not 0 < len(text) <= MAX_NAME_LENGTH or text != text.strip(" "):
        return False
    if unicodedata.normalize("NFKC", text) != text:
        return False
    if not all(_is_name_char(char) for char in text):
        return False
    if len(_scripts(text)) > 1:
        return False
    return ANONYMOUS.fullmatch(text) is not None or not ANONYMOUS_SKELETON.fullmatch(skeleton(text))


def _is_name_char(char: str) -> bool:
    if char in " _-":
        return True
    return unicodedata.category(char) in NAME_CATEGORIES and char not in INVISIBLE_LETTERS


def _scripts(text: str) -> set[str]:
    """The scripts of `text`'s letters and non-ASCII digits (by their Unicode names)."""
    scripts = set()
    for char in text:
        if char in " _-" or (char.isascii() and char.isdigit()):
            continue
        script = unicodedata.name(char, "UNKNOWN").split()[0]
        scripts.add(SCRIPT_FAMILIES.get(script, script))
    return scripts


def skeleton(name: str) -> str:
    """`name` with case, spaces, `_` and the common look-alikes folded away: two names of one
    skeleton read alike."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(LOOK_ALIKES)
    shape = "".join(char for char in folded if char not in " _")
    for pair, letter in LOOK_ALIKE_PAIRS:
        shape = shape.replace(pair, letter)
    return shape


def is_look_alike(name: str, names_in_use: set[str]) -> bool:
    """Whether `name` reads like a name in use without being it."""
    shape = skeleton(name)
    return any(other != name and skeleton(other) == shape for other in names_in_use)


def make_anonymous_name() -> str:
    """A name for a visitor who chose none: "Anonymous-" and four digits."""
    return f"Anonymous-{1000 + secrets.randbelow(9000)}"
