"""chesscore's facts in the wire form: where squares get their names, and only here.

chesscore answers in 0x88 squares, colours 0/1 and piece types, held in frozen dataclasses
(`ThreatMap`, `XrayMap`, `Change`, `Preview`, the safety labels). The browser reads square
names, "white"/"black" and piece words; these functions turn one into the other, once per
position (the encoded text is cached: server.threats.cache). The shapes are the ones
docs/protocol.md documents; every list keeps chesscore's name order, so no list is sorted here.

The threat map's wire form lists, per colour, only the squares that colour attacks or defends
(`attackers`), and the x-rays only the squares some piece x-rays: most squares have neither, and
leaving them out halves the text and the time to encode and decode it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from chesscore.analysis.insight import Attack, Change, Fork, MoveFacts, Preview
from chesscore.analysis.threats import BOARD_SQUARES, Pin, ThreatMap
from chesscore.analysis.xray import PinLine, XrayMap
from chesscore.rules.squares import COLOR_NAMES, SQUARE_NAMES
from server.edge.wire import JsonText, encode

PIECE_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")


def names(squares: Iterable[int]) -> list[str]:
    """The names of an iterable of squares, in its order."""
    return [SQUARE_NAMES[sq] for sq in squares]


def threats_json(threats: ThreatMap) -> dict[str, Any]:
    """The threat map (docs/protocol.md, "threats"): `attackers`, colour -> square -> the
    squares of that colour's pieces attacking or defending it, for the squares it reaches;
    `checkers`, `pins` and `hanging`."""
    white, black = threats.attackers
    return {
        "attackers": {"white": _reached(white), "black": _reached(black)},
        "checkers": names(threats.checkers),
        "pins": [_pin_json(pin) for pin in threats.pins],
        "hanging": names(threats.hanging),
    }


def _reached(attackers: Sequence[Sequence[int]]) -> dict[str, list[str]]:
    return {
        SQUARE_NAMES[sq]: [SQUARE_NAMES[origin] for origin in attackers[sq]]
        for sq in BOARD_SQUARES
        if attackers[sq]
    }


def _pin_json(pin: Pin) -> dict[str, str]:
    return {
        "pinned": SQUARE_NAMES[pin.pinned],
        "pinner": SQUARE_NAMES[pin.pinner],
        "king": SQUARE_NAMES[pin.king],
    }


def pin_lines_json(pins: tuple[PinLine, ...]) -> list[dict[str, Any]]:
    """Pin lines (chesscore.analysis.xray), absolute and relative."""
    return [
        {
            "pinner": SQUARE_NAMES[pin.pinner],
            "pinned": SQUARE_NAMES[pin.pinned],
            "target": SQUARE_NAMES[pin.target],
            "absolute": pin.absolute,
        }
        for pin in pins
    ]


def xrays_json(xrays: XrayMap) -> dict[str, dict[str, list[str]]]:
    """Square -> the white and black x-ray attackers, for the squares that have any."""
    white, black = xrays.attackers
    return {
        SQUARE_NAMES[sq]: {"white": names(white.get(sq, ())), "black": names(black.get(sq, ()))}
        for sq in BOARD_SQUARES
        if sq in white or sq in black
    }


def insight_json(xrays: XrayMap, change: Change | None) -> dict[str, Any]:
    """The state's `insight`: x-rays, pin lines and the last move's change (the square
    descriptions are asked one by one with the `describe` event)."""
    return {
        "xrays": xrays_json(xrays),
        "pins": pin_lines_json(xrays.pins),
        "change": None if change is None else change_json(change),
    }


def change_json(change: Change) -> dict[str, Any]:
    """What a move changed (chesscore.analysis.insight)."""
    return {
        "move": _move_json(change.move),
        "checkers": names(change.checkers),
        "new_attacks": [_attack_json(attack) for attack in change.new_attacks],
        "discovered": [_attack_json(attack) for attack in change.discovered],
        "became_hanging": names(change.became_hanging),
        "no_longer_hanging": names(change.no_longer_hanging),
        "forks": [_fork_json(fork) for fork in change.forks],
        "pins_created": pin_lines_json(change.pins_created),
        "pins_released": pin_lines_json(change.pins_released),
    }


def _move_json(facts: MoveFacts) -> dict[str, Any]:
    return {
        "uci": facts.move.uci(),
        "color": COLOR_NAMES[facts.color],
        "piece": PIECE_NAMES[facts.piece],
        "from": SQUARE_NAMES[facts.origin],
        "to": SQUARE_NAMES[facts.target],
        "captured": None if facts.captured is None else PIECE_NAMES[facts.captured],
    }


def _attack_json(attack: Attack) -> dict[str, str]:
    return {
        "from": SQUARE_NAMES[attack.origin],
        "to": SQUARE_NAMES[attack.target],
        "by": COLOR_NAMES[attack.color],
    }


def _fork_json(fork: Fork) -> dict[str, Any]:
    return {
        "from": SQUARE_NAMES[fork.origin],
        "targets": names(fork.targets),
        "by": COLOR_NAMES[fork.color],
    }


def preview_json(found: Preview, checked_king: int | None) -> dict[str, Any]:
    """A move's preview (docs/protocol.md, `preview`) with `checked_king`, the square of the
    king the move checks (or None)."""
    return {
        "move": found.move.uci(),
        "fen": found.fen,
        "see": found.see,
        "safety": found.safety,
        "threats": threats_json(found.threats),
        "pins": pin_lines_json(found.pins),
        "change": change_json(found.change),
        "checked_king": square_or_none(checked_king),
    }


def safety_text(labels: dict[int, dict[int, str]]) -> JsonText:
    """The safety label of every legal move, origin -> target -> label, as JSON text (sent
    after every move; orjson encodes the dicts in about half the time it took to write the
    text with Python's own string joins)."""
    return encode(
        {
            SQUARE_NAMES[origin]: {SQUARE_NAMES[target]: label for target, label in targets.items()}
            for origin, targets in labels.items()
        }
    )


def square_or_none(sq: int | None) -> str | None:
    return None if sq is None else SQUARE_NAMES[sq]
