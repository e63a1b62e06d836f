"""The attack primitive (chesscore.rules.attacks): its two shapes, per square (`attackers`,
`is_attacked`) and whole board (`attack_map`), agree on every square of many positions, and
the threat map's lists (`make_threat_map(board).attackers`, in name order) are the same
relation."""

from __future__ import annotations

import pytest

from chesscore import BLACK, SQUARES, WHITE, square_name
from chesscore.analysis.threats import make_threat_map
from chesscore.rules.attacks import SQUARE_LABELS, attack_map, attackers, is_attacked
from tests.support.positions import game_positions


@pytest.mark.parametrize("seed", range(6))
def test_attack_map_is_attackers_on_every_square(seed: int) -> None:
    for board in game_positions(100 + seed, max_plies=150):
        for color in (WHITE, BLACK):
            pieces = board.piece_squares[color]
            whole = attack_map(board.board, sorted(pieces), SQUARE_LABELS)
            listed = make_threat_map(board).attackers[color]
            for sq in SQUARES:
                found = attackers(board.board, sq, pieces)
                assert whole[sq] == found, (board.fen(), square_name(sq), color)
                assert is_attacked(board.board, sq, pieces) == bool(found)
                names = [square_name(s) for s in listed[sq]]
                assert names == sorted(square_name(s) for s in found)
