"""Every theme tag of the shipped puzzles is true of its solution, checked with python-chess
(the oracle; chesscore judged the tags) on a fixed sample of chesscore/data/puzzles.csv: every
SAMPLE_EVERY-th puzzle and the first PER_THEME puzzles of each theme. The exact themes (mate in
N, promotion, double check, phase, length) are checked both ways: tagged if and only if true.
The sample's lines also keep the generator's promises: legal, the solver never short of a
choice at the start, and ending in mate or two pawns of material won."""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import resources

import chess
import pytest

from chesscore.puzzles import Puzzle, find_themes, read_puzzles

SAMPLE_EVERY = 25
PER_THEME = 15
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
KING_VALUES = {**VALUES, chess.KING: 100}
SLIDERS = (chess.BISHOP, chess.ROOK, chess.QUEEN)


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    text = resources.files("chesscore").joinpath("data/puzzles.csv").read_text("utf-8")
    return tuple(read_puzzles(text.splitlines()))


@functools.cache
def sample() -> tuple[Puzzle, ...]:
    puzzles = shipped()
    chosen = dict.fromkeys(puzzles[::SAMPLE_EVERY])
    for theme in {theme for puzzle in puzzles for theme in puzzle.themes}:
        chosen.update(dict.fromkeys([p for p in puzzles if theme in p.themes][:PER_THEME]))
    return tuple(chosen)


class Line:
    """A puzzle's line in python-chess: boards[i] stands before moves[i]."""

    def __init__(self, puzzle: Puzzle) -> None:
        board = chess.Board(puzzle.fen)
        self.solver = not board.turn
        self.moves = [chess.Move.from_uci(text) for text in puzzle.moves]
        self.boards = []
        for move in self.moves:
            assert move in board.legal_moves, (puzzle.id, move)
            self.boards.append(board.copy())
            board.push(move)
        self.end = board

    def after(self, index: int) -> chess.Board:
        return self.boards[index + 1] if index + 1 < len(self.boards) else self.end

    @property
    def solver_indexes(self) -> range:
        return range(1, len(self.moves), 2)

    def piece(self, index: int) -> chess.Piece:
        piece = self.boards[index].piece_at(self.moves[index].from_square)
        assert piece is not None
        return piece

    def captured(self, index: int) -> chess.PieceType | None:
        board, move = self.boards[index], self.moves[index]
        if board.is_en_passant(move):
            return chess.PAWN
        taken = board.piece_at(move.to_square)
        return taken.piece_type if taken else None


def balance(board: chess.Board, color: chess.Color) -> int:
    return sum(
        VALUES.get(piece.piece_type, 0) * (1 if piece.color == color else -1)
        for piece in board.piece_map().values()
    )


def in_bad_spot(board: chess.Board, square: chess.Square) -> bool:
    piece = board.piece_at(square)
    assert piece is not None
    enemies = board.attackers(not piece.color, square)
    if not enemies:
        return False
    cheapest = min(KING_VALUES[board.piece_type_at(sq) or 0] for sq in enemies)
    return not board.attackers(piece.color, square) or cheapest < KING_VALUES[piece.piece_type]


# -- the oracles: one per theme, each a fact python-chess can see -----------------------------


def fork(line: Line) -> bool:
    for i in line.solver_indexes[:-1]:
        board, target = line.after(i), line.moves[i].to_square
        mover = line.piece(i).piece_type
        if mover == chess.KING or in_bad_spot(board, target):
            continue
        moved_value = KING_VALUES[board.piece_type_at(target) or 0]
        forked = [
            sq
            for sq in board.attacks(target)
            if (piece := board.piece_at(sq))
            and piece.color != line.solver
            and piece.piece_type != chess.PAWN
            and (
                KING_VALUES[piece.piece_type] > moved_value or not board.attackers(piece.color, sq)
            )
        ]
        if len(forked) >= 2:
            return True
    return False


