"""The themes of winning and giving material: hanging piece, trapped piece, deflection
(an overloaded defender drawn away is judged the same way), promotion, exchange sacrifice and
sacrifice. Each is a fact about the solver's moves, with lichess's meaning of the theme:

- hanging piece: the solver's first move takes an enemy piece other than a pawn that no enemy
  piece defended;
- trapped piece: a solver's move, after the first, takes an enemy piece other than a pawn that
  was trapped when the opponent last moved: attacked and lost where it stood
  (`is_in_bad_spot`), not pinned, its side not in check, and every move it had either landed
  where it is lost too or took nothing worth as much as itself;
- deflection: a solver's capture or check draws an enemy piece away from a square it guarded
  (the reply moves it, and from its new square it no longer attacks that square), and the
  solver's next move takes, promotes or mates on that square;
- promotion: a solver's move promotes;
- exchange sacrifice: a solver's rook moves (taking at most a minor piece) where the reply
  takes it with a pawn, knight or bishop;
- sacrifice: after a solver's move (the first excepted), the solver's material balance has
  fallen two pawns or more below what it was after the setting-up move, and the opponent
  has not promoted.
"""

from __future__ import annotations

from chesscore.puzzles.line import Ply, PuzzleLine, is_defended, is_in_bad_spot, value
from chesscore.puzzles.verify import material_balance
from chesscore.rules.board import Board
from chesscore.rules.squares import BISHOP, KING, KNIGHT, PAWN, ROOK


def is_hanging_piece(line: PuzzleLine) -> bool:
    first = line.plies[1]
    if first.captured in (0, PAWN):
        return False
    return not is_defended(first.before, first.move.to_square)


def is_trapped_piece(line: PuzzleLine) -> bool:
    plies = line.plies
    for index in range(3, len(plies), 2):
        ply, reply = plies[index], plies[index - 1]
        target = ply.move.to_square
        if ply.captured in (0, PAWN):
            continue
        # Where the taken piece stood when the opponent last had the move.
        square = reply.move.from_square if reply.move.to_square == target else target
        if is_trapped(reply.before, square):
            return True
    return False


def is_trapped(board: Board, sq: int) -> bool:
    """Whether the piece on `sq`, of the side to move, is trapped (module docstring)."""
    kind = board.board[sq] & 7
    if kind in (0, PAWN, KING) or board.board[sq] >> 3 != board.turn or board.is_check():
        return False
    if any(pinned == sq for pinned, _ in board.pins(board.turn)):
        return False
    if not is_in_bad_spot(board, sq):
        return False
    for move in board.legal_moves():
        if move.from_square != sq:
            continue
        if value(board.board[move.to_square] & 7) >= value(kind):
            return False
        board.push(move)
        lost = is_in_bad_spot(board, move.to_square)
        board.pop()
        if not lost:
            return False
    return True


def is_deflection(line: PuzzleLine) -> bool:
    plies = line.plies
    for index in range(3, len(plies), 2):
        if _deflects(plies[index - 2], plies[index - 1], plies[index]):
            return True
    return False


def _deflects(lure: Ply, reply: Ply, blow: Ply) -> bool:
    """Whether the solver's `lure` drew the piece `reply` moves off the square `blow` hits."""
    square = blow.move.to_square
    hits = blow.captured or blow.move.promotion or blow.after.is_checkmate()
    forcing = lure.captured or lure.after.is_check()
    if not hits or not forcing or square in (reply.move.to_square, lure.move.to_square):
        return False
    guarded_before = reply.move.from_square in reply.before.attackers(reply.before.turn, square)
    guards_after = reply.move.to_square in reply.after.attackers(reply.before.turn, square)
    return guarded_before and not guards_after


def is_promotion(line: PuzzleLine) -> bool:
    return any(ply.move.promotion for ply in line.solver_plies)


def is_exchange_sacrifice(line: PuzzleLine) -> bool:
    plies = line.plies
    for index in range(1, len(plies) - 1, 2):
        ply, reply = plies[index], plies[index + 1]
        if ply.piece != ROOK or ply.captured not in (0, PAWN, KNIGHT, BISHOP):
            continue
        if reply.move.to_square == ply.move.to_square and reply.piece in (PAWN, KNIGHT, BISHOP):
            return True
    return False


def is_sacrifice(line: PuzzleLine) -> bool:
    initial = material_balance(line.plies[0].after, line.solver)
    if any(ply.move.promotion for ply in line.plies[2::2]):
        return False
    return any(
        material_balance(ply.after, line.solver) - initial <= -2 for ply in line.solver_plies[1:]
    )
