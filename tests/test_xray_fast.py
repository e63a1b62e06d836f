"""The shortcuts the per-move facts take (chesscore.analysis.xray, chesscore.analysis.threats)
against the plain functions they stand in for, on every position of seeded random games: pins found
among the known attacks on pieces, and the attack lists of the pieces without a threat map."""

from __future__ import annotations

from chesscore import BLACK, SQUARES, WHITE, Board, parse_square, square_name
from chesscore.analysis.threats import find_hanging, make_threat_map, piece_attack_lists
from chesscore.analysis.xray import find_pins, find_pins_among
from chesscore.rules.squares import NAME_ORDER
from tests.support.positions import game_positions

BOARDS = [board for seed in range(200, 206) for board in game_positions(seed, 160, 2)]


def _attacks_on_pieces(board: Board) -> list[tuple[int, int]]:
    """(attacker, attacked) squares of every attack on a piece of the other colour."""
    return [
        (attacker, sq)
        for color in (WHITE, BLACK)
        for sq in board.piece_squares[color]
        for attacker in board.attackers(color ^ 1, sq)
    ]


def test_pins_among_the_attacks_are_the_pins() -> None:
    found = 0
    for board in BOARDS:
        pins = find_pins(board)
        assert find_pins_among(board, _attacks_on_pieces(board)) == pins, board.fen()
        found += len(pins)
    assert found > 50  # the sample holds pins, relative and absolute


def test_pins_among_ignore_a_defence() -> None:
    # The bishop c4 defends the bishop b5, with the white queen behind it on a6: no pin.
    board = Board.from_fen("4k3/8/Q1n5/1B6/2B5/8/8/4K3 w - - 0 1")
    c4, b5 = parse_square("c4"), parse_square("b5")
    assert find_pins_among(board, [(c4, b5)]) == ()
    assert [square_name(pin.pinned) for pin in find_pins(board)] == [
        "c6"
    ]  # b5 pins the knight to e8


def test_piece_attack_lists_are_the_threat_maps_lists_at_the_pieces() -> None:
    for board in BOARDS:
        threats = make_threat_map(board)
        lists = piece_attack_lists(board)
        for sq in SQUARES:
            if board.board[sq]:
                for color in (WHITE, BLACK):
                    in_name_order = sorted(lists[color][sq], key=NAME_ORDER.__getitem__)
                    assert in_name_order == threats.attackers[color][sq], (board.fen(), sq)
        assert find_hanging(board, lists) == threats.hanging, board.fen()