def pin(line: Line) -> bool:
    for i in line.solver_indexes[:-1]:
        board = line.after(i)
        for sq in chess.SquareSet(board.occupied_co[not line.solver]):
            if board.is_pinned(not line.solver, sq) and any(
                line.moves[j].to_square == sq for j in line.solver_indexes if j > i
            ):
                return True
    return False


def skewer(line: Line) -> bool:
    for i in line.solver_indexes[1:]:
        move, reply = line.moves[i], line.moves[i - 1]
        taken = line.captured(i)
        if taken and line.piece(i).piece_type in SLIDERS and reply.to_square != move.to_square:
            behind = reply.from_square in chess.SquareSet.between(move.from_square, move.to_square)
            if behind and KING_VALUES[line.piece(i - 1).piece_type] > KING_VALUES[taken]:
                return True
    return False


def discovered_attack(line: Line) -> bool:
    for i in line.solver_indexes:
        checkers = line.after(i).checkers()
        if not line.boards[i].is_castling(line.moves[i]) and any(
            sq != line.moves[i].to_square for sq in checkers
        ):
            return True
    for i in line.solver_indexes[1:]:
        move, reply, opener = line.moves[i], line.moves[i - 1], line.moves[i - 2]
        if (
            line.captured(i)
            and reply.to_square != move.to_square
            and (
                opener.from_square in chess.SquareSet.between(move.from_square, move.to_square)
                and move.to_square != opener.to_square
                and move.from_square != opener.to_square
            )
        ):
            return True
    return False


def hanging_piece(line: Line) -> bool:
    taken = line.captured(1)
    board, target = line.boards[1], line.moves[1].to_square
    return taken not in (None, chess.PAWN) and not board.attackers(not line.solver, target)


def trapped_piece(line: Line) -> bool:
    for i in line.solver_indexes[1:]:
        taken, move, reply = line.captured(i), line.moves[i], line.moves[i - 1]
        if taken in (None, chess.PAWN):
            continue
        square = reply.from_square if reply.to_square == move.to_square else move.to_square
        board = line.boards[i - 1]  # the opponent to move, the piece on `square`
        escapes = [m for m in board.legal_moves if m.from_square == square]
        if board.attackers(line.solver, square) and all(
            is_attacked_after(board, m, line.solver) for m in escapes
        ):
            return True
    return False


def is_attacked_after(board: chess.Board, move: chess.Move, by: chess.Color) -> bool:
    """Whether the piece `move` moves stands attacked by `by` once it has moved (it may
    have uncovered a line onto its new square)."""
    after = board.copy(stack=False)
    after.push(move)
    return after.is_attacked_by(by, move.to_square)


def deflection(line: Line) -> bool:
    for i in line.solver_indexes[1:]:
        lure, reply, blow = line.moves[i - 2], line.moves[i - 1], line.moves[i]
        square = blow.to_square
        if square in (reply.to_square, lure.to_square):
            continue
        hits = line.captured(i) or blow.promotion or line.after(i).is_checkmate()
        forcing = line.captured(i - 2) or line.after(i - 2).is_check()
        before, after = line.boards[i - 1], line.after(i - 1)
        if (
            hits
            and forcing
            and square in before.attacks(reply.from_square)
            and square not in after.attacks(reply.to_square)
        ):
            return True
    return False


def exchange_sacrifice(line: Line) -> bool:
    for i in line.solver_indexes[:-1]:
        move, reply = line.moves[i], line.moves[i + 1]
        if line.piece(i).piece_type == chess.ROOK and line.captured(i) in (
            None, chess.PAWN, chess.KNIGHT, chess.BISHOP,
        ):  # fmt: skip
            takers = (chess.PAWN, chess.KNIGHT, chess.BISHOP)
            if reply.to_square == move.to_square and line.piece(i + 1).piece_type in takers:
                return True
    return False


def sacrifice(line: Line) -> bool:
    initial = balance(line.after(0), line.solver)
    return any(balance(line.after(i), line.solver) - initial <= -2 for i in line.solver_indexes[1:])


