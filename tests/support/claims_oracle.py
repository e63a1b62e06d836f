"""Every claim of an explanation checked against the line it cites, with python-chess.

`claim_errors(claim)` plays the claim's line (UCI from its FEN) on python-chess's board and
returns what does not hold of what its kind states (chesscore.analysis.explain.claims'
`ClaimKind`): the material counted both ways at the line's end, a mate of the given length,
a fork that attacks every piece it names and a line that takes one of them, and so on. An
empty list: the claim holds. It serves the harness (tests/test_explain_claims.py) and the
benchmark (bench/explain_claims.py); it imports nothing of chesscore's but its claim type.
"""

from __future__ import annotations

from collections import Counter

import chess

from chesscore.analysis.explain.claims import Claim, ClaimKind
from tests.support.exchange_oracle import is_hanging

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def square(sq: int) -> chess.Square:
    """python-chess's square of a 0x88 square."""
    return chess.square(sq & 7, sq >> 4)


def side(claim: Claim) -> chess.Color:
    """The python-chess colour the claim is against."""
    return claim.color == 0


def replay(claim: Claim, plies: int | None = None) -> chess.Board:
    """The position after the claim's first `plies` moves (all when None); AssertionError
    when a move is not legal."""
    board = chess.Board(claim.fen)
    for uci in claim.line[:plies]:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, f"{uci} is not legal in {board.fen()}"
        board.push(move)
    return board


def claim_errors(claim: Claim) -> list[str]:
    """What does not hold of `claim` (module docstring)."""
    try:
        replay(claim)
        check = CHECKS[claim.kind]
        return [f"{claim.kind.value}: {error}" for error in check(claim)]
    except (AssertionError, ValueError) as error:  # an illegal or malformed move
        return [f"{claim.kind.value}: {error}"]


def _fewer(start: chess.Board, end: chess.Board, color: chess.Color) -> tuple[int, ...]:
    counts = Counter({kind: len(start.pieces(kind, color)) for kind in VALUES})
    counts.subtract({kind: len(end.pieces(kind, color)) for kind in VALUES})
    return tuple(sorted(kind for kind, n in counts.items() if n > 0 for _ in range(n)))


def _balance(board: chess.Board, color: chess.Color) -> int:
    return sum(
        VALUES[kind] * (len(board.pieces(kind, color)) - len(board.pieces(kind, not color)))
        for kind in VALUES
    )


def check_material(claim: Claim) -> list[str]:
    start, end, color = chess.Board(claim.fen), replay(claim), side(claim)
    errors = []
    lost, gained = _fewer(start, end, color), _fewer(start, end, not color)
    if lost != claim.pieces:
        errors.append(f"the side has fewer {lost}, not {claim.pieces}")
    if gained != claim.gained:
        errors.append(f"the other side has fewer {gained}, not {claim.gained}")
    points = _balance(start, color) - _balance(end, color)
    if points != claim.points:
        errors.append(f"the balance fell by {points}, not {claim.points}")
    return errors


def check_mate(claim: Claim) -> list[str]:
    end = replay(claim)
    if not end.is_checkmate() or end.turn != side(claim):
        return [f"the line does not end in mate of the side ({end.fen()})"]
    mover_moves = (len(claim.line) + 1) // 2
    return [] if mover_moves == claim.mate else [f"mate in {mover_moves}, not {claim.mate}"]


def check_stalemate(claim: Claim) -> list[str]:
    end = replay(claim)
    ok = end.is_stalemate() and end.turn == side(claim)
    return [] if ok else ["no stalemate of the side"]


def is_taken(claim: Claim, at: int, sq: chess.Square) -> bool:
    """Whether the piece on `sq` after `line[:at]` is captured later in the line, followed
    as it moves."""
    board = replay(claim, at)
    owner = board.color_at(sq)
    if owner is None:
        return False
    for uci in claim.line[at:]:
        move = chess.Move.from_uci(uci)
        if board.turn != owner and (
            move.to_square == sq
            or (board.is_en_passant(move) and sq == move.to_square + (-8 if owner else 8))
        ):
            return True
        if move.from_square == sq:
            sq = move.to_square
        board.push(move)
    return False


def _own(board: chess.Board, sq: chess.Square, color: chess.Color) -> bool:
    piece = board.piece_at(sq)
    return piece is not None and piece.color == color


def check_capture(claim: Claim) -> list[str]:
    board, target, color = replay(claim, claim.at), square(claim.squares[0]), side(claim)
    errors = []
    if not _own(board, target, color):
        errors.append("no piece of the side on the square")
    elif not board.attackers(not color, target):
        errors.append("the piece is not attacked")
    if not is_taken(claim, claim.at, target):
        errors.append("the line does not take it")
    return errors


def check_fork(claim: Claim) -> list[str]:
    board, color = replay(claim, claim.at), side(claim)
    origin, targets = square(claim.squares[0]), [square(sq) for sq in claim.squares[1:]]
    errors = []
    moved = chess.Move.from_uci(claim.line[claim.at - 1])
    if moved.to_square != origin or not _own(board, origin, not color):
        errors.append("the forking piece is not the one that moved there")
    if len(targets) < 2:
        errors.append("a fork of fewer than two pieces")
    for target in targets:
        if not _own(board, target, color) or target not in board.attacks(origin):
            errors.append(f"{chess.square_name(target)} is not a forked piece of the side")
    if not any(is_taken(claim, claim.at, target) for target in targets):
        errors.append("the line takes none of the forked pieces")
    return errors


