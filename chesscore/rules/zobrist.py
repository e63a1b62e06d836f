"""Zobrist keys: a 64-bit number per position so repetitions can be found by comparing ints.

A position's key is the XOR of one fixed random number per (piece, square), one for the side
to move (black), one per castling-rights combination and, only when an en passant capture is
actually legal, one for the file of the en passant square; so two positions that allow the same
moves get the same key, as the repetition rules require. The numbers come from a seeded
generator, so keys are the same in every run and every process. The board updates its key
incrementally on each move; `compute_key` recomputes one from scratch (for new boards and tests).
"""

from __future__ import annotations

import random

_rng = random.Random(0x0C4E55)

# Indexed by `piece_code << 7 | square` (piece codes are below 16, squares below 128).
PIECE_KEYS: tuple[int, ...] = tuple(_rng.getrandbits(64) for _ in range(16 * 128))
SIDE_KEY: int = _rng.getrandbits(64)
# Indexed by the castling-rights bit set (0..15): the XOR of the keys of its rights.
_RIGHT_KEYS = tuple(_rng.getrandbits(64) for _ in range(4))
CASTLING_KEYS: tuple[int, ...] = tuple(
    _RIGHT_KEYS[0] * (r & 1 > 0)
    ^ _RIGHT_KEYS[1] * (r & 2 > 0)
    ^ _RIGHT_KEYS[2] * (r & 4 > 0)
    ^ _RIGHT_KEYS[3] * (r & 8 > 0)
    for r in range(16)
)
EN_PASSANT_KEYS: tuple[int, ...] = tuple(_rng.getrandbits(64) for _ in range(8))
del _rng


def compute_key(board: list[int], turn: int, castling_rights: int, ep_file: int | None) -> int:
    """The key of a position; `ep_file` only when a legal en passant capture exists."""
    key = SIDE_KEY if turn else 0
    for sq, code in enumerate(board):
        if code:
            key ^= PIECE_KEYS[code << 7 | sq]
    key ^= CASTLING_KEYS[castling_rights]
    if ep_file is not None:
        key ^= EN_PASSANT_KEYS[ep_file]
    return key
