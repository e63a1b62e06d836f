"""The exchange's shortcuts (chesscore.analysis.see) against the plain swap algorithm they stand in
for, on every legal move of positions from seeded random games: the fast exchange keeps each side's
attackers up to date as the capturers leave, and `classify_destinations` starts every move from
the position's attack map; the plain one asks the attack primitive again after every capture."""

from __future__ import annotations

import pytest

from chesscore import Board
from chesscore.analysis.see import (
    SEE_VALUES,
    _least_valuable_attacker,
    classify_destinations,
    exchange_on_target,
    label_exchange,
)
from chesscore.analysis.threats import make_threat_map
from chesscore.rules.attacks import attackers, is_attacked
from chesscore.rules.move import FLAG_CASTLING, FLAG_EN_PASSANT, FLAG_SHIFT
from chesscore.rules.squares import KING, PAWN, QUEEN, SQUARE_NAMES, WHITE
from tests.support.positions import game_positions
from tests.support.safety import safety_by_name

SEEDS = range(300, 312)
# Crowded positions where batteries, pins and promotions meet on one square.
FENS = [
    "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
    "r6r/p7/4p1k1/1P1b3p/1P4q1/2KPR1Q1/7P/1R3B2 w - - 5 43",
    "5rn1/2pk4/p2P3r/PN1P3p/6pb/BP5R/2K1Pp2/R4B2 w - - 1 34",
    "3q1rk1/2pb1ppp/1r1p4/pQ1Pp3/2B1P1n1/2N2N2/PP3PPP/R4RK1 b - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
]


def plain_exchange(board: Board, packed: int) -> tuple[int, bool]:
    """(SEE of the legal packed move, whether the other side can capture on its target), the
    attackers asked of the primitive after every capture, on a copy of the board's cells."""
    if packed >> FLAG_SHIFT == FLAG_CASTLING:
        return 0, False
    cells, squares, color = board.board[:], board.piece_squares, board.turn
    origin, target = packed >> 7 & 127, packed & 127
    piece, gain, taken = cells[origin], SEE_VALUES[cells[target] & 7], target
    if packed >> FLAG_SHIFT == FLAG_EN_PASSANT:
        taken, gain = (target - 16 if color == WHITE else target + 16), SEE_VALUES[PAWN]
    if packed >> 14 & 7:
        piece = (packed >> 14 & 7) | color << 3
        gain += SEE_VALUES[packed >> 14 & 7] - SEE_VALUES[PAWN]
    cells[taken] = cells[origin] = 0
    cells[target] = piece
    kings = board.kings[:]
    if piece & 7 == KING:
        kings[color] = target
    gains, side, on_square = [gain], color ^ 1, SEE_VALUES[piece & 7]
    while True:
        found = attackers(cells, target, squares[side])
        capturer = _least_valuable_attacker(cells, target, found, kings[side])
        if capturer is None:
            break
        piece, bonus = cells[capturer], 0
        cells[capturer] = 0
        if piece & 7 == PAWN and target >> 4 in (0, 7):
            piece, bonus = QUEEN | (piece & 8), SEE_VALUES[QUEEN] - SEE_VALUES[PAWN]
        cells[target] = piece
        if piece & 7 == KING and is_attacked(cells, target, squares[side ^ 1]):
            break
        gains.append(on_square + bonus - gains[-1])
        on_square, side = SEE_VALUES[piece & 7], side ^ 1
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0], len(gains) > 1


def plain_labels(board: Board) -> dict[str, dict[str, str]]:
    """`classify_destinations` from `plain_exchange`, in the same order."""
    best: dict[tuple[str, str], tuple[int, bool]] = {}
    for packed in board.generate_legal():
        key = (SQUARE_NAMES[packed >> 7 & 127], SQUARE_NAMES[packed & 127])
        best[key] = max(best.get(key, (-1 << 30, False)), plain_exchange(board, packed))
    labels: dict[str, dict[str, str]] = {}
    for origin, target in sorted(best):
        labels.setdefault(origin, {})[target] = label_exchange(*best[origin, target])
    return labels


def check_against_plain(boards: list[Board]) -> int:
    """Assert the fast exchanges equal the plain ones on every legal move of `boards`; the
    number of moves the other side can capture on."""
    contested = 0
    for board in boards:
        fen = board.fen()
        for packed in board.generate_legal():
            plain = plain_exchange(board, packed)
            assert exchange_on_target(board, packed) == plain, (fen, packed)
            contested += plain[1]
        assert safety_by_name(board) == plain_labels(board), fen
        assert board.fen() == fen
    return contested


@pytest.mark.parametrize("seed", SEEDS)
def test_fast_exchanges_are_the_plain_ones(seed: int) -> None:
    assert check_against_plain(game_positions(seed, 200, 2)) > 20  # the game holds exchanges


def test_fast_exchanges_in_crowded_positions() -> None:
    assert check_against_plain([Board.from_fen(fen) for fen in FENS]) > 10


@pytest.mark.parametrize("seed", SEEDS)
def test_labels_from_the_threat_maps_attack_lists_are_the_same(seed: int) -> None:
    """Given the threat map's attack lists (in name order), the labels are those made from
    the attack map built for them (ascending)."""
    boards = [*game_positions(seed, 200, 2), *(Board.from_fen(fen) for fen in FENS)]
    for board in boards:
        expected = classify_destinations(board)
        assert classify_destinations(board, make_threat_map(board).attackers) == expected
