"""Stockfish as the judge of the trainer's truths: does a move called right lose material?

Shared by the soundness test (tests/test_training_soundness.py) and its benchmark
(bench/train_soundness.py). Drills are sampled from the shipped position set with seeded choices,
and every move a drill calls right is asked of Stockfish (Debian's native build, python-chess's
UCI client: a test and benchmark oracle only, never imported by chesscore or server):

- ``safe``: the focus piece to each square called safe (a pawn reaching the last rank makes a
  queen);
- ``threats``, ``fork``: each move of the answer;
- ``blunder``: the played move when the drill calls it safe.

The check, with every evaluation in centipawns from the mover's side at a fixed depth (mates
count +-10000): `best` is the position's evaluation, `null` the evaluation after the mover
passes (a null move: what the mover keeps by doing nothing; `best` when in check, where no pass
exists), `material` the static material balance (pawn 100, knight and bishop 300, rook 500,
queen 900) and `after` the evaluation after the move. The move **loses material** (is unsound)
when

    after <= min(best, null, material) - MARGIN        (MARGIN = 150, a pawn and a half)

that is: it is worse by a pawn and a half than both the best move and passing, and it falls
that far below the material on the board (a move that merely spends a positional edge loses no
material). A threat or fork that gives no check is **empty** when, had the opponent passed
after it, the mover would gain less than EMPTY_MARGIN (half a pawn) over `after`, and the move
itself wins less than that over `null`: nothing falls and nothing must be answered.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine

from chesscore import Move
from chesscore.rules.squares import square_name
from chesscore.training import Drill, PositionFacts, make_drill
from server.training.positions import shipped_positions

STOCKFISH = Path("/usr/games/stockfish")
MARGIN = 150
EMPTY_MARGIN = 50
MATE_SCORE = 10_000
VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}
CHECKED_KINDS = ("safe", "threats", "fork", "blunder")


def find_stockfish() -> Path | None:
    """Debian's Stockfish if it is installed; on CI (CI=true) its absence is an error."""
    found = STOCKFISH if STOCKFISH.exists() else shutil.which("stockfish")
    if found is None and os.environ.get("CI") == "true":
        raise RuntimeError(f"{STOCKFISH} is missing on CI: install Debian's stockfish package")
    return Path(found) if found else None


@dataclass(frozen=True, slots=True)
class Claim:
    """One move a drill calls right, and what it says (for the report of a failure)."""

    kind: str
    fen: str
    uci: str
    said: str


@dataclass(frozen=True, slots=True)
class Judgement:
    claim: Claim
    best: int
    null: int
    material: int
    after: int
    passed: int | None  # after the move and a pass by the opponent (threats and forks)

    @property
    def loses_material(self) -> bool:
        return self.after <= min(self.best, self.null, self.material) - MARGIN

    @property
    def is_empty(self) -> bool:
        if self.passed is None:
            return False
        return self.passed < self.after + EMPTY_MARGIN and self.after < self.null + EMPTY_MARGIN


def sample_drills(kind: str, count: int, seed: int) -> list[Drill]:
    """`count` drills of `kind` with something to claim, on shipped positions in a seeded
    order; each drill's own choices (the piece a safe drill asks about) seeded by its index."""
    positions = list(shipped_positions())
    random.Random(seed).shuffle(positions)
    found: list[Drill] = []
    for index, position in enumerate(positions):
        rng = random.Random(f"{seed}-{kind}-{index}")
        drill = make_drill(PositionFacts(position.fen), kind, rng, position.played)
        if drill is not None and claims_of(drill):
            found.append(drill)
            if len(found) == count:
                break
    return found


def claims_of(drill: Drill) -> list[Claim]:
    """The moves `drill` calls right (see the module docstring)."""
    board = chess.Board(drill.fen)
    moves: list[Move] = []
    if drill.kind == "safe" and drill.focus is not None:
        moves = [Move(drill.focus, sq) for sq in drill.squares]
    elif drill.kind in ("threats", "fork"):
        moves = list(drill.moves)
    elif drill.kind == "blunder" and drill.safe and drill.played is not None:
        moves = [drill.played]
    claims = []
    for move in moves:
        uci = move.uci()
        if len(uci) == 4 and chess.Move.from_uci(uci + "q") in board.legal_moves:
            uci += "q"
        said = f"{drill.kind} {board.san(chess.Move.from_uci(uci))}"
        if drill.kind == "safe" and drill.focus is not None:
            said = f"safe: {square_name(drill.focus)} to {uci[2:4]}"
        claims.append(Claim(drill.kind, drill.fen, uci, said))
    return claims


class Oracle:
    """Stockfish at a fixed depth with a cache of evaluations by FEN."""

    def __init__(self, engine: chess.engine.SimpleEngine, depth: int) -> None:
        self.engine, self.depth = engine, depth
        self.cache: dict[str, int] = {}

    def evaluate(self, board: chess.Board) -> int:
        """Centipawns for the side to move."""
        fen = board.fen()
        if fen not in self.cache:
            if board.is_checkmate():
                value = -MATE_SCORE
            elif board.is_game_over():
                value = 0
            else:
                # A board of the FEN alone: the moves that led to it (null moves too) are not
                # needed, and python-chess will not send a null move to the engine.
                alone = chess.Board(fen)
                info = self.engine.analyse(alone, chess.engine.Limit(depth=self.depth))
                value = info["score"].pov(board.turn).score(mate_score=MATE_SCORE)
            self.cache[fen] = value
        return self.cache[fen]

    def judge(self, claim: Claim) -> Judgement:
        board = chess.Board(claim.fen)
        best = self.evaluate(board)
        null = best
        if not board.is_check():
            board.push(chess.Move.null())
            null = -self.evaluate(board)
            board.pop()
        move = chess.Move.from_uci(claim.uci)
        material = material_of(board)
        board.push(move)
        after = -self.evaluate(board)
        passed = None
        if claim.kind in ("threats", "fork") and not board.is_check():
            board.push(chess.Move.null())
            passed = self.evaluate(board)
        return Judgement(claim, best, null, material, after, passed)


def material_of(board: chess.Board) -> int:
    """The static material balance for the side to move."""
    total = 0
    for piece in board.piece_map().values():
        value = VALUES.get(piece.piece_type, 0)
        total += value if piece.color == board.turn else -value
    return total


@contextmanager
def open_oracle(path: Path, depth: int) -> Iterator[Oracle]:
    engine = chess.engine.SimpleEngine.popen_uci(str(path), timeout=30)
    try:
        engine.configure({"Threads": 1, "Hash": 32})
        yield Oracle(engine, depth)
    finally:
        engine.quit()
