"""The themes of lines and double attacks: fork, pin, skewer, discovered attack, double check.
Each is a fact about the solver's moves in the line, with the meaning lichess's tagger gives
the theme (its own rules are not copied; each judge below says what it checks):

- fork: a solver's move, before the last, of a piece other than the king, that does not stand
  where it is lost (`is_in_bad_spot`), after which it attacks two enemy pieces other than
  pawns, each the king, worth more than the attacker, or undefended;
- pin: after a solver's move before the last, an enemy piece is pinned to its king by a
  solver's piece, and a later solver's move takes it where it stands;
- skewer: a solver's move, after the first, by a bishop, rook or queen, takes a piece standing
  behind the square the enemy piece that has just moved came from (it was on the line between
  them), that piece being worth more than the one taken; the line does not end in mate there;
- discovered attack: a solver's move gives check with a piece other than the one that moved
  (discovered check; castling's rook is not discovered), or a solver's capture, after the
  first move, runs across the square the solver's previous move left (that move opened the
  line), neither taking back on the square the opponent has just moved to nor moving the
  piece that opened it;
- double check: after a solver's move two pieces give check.
"""

from __future__ import annotations

from chesscore.puzzles.line import (
    SLIDERS,
    PuzzleLine,
    attacked_by,
    is_defended,
    is_in_bad_spot,
    value,
)
from chesscore.rules.move import Move
from chesscore.rules.squares import KING, PAWN, squares_between


def is_fork(line: PuzzleLine) -> bool:
    for ply in line.solver_plies[:-1]:
        board, target = ply.after, ply.move.to_square
        if ply.piece == KING or board.is_checkmate() or is_in_bad_spot(board, target):
            continue
        mover = value(board.board[target] & 7)
        forked = [
            sq
            for sq in attacked_by(board, target)
            if board.board[sq] & 7 != PAWN
            and (value(board.board[sq] & 7) > mover or not is_defended(board, sq))
        ]
        if len(forked) > 1:
            return True
    return False


def is_pin(line: PuzzleLine) -> bool:
    solver_plies = line.solver_plies
    for index, ply in enumerate(solver_plies[:-1]):
        enemy = line.solver ^ 1
        for pinned, _ in ply.after.pins(enemy):
            kind = ply.after.board[pinned]
            later = solver_plies[index + 1 :]
            if any(p.move.to_square == pinned and p.before.board[pinned] == kind for p in later):
                return True
    return False


def is_skewer(line: PuzzleLine) -> bool:
    plies = line.plies
    for index in range(3, len(plies), 2):
        ply, reply = plies[index], plies[index - 1]
        move = ply.move
        if not ply.captured or ply.piece not in SLIDERS or ply.after.is_checkmate():
            continue
        if reply.move.to_square == move.to_square:
            continue
        if reply.move.from_square not in squares_between(move.from_square, move.to_square):
            continue
        if value(reply.piece) > value(ply.captured):
            return True
    return False


def is_discovered_attack(line: PuzzleLine) -> bool:
    for ply in line.solver_plies:
        castles = ply.before.is_castling(ply.move)  # the rook checks from its new square
        if not castles and is_discovered_check(ply.move, ply.after.checkers()):
            return True
    plies = line.plies
    for index in range(3, len(plies), 2):
        ply, reply, opener = plies[index], plies[index - 1], plies[index - 2]
        move = ply.move
        if not ply.captured or reply.move.to_square == move.to_square:
            continue
        if opener.before.is_castling(opener.move):
            continue
        opened = opener.move.from_square in squares_between(move.from_square, move.to_square)
        if (
            opened
            and move.to_square != opener.move.to_square
            and move.from_square != opener.move.to_square
        ):
            return True
    return False


def is_discovered_check(move: Move, checkers: list[int]) -> bool:
    return bool(checkers) and any(sq != move.to_square for sq in checkers)


def is_double_check(line: PuzzleLine) -> bool:
    return any(len(ply.after.checkers()) > 1 for ply in line.solver_plies)