def check_discovered(claim: Claim) -> list[str]:
    before, after = replay(claim, claim.at - 1), replay(claim, claim.at)
    origin, target, color = square(claim.squares[0]), square(claim.squares[1]), side(claim)
    moved = chess.Move.from_uci(claim.line[claim.at - 1])
    errors = []
    if moved.to_square == origin or not _own(after, origin, not color):
        errors.append("the attacker moved, or is not the other side's")
    if not _own(after, target, color) or target not in after.attacks(origin):
        errors.append("the target is not attacked by it")
    if target in before.attacks(origin) and before.piece_at(target) == after.piece_at(target):
        errors.append("the attack was there before the move")
    if not is_taken(claim, claim.at, target):
        errors.append("the line does not take the target")
    return errors


def check_pin(claim: Claim) -> list[str]:
    board, color = replay(claim, claim.at), side(claim)
    pinner, pinned, behind = (square(sq) for sq in claim.squares)
    errors = []
    if not (_own(board, pinner, not color) and _own(board, pinned, color)):
        errors.append("the pinner and the pinned piece are not of the two sides")
    if not _own(board, behind, color):
        errors.append("no piece of the side behind")
    if pinned not in chess.SquareSet.between(pinner, behind) or pinned not in board.attacks(pinner):
        errors.append("the pinned piece is not on the pinner's line to the piece behind")
    if any(board.piece_at(sq) for sq in chess.SquareSet.between(pinned, behind)):
        errors.append("something stands between the pinned piece and the one behind")
    if not (is_taken(claim, claim.at, pinned) or is_taken(claim, claim.at, behind)):
        errors.append("the line takes neither the pinned piece nor the one behind")
    return errors


def check_trapped(claim: Claim) -> list[str]:
    board, sq = replay(claim, claim.at), square(claim.squares[0])
    piece = board.piece_at(sq)
    if piece is None or piece.color != side(claim) or not is_hanging(board, sq):
        return ["the piece is not there, or not hanging"]
    errors = []
    for move in [m for m in board.legal_moves if m.from_square == sq]:
        taken = board.piece_type_at(move.to_square)
        board.push(move)
        safe = not is_hanging(board, move.to_square)
        board.pop()
        if safe and not (taken and VALUES[taken] >= VALUES[piece.piece_type]):
            errors.append(f"{move.uci()} saves it")
    if not is_taken(claim, claim.at, sq):
        errors.append("the line does not take it")
    return errors


def check_defender(claim: Claim) -> list[str]:
    board, color = replay(claim, claim.at), side(claim)
    defender, target = square(claim.squares[0]), square(claim.squares[1])
    errors = []
    if set(board.attackers(color, target)) != {defender}:
        errors.append("it is not the only defender")
    if not board.attackers(not color, target):
        errors.append("the defended piece is not attacked")
    if not is_taken(claim, claim.at, target):
        errors.append("the line does not take the defended piece")
    return errors


def check_promotion(claim: Claim) -> list[str]:
    move = chess.Move.from_uci(claim.line[claim.at - 1])
    board = replay(claim, claim.at - 1)
    ok = move.promotion and board.turn != side(claim) and move.to_square == square(claim.squares[0])
    return [] if ok else ["no promotion of the other side there"]


def check_passed(claim: Claim) -> list[str]:
    board, color = replay(claim, claim.at), not side(claim)
    origin, goal = square(claim.squares[0]), square(claim.squares[1])
    if board.piece_at(origin) != chess.Piece(chess.PAWN, color):
        return ["no pawn of the other side there"]
    errors = []
    step = 1 if color == chess.WHITE else -1
    for rank in range(chess.square_rank(origin) + step, 8 if step > 0 else -1, step):
        for file in range(
            max(0, chess.square_file(origin) - 1), min(8, chess.square_file(origin) + 2)
        ):
            if board.piece_at(chess.square(file, rank)) == chess.Piece(chess.PAWN, not color):
                errors.append("the pawn is not passed")
    sq = origin
    for uci in claim.line[claim.at :]:
        move = chess.Move.from_uci(uci)
        if move.from_square == sq:
            sq = move.to_square
    if sq != goal:
        errors.append(f"the pawn ends on {chess.square_name(sq)}, not {chess.square_name(goal)}")
    return errors


def check_king_safety(claim: Claim) -> list[str]:
    board, color = replay(claim), side(claim)
    king = board.king(color)
    assert king is not None
    zone = chess.SquareSet(chess.BB_KING_ATTACKS[king])
    attacked = sorted(sq for sq in zone if board.attackers(not color, sq))
    said = sorted(square(sq) for sq in claim.squares)
    errors = [] if attacked == said else [f"attacked next to the king: {attacked}, not {said}"]
    return errors + ([] if claim.count == len(said) else ["the count is not the squares'"])


def check_activity(claim: Claim) -> list[str]:
    board = replay(claim)
    if board.turn != side(claim):
        return ["the side is not to move at the line's end"]
    count = board.legal_moves.count()
    return [] if count == claim.count else [f"{count} legal moves, not {claim.count}"]


CHECKS = {
    ClaimKind.MATERIAL: check_material,
    ClaimKind.MATE: check_mate,
    ClaimKind.STALEMATE: check_stalemate,
    ClaimKind.CAPTURE: check_capture,
    ClaimKind.FORK: check_fork,
    ClaimKind.DISCOVERED: check_discovered,
    ClaimKind.PIN: check_pin,
    ClaimKind.TRAPPED: check_trapped,
    ClaimKind.DEFENDER: check_defender,
    ClaimKind.PROMOTION: check_promotion,
    ClaimKind.PASSED_PAWN: check_passed,
    ClaimKind.KING_SAFETY: check_king_safety,
    ClaimKind.ACTIVITY: check_activity,
}
