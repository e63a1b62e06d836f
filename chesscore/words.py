"""chesscore's sentences as data, said in a reader's language through a gettext `Translator`.

chesscore knows no web framework and no catalog. What it says is either said at once through
a `Translator` handed in (the trainer's drills), or kept as a `Message` and said later, once
per reader (a review is made once and read in every language): a message is its English
msgid (the catalogs' key), an optional plural form and the count choosing between them, an
optional context (gettext's msgctxt: the role of a noun phrase in its sentence, so that German
may say "die Dame" or "der Dame" and French "la dame" or "de la dame" as the sentence needs),
and named values put into its `{placeholders}` after translation: plain strings and numbers
(moves in SAN, squares, evaluations: said the same in every language) or messages of their
own. Messages are written with `say`, `say_in` and `say_n`, which `make messages` extracts
(the Makefile's keywords `say`, `say_in:1c,2`, `say_n:1,2`); `N_` marks a msgid kept in a
table. `render` says a message; `message_to_json` / `message_from_json` keep it in a store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Union, overload


class Translator(Protocol):
    """What gettext's translations objects have (babel's `Translations` among them)."""

    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str: ...


class English:
    """The messages as written: English, gettext's way when no catalog is loaded."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


ENGLISH: Translator = English()


def N_(message: str) -> str:
    """Marks `message` for extraction where it is kept to be translated later."""
    return message


Value = Union[str, int, "Message"]


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence or a phrase to be said later (module docstring): `msgid`, with `plural`
    chosen by `count` when given, in `context` when given, its placeholders filled by
    `values` (name, value) in order."""

    msgid: str
    values: tuple[tuple[str, Value], ...] = ()
    plural: str | None = None
    count: int | None = None
    context: str | None = None

    def with_values(self, **values: Value) -> Message:
        """The same message with more values (a clause's subject, put in by its caller)."""
        return Message(
            self.msgid, (*self.values, *values.items()), self.plural, self.count, self.context
        )


def say(msgid: str, **values: Value) -> Message:
    """The message `msgid` with its `values`."""
    return Message(msgid, tuple(values.items()))


def say_in(context: str, msgid: str, **values: Value) -> Message:
    """The message `msgid` in `context` (gettext's msgctxt), with its `values`."""
    return Message(msgid, tuple(values.items()), context=context)


def say_n(singular: str, plural: str, count: int, **values: Value) -> Message:
    """The message of `count` things: `singular` or `plural` as the language chooses."""
    return Message(singular, tuple(values.items()), plural, count)


@overload
def say_list(items: Sequence[Message], either: bool = False) -> Message: ...


@overload
def say_list(items: Sequence[Value], either: bool = False) -> Value: ...


def say_list(items: Sequence[Value], either: bool = False) -> Value:
    """ "a", "a and b", "a, b and c" ("a, b or c" when `either`): the list's joints are
    messages of their own."""
    joined = items[0]
    for index, item in enumerate(items[1:], 2):
        if index < len(items):
            joined = say_in("list", "{items}, {item}", items=joined, item=item)
        elif either:
            joined = say_in("list", "{items} or {item}", items=joined, item=item)
        else:
            joined = say_in("list", "{items} and {item}", items=joined, item=item)
    return joined


def render(message: Message, words: Translator = ENGLISH) -> str:
    """`message` said through `words`: its template translated, then its values (each
    message among them said the same way) put into its placeholders. A message without values
    is taken as written; a translation that lost a placeholder gives way to the English.

    >>> queen = say_in("material", "the queen")
    >>> render(say("{move} loses {lost}", move="Qxe5??", lost=queen))
    'Qxe5?? loses the queen'
    >>> render(say_list([say("{square}", square=name) for name in ("f2", "g2", "h2")]))
    'f2, g2 and h2'
    >>> message_from_json(message_to_json(queen)) == queen
    True
    """
    context = message.context
    if message.plural is not None:
        count = message.count or 0
        if context is None:
            template = words.ngettext(message.msgid, message.plural, count)
        else:
            template = words.npgettext(context, message.msgid, message.plural, count)
    elif context is None:
        template = words.gettext(message.msgid)
    else:
        template = words.pgettext(context, message.msgid)
    if not message.values:
        return str(template)  # taken as written, braces and all
    values = {
        name: render(value, words) if isinstance(value, Message) else value
        for name, value in message.values
    }
    try:
        return str(template).format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder
        english = message.msgid if message.plural is None or message.count == 1 else message.plural
        return english.format(**values)


def message_to_json(message: Message) -> dict[str, Any]:
    """`{"msgid", "values": {name: value or message}}`, with `"plural"`, `"count"` and
    `"context"` when it has them (values keep their order)."""
    body: dict[str, Any] = {"msgid": message.msgid}
    if message.plural is not None:
        body["plural"], body["count"] = message.plural, message.count
    if message.context is not None:
        body["context"] = message.context
    body["values"] = {
        name: message_to_json(value) if isinstance(value, Message) else value
        for name, value in message.values
    }
    return body


def message_from_json(body: Mapping[str, Any]) -> Message:
    """The message `message_to_json` wrote. ValueError when `body` is not one."""
    msgid = body.get("msgid")
    values = body.get("values", {})
    if not isinstance(msgid, str) or not isinstance(values, Mapping):
        raise ValueError(f"not a message: {str(body)[:80]!r}")
    read: list[tuple[str, Value]] = []
    for name, value in values.items():
        if isinstance(value, Mapping):
            read.append((name, message_from_json(value)))
        elif isinstance(value, str | int) and not isinstance(value, bool):
            read.append((name, value))
        else:
            raise ValueError(f"not a message's value: {name}={str(value)[:40]!r}")
    plural, count, context = body.get("plural"), body.get("count"), body.get("context")
    return Message(
        msgid,
        tuple(read),
        plural if isinstance(plural, str) else None,
        count if isinstance(count, int) else None,
        context if isinstance(context, str) else None,
    )


def plural_count(amount: float) -> int:
    """The count a plural form is chosen by: `amount` itself when whole, else 2, which every
    served language writes in its plural ("1.5 pawns")."""
    return int(amount) if amount == int(amount) else 2
