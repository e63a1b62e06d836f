"""JSON decoding with a nesting limit, for everything a client sends (HTTP bodies, packets).

Python's `json` decoder recurses once per `[` or `{`, so a body of a thousand nested brackets,
small enough to pass every size limit, ends in a `RecursionError`: not a `ValueError`, so it
escaped the handlers that answer bad JSON and became a 500. `loads_bounded` first measures the
nesting outside strings (a regular expression drops the strings, the brackets left are summed)
and refuses anything deeper than `max_depth` with `JsonTooDeepError` before `json.loads` sees
it. Nothing the server accepts nests more than a few levels; 32 leaves room for any client.

JSON may also spell a lone UTF-16 surrogate (`"\ud800"`), which `json.loads` turns into a
Python string that no UTF-8 encoder takes: it passed every check and failed at the first write
or encoding, a 500 with a traceback (a PGN header, a tree comment, a review's final write).
Such text is not Unicode, and `loads_bounded` refuses it with `InvalidTextError`, naming where.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32

# A complete JSON string (escapes included), and the brackets that remain once they are gone.
# The closing quote is optional: an unterminated string then runs to the end of the text in one
# match, where a required quote made the engine retry from every escaped quote inside it, a
# quadratic search (4 KB of `\"` took 0.2 s of CPU, the whole server's time for that while).
_STRING = re.compile(r'"(?:[^"\\]+|\\.)*"?', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# Strings and the punctuation between them, for finding the field a deep value sits in.
_TOKEN = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}:]', re.DOTALL)
# A \u escape of a UTF-16 surrogate (D800-DFFF): the only way JSON text spells one.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonTooDeepError(ValueError):
    """JSON text nesting arrays and objects deeper than the limit."""

    def __init__(self, depth: int, max_depth: int, field: str | None = None) -> None:
        where = "the JSON" if field is None else f"field {field!r}"
        super().__init__(f"{where} nests {depth} levels deep, more than {max_depth}")
        self.depth = depth
        self.max_depth = max_depth
        self.field = field


class InvalidTextError(ValueError):
    """JSON text holding a string that is not valid Unicode (a lone surrogate)."""

    def __init__(self, where: str) -> None:
        super().__init__(f"{where} is not valid Unicode text (it holds a lone surrogate)")
        self.where = where


def find_invalid_text(value: Any, where: str = "the JSON") -> str | None:
    """Where in `value` (decoded JSON) a string holds a lone surrogate, or None."""
    if isinstance(value, str):
        return where if _has_surrogate(value) else None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        label = f"field {key[:30]!r}" if isinstance(key, str) else f"item {key}"
        found = find_invalid_text(key, f"a field name in {where}") or find_invalid_text(
            item, label if where == "the JSON" else f"{where}, {label}"
        )
        if found:
            return found
    return None


def _has_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest in `text`, counting brackets outside strings (an
    unterminated string runs to the end, as json reads it: its brackets are text)."""
    if text.count("[") + text.count("{") == 0:
        return 0
    brackets = _BRACKET.findall(_STRING.sub("", text))
    return max(accumulate(_STEP[bracket] for bracket in brackets), default=0)


def deep_field(text: str, max_depth: int) -> str | None:
    """The key of the top-level object under which `text` first nests deeper than
    `max_depth`, so a refusal can name the field; None when the deep part is not in one."""
    depth, key, last_string = 0, None, None
    for token in _TOKEN.findall(text):
        if token == ":":
            if depth == 1 and last_string is not None:
                key = json.loads(last_string)
        elif token in _STEP:
            depth += _STEP[token]
            if depth > max_depth:
                return key
        last_string = token if token.startswith('"') else None
    return None


def loads_bounded(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads(text)`, refusing text nested deeper than `max_depth` (JsonTooDeepError);
    malformed text raises `ValueError` as `json.loads` does, bytes as well (UTF-8/16/32)."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode(json.detect_encoding(text), "strict")
    # Cheap test first: text with no more opening brackets than the limit cannot exceed it.
    if text.count("[") + text.count("{") > max_depth:
        depth = nesting_depth(text)
        if depth > max_depth:
            raise JsonTooDeepError(depth, max_depth, deep_field(text, max_depth))
    value = json.loads(text)
    # Cheap test first: only text with a surrogate escape (or, from a lenient decoder, a
    # surrogate itself) can hold one.
    if _SURROGATE_ESCAPE.search(text) or _has_surrogate(text):
        where = find_invalid_text(value)
        if where is not None:
            raise InvalidTextError(where)
    return value
