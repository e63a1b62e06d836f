"""The five catalogs are complete and current (docs/i18n.md), and chesscore speaks through them.

Each language's two catalogs (`messages`, `js`) must translate every message, with none left
fuzzy, keep each message's placeholders, and carry gettext's plural forms for the language. A
fresh extraction from the sources (the Makefile's own `pybabel extract` arguments, into a
temporary folder) must find exactly the messages each catalog holds: a message added, changed or
removed in the code and not brought into the catalogs by `make messages` fails here. chesscore's
trainer sentences come out in French through the compiled French catalog, and in English, as
before, without one.
"""

from __future__ import annotations

import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from babel.support import Translations

from chesscore.puzzles import read_puzzles
from chesscore.training import ENGLISH, PositionFacts, make_drill
from server.puzzles.lesson import make_lesson
from server.puzzles.service import SHIPPED
from server.puzzles.tables import StoredPuzzle

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("fr", "de", "es", "pt", "sv")
DOMAINS = ("messages", "js")
# gettext's plural forms of each language (the GNU gettext manual's table).
PLURAL_FORMS = {
    "fr": "nplurals=2; plural=(n > 1);",
    "pt": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "sv": "nplurals=2; plural=(n != 1);",
}
PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")


def catalog(lang: str, domain: str) -> Catalog:
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as source:
        return read_po(source, locale=lang)


def msgid(message_id: str | tuple[str, ...]) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str, domain: str) -> None:
    read = catalog(lang, domain)
    untranslated = [
        msgid(message.id)
        for message in read
        if message.id
        and (not message.string or (isinstance(message.string, tuple) and not all(message.string)))
    ]
    fuzzy = [msgid(message.id) for message in read if message.id and message.fuzzy]
    assert untranslated == [], f"{lang}/{domain}: {len(untranslated)} untranslated"
    assert fuzzy == [], f"{lang}/{domain}: fuzzy"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_translations_keep_every_placeholder(lang: str, domain: str) -> None:
    """A placeholder lost or misspelt would leave "{move}" on the page or fail the format."""
    wrong = []
    for message in catalog(lang, domain):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set().union(*(set(PLACEHOLDER.findall(text)) for text in ids))
        for text in strings:
            # A singular form may say "one" instead of its count.
            if set(PLACEHOLDER.findall(text)) - wanted:
                wrong.append((msgid(message.id), text))
            if not isinstance(message.id, tuple) and set(PLACEHOLDER.findall(text)) != wanted:
                wrong.append((message.id, text))
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_plural_forms_are_the_languages(lang: str, domain: str) -> None:
    text = (TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    assert f'"Plural-Forms: {PLURAL_FORMS[lang]}\\n"' in text


def makefile_extractions() -> list[list[str]]:
    """The `pybabel extract` commands of `make messages`, as the Makefile writes them."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    commands = []
    for line in text.splitlines():
        if "$(PYBABEL) -q extract" in line:
            words = shlex.split(line.strip())
            commands.append(words[words.index("extract") + 1 :])
    assert len(commands) == 2, "make messages extracts the two domains"
    return commands


def test_the_catalogs_are_current_with_the_sources(tmp_path: Path) -> None:
    """A fresh extraction finds exactly the messages of each language's catalogs."""
    for arguments in makefile_extractions():
        output = arguments[arguments.index("-o") + 1]
        domain = Path(output).stem
        fresh = tmp_path / f"{domain}.pot"
        arguments[arguments.index("-o") + 1] = str(fresh)
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", *arguments],
            cwd=ROOT,
            check=True,
        )
        with open(fresh, "rb") as source:
            extracted = {msgid(message.id) for message in read_po(source) if message.id}
        assert len(extracted) > 100, domain
        for lang in LANGUAGES:
            held = {msgid(message.id) for message in catalog(lang, domain) if message.id}
            assert sorted(extracted - held) == [], f"{lang}/{domain}: run make messages"
            assert sorted(held - extracted) == [], f"{lang}/{domain}: obsolete messages"


def compiled(lang: str) -> Translations:
    found = Translations.load(str(TRANSLATIONS), [lang], domain="messages")
    assert isinstance(found, Translations), "run make translations"
    return found


def test_a_drill_is_said_in_french_and_in_english_by_default() -> None:
    """The same drill (the same position, kind and square) in both languages."""
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    facts = PositionFacts(fen)
    english = make_drill(facts, "hanging", random.Random(1))
    french = make_drill(facts, "hanging", random.Random(1), words=compiled("fr"))
    assert english is not None and french is not None
    assert english.squares == french.squares
    assert english.question.startswith("Click every hanging piece")
    assert french.question.startswith("Cliquez sur chaque pièce en prise")
    assert make_drill(facts, "hanging", random.Random(1), words=ENGLISH) == english
    # The same seed picks the same square to count in either language.
    count = make_drill(facts, "count", random.Random(1))
    said = make_drill(facts, "count", random.Random(1), words=compiled("de"))
    assert count is not None and said is not None
    assert (count.focus, count.count) == (said.focus, said.count)
    assert count.question.startswith("How many white and how many black pieces attack")
    assert said.question.startswith("Wie viele weiße und wie viele schwarze Figuren greifen")


def test_pawns_are_counted_by_plural_forms_never_pawn_s() -> None:
    """ "1 pawn", "3 pawns": the English default and the catalogs choose the form by count."""
    fen = "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"  # the rook on d5 hangs: 5 pawns of material
    facts = PositionFacts(fen)
    english = make_drill(facts, "hanging", random.Random(1))
    french = make_drill(facts, "hanging", random.Random(1), words=compiled("fr"))
    assert english is not None and french is not None
    assert "5 pawns of material" in english.reasons[0]
    assert "5 pions de matériel" in french.reasons[0]
    assert all("(s)" not in reason for reason in english.reasons + french.reasons)


def shipped_puzzles() -> list[StoredPuzzle]:
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    return [
        StoredPuzzle(p.id, p.fen, p.moves, p.rating, p.deviation, 0.06, 0, p.themes, "", None)
        for p in read_puzzles(lines)
    ]


def test_a_puzzles_lesson_is_said_in_each_language_by_whole_sentences() -> None:
    """The lesson's sentences (server.puzzles.lesson) come through the catalog: the same facts,
    each a whole sentence of the language, the themes' names its own."""
    said = {"fr": "fait une fourchette : ", "de": "ist eine Gabel: "}
    idea = {"fr": "L'idée : ", "de": "Die Idee: "}
    puzzle = next(
        puzzle
        for puzzle in shipped_puzzles()
        if "fork" in puzzle.themes and " forks the " in make_lesson(puzzle, 0)["sentence"]
    )
    english = make_lesson(puzzle, 0)["sentence"]
    assert make_lesson(puzzle, 0, ENGLISH)["sentence"] == english
    assert "The idea: Fork" in english
    for lang in ("fr", "de"):
        words = compiled(lang)
        sentence = make_lesson(puzzle, 0, words)["sentence"]
        san = make_lesson(puzzle, 0)["san"]
        assert sentence.startswith(f"{san} {said[lang]}"), sentence
        assert f"{idea[lang]}{words.gettext('Fork')}" in sentence, sentence
        assert " the " not in sentence and " on " not in sentence, sentence
