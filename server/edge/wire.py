"""How the server writes JSON: pre-encoded fragments, and the Socket.IO packet class using them.

Every move is pushed to three rooms, and most of each state is the same for all of them and for
every later reader of the same position (the threat map, the insight, the move list). Those
parts are encoded to JSON text once, wrapped in `JsonText`, and spliced verbatim wherever they
appear: in Socket.IO packets (`Packet`, passed to Flask-SocketIO as its serializer), in the
messages the Redis queue carries between processes (`QueueJson`) and in the HTTP API's
responses (`JsonProvider`). What a client receives is the same JSON either way.

Between processes an emit's arguments stay JSON text: `QueueJson` writes each on a line of its
own after the message's envelope, and reads them back as `JsonText`, so a process that relays a
state to its own clients splices it into their packets instead of decoding it and encoding it
again (compact JSON never holds a raw line break: json escapes it inside strings).

`Packet` also skips python-socketio's search of every outgoing payload for binary attachments
(`uses_binary_events = False`, as its msgpack packet does): the server never sends binary data,
and that search walked every list and dict of every state, a quarter of the CPU a move cost.
Incoming packets are decoded as before.

The encoder is orjson, three to six times as fast as the standard library's on a state, which
writes the very same compact text for the server's data; what orjson would write otherwise
(text that is not ASCII, which the standard encoder escapes) or refuses (an integer past 64
bits) is written by the standard encoder, so the bytes sent never depend on which one ran.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider
from socketio import packet

from server.edge.json_limits import loads_bounded

SEPARATORS = (",", ":")
# Deeper than any body (the event's list and its payload add levels), and deep enough that a
# payload nesting a few dozen levels still reaches its parser, whose refusal names the field.
MAX_PACKET_DEPTH = 64


class JsonText:
    """A value already encoded as JSON text; immutable, shared by every message holding it."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"JsonText({self.text[:60]!r}...)"


def encode(value: object) -> JsonText:
    """`value` as compact JSON text, to splice into later messages."""
    return JsonText(dumps(value))


# A string no data holds, written where a fragment goes and replaced by it: 128 random bits
# fresh in every process, never sent anywhere.
_MARK = f"\x00{secrets.token_hex(16)}\x00"
_QUOTED_MARK = json.dumps(_MARK)


def dumps(value: object, default: Callable[[Any], Any] | None = None) -> str:
    """Compact JSON of `value`, with every `JsonText` in it spliced in as it is; `default`
    turns other objects json cannot encode into ones it can (as `json.dumps`'s does)."""
    if isinstance(value, JsonText):
        return value.text
    try:
        encoded = orjson.dumps(value, default=_fragment_or(default), option=ORJSON_OPTIONS)
    except orjson.JSONEncodeError:
        return _stdlib_dumps(value, default)  # an integer past 64 bits, deep nesting
    if not encoded.isascii():
        # The standard encoder escapes what is not ASCII; orjson writes it as UTF-8. The same
        # value either way, but the bytes on the wire stay the ones they always were.
        return _stdlib_dumps(value, default)
    return encoded.decode()


# orjson writes what the standard encoder writes, compactly, for the server's data: str, int,
# bool, None, dicts (non-string keys as json names them), lists and tuples, and the floats of
# ratings. Dates and dataclasses go to `default`, as the standard encoder sends them (Flask's
# JSON provider writes dates as HTTP dates).
ORJSON_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def _fragment_or(default: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
    def fragment(item: Any) -> Any:
        if isinstance(item, JsonText):
            return orjson.Fragment(item.text)
        if default is not None:
            return default(item)
        raise TypeError(f"Object of type {type(item).__name__} is not JSON serializable")

    return fragment


def _stdlib_dumps(value: object, default: Callable[[Any], Any] | None) -> str:
    """`dumps` by the standard library's encoder, splicing fragments through a mark."""
    fragments: list[str] = []

    def splice(item: Any) -> Any:
        if isinstance(item, JsonText):
            fragments.append(item.text)
            return _MARK
        if default is not None:
            return default(item)
        raise TypeError(f"Object of type {type(item).__name__} is not JSON serializable")

    # What the server encodes is plain trees of dicts and lists; not checking them for cycles
    # saves a quarter of the encoder's time on a threat map (64 squares, 128 lists).
    text = json.dumps(value, separators=SEPARATORS, default=splice, check_circular=False)
    if not fragments:
        return text
    pieces = text.split(_QUOTED_MARK)
    if len(pieces) != len(fragments) + 1:
        raise ValueError("the data holds the splice mark")  # it never leaves this process
    spliced = [pieces[0]]
    for fragment, piece in zip(fragments, pieces[1:], strict=True):
        spliced += (fragment, piece)
    return "".join(spliced)


class PacketJson:
    """The `json` module interface that python-socketio's packets call."""

    @staticmethod
    def dumps(value: object, **options: Any) -> str:
        return dumps(value)

    @staticmethod
    def loads(text: str | bytes, **options: Any) -> Any:
        # A client's packet: bounded, so deep nesting is a ValueError, not a RecursionError.
        return loads_bounded(text, MAX_PACKET_DEPTH)


class QueueJson:
    """The `json` interface of the Redis message queue (python-socketio's PubSubManager): emits
    travel as their envelope and then one line of JSON per argument, read back as `JsonText`;
    every other message is plain JSON."""

    @staticmethod
    def dumps(value: object, **options: Any) -> str:
        if isinstance(value, dict) and value.get("method") == "emit" and not value.get("binary"):
            arguments = [dumps(argument) for argument in value["data"]]
            return "\n".join([dumps({**value, "data": None}), *arguments])
        return dumps(value)

    @staticmethod
    def loads(text: str | bytes, **options: Any) -> Any:
        if isinstance(text, bytes):
            text = text.decode()
        envelope, *arguments = text.split("\n")
        message = json.loads(envelope, **options)
        if arguments:
            message["data"] = [JsonText(argument) for argument in arguments]
        return message


class Packet(packet.Packet):  # type: ignore[misc]
    """Socket.IO packets that splice `JsonText` and never look for binary attachments."""

    uses_binary_events = False
    json = PacketJson


class JsonProvider(DefaultJSONProvider):
    """Flask's JSON for the HTTP API, splicing `JsonText` like the packets do."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return dumps(obj, default=self.default)
