"""The lesson's sentence (server.puzzles.lesson) checked against python-chess on the shipped set.

For a fixed sample of the shipped puzzles, every claim of the sentence about the solution's
first move is a fact python-chess confirms: the SAN; "is checkmate"; "takes the <piece> on
<square>" (that piece stood there), "which was undefended" (no piece of its side defended the
square); "forks" and "attacks" (the moved piece attacks each square named after the move, and
the piece named stands there). The lesson's position, legal moves and line are python-chess's.
"""

from __future__ import annotations

import random
import re

import chess
import pytest

from chesscore.puzzles import read_puzzles
from server.puzzles.lesson import make_lesson
from server.puzzles.service import SHIPPED
from server.puzzles.tables import StoredPuzzle

PIECES = {"pawn": 1, "knight": 2, "bishop": 3, "rook": 4, "queen": 5, "king": 6}
NAMED = re.compile(r"the (pawn|knight|bishop|rook|queen|king) on ([a-h][1-8])")


def sample() -> list[StoredPuzzle]:
    puzzles = list(read_puzzles(SHIPPED.read_text(encoding="utf-8").splitlines()))
    chosen = random.Random(35).sample(puzzles, 150)
    return [
        StoredPuzzle(p.id, p.fen, p.moves, p.rating, p.deviation, 0.06, 0, p.themes, "", None)
        for p in chosen
    ]


VALUES = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}


def balance(board: chess.Board, color: chess.Color) -> int:
    return sum(
        VALUES[piece.piece_type] * (1 if piece.color == color else -1)
        for piece in board.piece_map().values()
    )


def check_outcome(puzzle: StoredPuzzle, sentence: str) -> None:
    """ "The line mates in N" and "you are N pawns of material up", by python-chess."""
    board = chess.Board(puzzle.fen)
    board.push_uci(puzzle.moves[0])
    solver, start = board.turn, balance(board, board.turn)
    for uci in puzzle.moves[1:]:
        board.push_uci(uci)
    mates = re.search(r"The line mates in (\d+)\.", sentence)
    assert bool(mates) == (board.is_checkmate() and len(puzzle.moves) > 2)
    if mates:
        assert int(mates.group(1)) == len(puzzle.moves) // 2
    up = re.search(r"you are (\d+) pawns? of material up", sentence)
    if up:
        assert int(up.group(1)) == balance(board, solver) - start > 0


@pytest.mark.parametrize("puzzle", sample(), ids=lambda p: p.id)
def test_the_sentence_states_facts(puzzle: StoredPuzzle) -> None:
    lesson = make_lesson(puzzle, 0)
    board = chess.Board(puzzle.fen)
    board.push_uci(puzzle.moves[0])
    assert lesson["fen"] == board.fen()
    assert sorted(lesson["sans"]) == sorted(board.san(m) for m in board.legal_moves)
    move = chess.Move.from_uci(puzzle.moves[1])
    sentence = lesson["sentence"]
    assert sentence.startswith(board.san(move) + " ") and lesson["san"] == board.san(move)
    before = board.copy()
    board.push(move)
    if "is checkmate" in sentence:
        assert board.is_checkmate()
        return
    check_outcome(puzzle, sentence)
    claims = sentence.split(". The idea:")[0]
    taken = re.search(r"takes " + NAMED.pattern, claims)
    if taken:
        kind, square = taken.groups()
        stood = before.piece_at(chess.parse_square(square))
        assert stood is not None and stood.piece_type == PIECES[kind]
        if "which was undefended" in claims:
            assert not before.attackers(stood.color, chess.parse_square(square))
    for verb in ("forks", "attacks"):
        found = re.search(verb + r" (.*?)(?:$|\.|,)", claims)
        if not found:
            continue
        for kind, square in NAMED.findall(found.group(1)):
            target = chess.parse_square(square)
            stood = board.piece_at(target)
            assert stood is not None and stood.piece_type == PIECES[kind], (verb, square)
            assert target in board.attacks(move.to_square), (verb, square)