def back_rank_mate(line: Line) -> bool:
    board = line.end
    mated = not line.solver
    king = board.king(mated)
    assert king is not None and board.is_checkmate()
    back = 0 if mated == chess.WHITE else 7
    front = chess.square_rank(king) + (1 if mated == chess.WHITE else -1)
    ahead = [
        chess.square(f, front)
        for f in range(chess.square_file(king) - 1, chess.square_file(king) + 2)
        if 0 <= f < 8
    ]
    walled = all(
        (p := board.piece_at(sq)) and p.color == mated and not board.attackers(line.solver, sq)
        for sq in ahead
    )
    on_rank = any(chess.square_rank(sq) == back for sq in board.checkers())
    return chess.square_rank(king) == back and walled and on_rank


ORACLES: dict[str, Callable[[Line], bool]] = {
    "fork": fork,
    "pin": pin,
    "skewer": skewer,
    "discoveredAttack": discovered_attack,
    "hangingPiece": hanging_piece,
    "trappedPiece": trapped_piece,
    "deflection": deflection,
    "exchangeSacrifice": exchange_sacrifice,
    "sacrifice": sacrifice,
    "backRankMate": back_rank_mate,
}


def exact_themes(line: Line, puzzle: Puzzle) -> set[str]:
    """The themes python-chess decides alone: tagged if and only if these hold."""
    solver_moves = len(line.solver_indexes)
    found = {("oneMove", "short", "long", "veryLong")[min(solver_moves, 4) - 1]}
    if line.end.is_checkmate():
        found |= {"mate", f"mateIn{min(solver_moves, 5)}"}
    if any(line.moves[i].promotion for i in line.solver_indexes):
        found.add("promotion")
    if any(len(line.after(i).checkers()) >= 2 for i in line.solver_indexes):
        found.add("doubleCheck")
    start = line.boards[0]
    pieces = chess.popcount(start.occupied) - chess.popcount(start.pawns) - 2
    found.add(
        "endgame" if pieces <= 6 else "opening" if start.fullmove_number <= 12 else "middlegame"
    )
    return found


EXACT = {"oneMove", "short", "long", "veryLong", "mate", "promotion", "doubleCheck", "endgame",
         "opening", "middlegame", *(f"mateIn{n}" for n in range(1, 6))}  # fmt: skip


def test_the_shipped_set_is_big_enough_and_varied() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 2000
    themes = {theme for puzzle in puzzles for theme in puzzle.themes}
    assert {"mateIn1", "mateIn2", "fork", "pin", "hangingPiece", "endgame"} <= themes
    assert len(sample()) >= 150


@pytest.mark.parametrize("index", range(0, 10))
def test_every_tag_is_true_of_the_solution(index: int) -> None:
    """Each tenth of the sample in its own test, so a failure names few puzzles."""
    for puzzle in sample()[index::10]:
        line = Line(puzzle)
        tagged = set(puzzle.themes)
        assert tagged & EXACT == exact_themes(line, puzzle), puzzle
        for theme in tagged - EXACT:
            assert ORACLES[theme](line), (theme, puzzle)


@pytest.mark.parametrize("index", range(0, 10))
def test_every_line_keeps_the_generators_promises(index: int) -> None:
    for puzzle in sample()[index::10]:
        line = Line(puzzle)
        assert len(line.moves) % 2 == 0 and line.moves
        assert line.boards[1].legal_moves.count() >= 2, puzzle
        gain = balance(line.end, line.solver) - balance(line.boards[0], line.solver)
        assert line.end.is_checkmate() or gain >= 2, puzzle
        assert 600 <= puzzle.rating <= 2800 and puzzle.deviation == 500
        assert (puzzle.popularity, puzzle.plays) == (0, 0)


def test_the_stored_themes_are_chesscores_judgement_today() -> None:
    """The file is rewritten by `tools/make_puzzles.py assemble` when a judge changes."""
    for puzzle in sample():
        assert find_themes(puzzle.fen, puzzle.moves) == puzzle.themes, puzzle
