"""Computer players above the random mover: the careful beginner (level 2) and the searchers.

Level 2 plays a random legal move among those that leave none of its pieces hanging, and
takes a hanging enemy piece whenever it can (the most valuable one). "Hanging" is the threat
map's rule (chesscore.analysis.exchange): a piece other than a king whose capture wins
material by the exchange on its square. Levels 3 to 8 run the alpha-beta `Searcher` with a
depth cap and a thinking time that grow with the level; level 8 searches as deep as about two
seconds allow. `SEARCH_LEVELS` holds those limits, `make_level_player` builds the player of a
level, and `choose_move_uci` is the same thing as one plain function of plain data (FEN, UCI
moves, level; answers UCI text) for running a search in a worker process.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from chesscore.analysis.exchange import hanging_gains
from chesscore.analysis.threats import piece_attack_lists
from chesscore.analysis.values import PIECE_VALUES
from chesscore.engine.search import MAX_PLY, Searcher, SearchLimits, StopSignal
from chesscore.errors import ChessError
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.squares import Color, in_name_order

CAREFUL_LEVEL = 2


@dataclass(frozen=True)
class LevelLimits:
    """How deep and how long a search level thinks (seconds per move)."""

    depth: int
    movetime: float


SEARCH_LEVELS: dict[int, LevelLimits] = {
    3: LevelLimits(depth=1, movetime=0.2),
    4: LevelLimits(depth=2, movetime=0.4),
    5: LevelLimits(depth=3, movetime=0.6),
    6: LevelLimits(depth=4, movetime=1.0),
    7: LevelLimits(depth=6, movetime=1.5),
    8: LevelLimits(depth=MAX_PLY, movetime=2.0),
}
LEVELS = (CAREFUL_LEVEL, *SEARCH_LEVELS)


def hanging_squares(board: Board, color: Color) -> list[int]:
    """Squares of the pieces of `color` that hang, by the threat map's rule (the exchange,
    chesscore.analysis.exchange), in name order.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    >>> [hex(sq) for sq in hanging_squares(board, 1)], hanging_squares(board, 0)
    (['0x43'], [])
    """
    return in_name_order(hanging_gains(board, piece_attack_lists(board), color))


def _hanging_value(board: Board, color: Color) -> int:
    return sum(PIECE_VALUES[board.board[sq] & 7] for sq in hanging_squares(board, color))


class CarefulPlayer:
    """Level 2: takes what hangs, otherwise a random move that hangs nothing of its own.

    When every move leaves something hanging it picks among those that hang the least.

    >>> from chesscore import Board
    >>> board = Board.from_fen("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    >>> CarefulPlayer(seed=1).choose_move(board).uci()
    'd2d5'
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose_move(self, board: Board) -> Move:
        # Sorted so that the choice depends on the seed only, not on the generator's order.
        moves = sorted(board.legal_moves(), key=lambda move: move.uci())
        if not moves:
            raise ChessError(f"no legal move to choose in {board.fen()!r}")
        color = board.turn
        targets = hanging_squares(board, 1 - color)
        if targets:
            prize = max(targets, key=lambda sq: PIECE_VALUES[board.board[sq] & 7])
            value = PIECE_VALUES[board.board[prize] & 7]
            captures = [
                m
                for m in moves
                if m.to_square in targets and PIECE_VALUES[board.board[m.to_square] & 7] == value
            ]
            if captures:
                return self.rng.choice(captures)
        return self.rng.choice(self._least_hanging(board, moves, color))

    @staticmethod
    def _least_hanging(board: Board, moves: list[Move], color: Color) -> list[Move]:
        losses = []
        for move in moves:
            board.push(move)
            losses.append(_hanging_value(board, color))
            board.pop()
        least = min(losses)
        return [move for move, loss in zip(moves, losses, strict=True) if loss == least]


class SearchPlayer:
    """Levels 3-8: the alpha-beta search within the level's depth and time.

    The searcher keeps its transposition table between moves of a game; `stop()` (from another
    thread) makes a running `choose_move` answer at once with the best move found so far.
    """

    def __init__(
        self, level: int, movetime: float | None = None, cancel: StopSignal | None = None
    ) -> None:
        if level not in SEARCH_LEVELS:
            raise ChessError(
                f"unknown search level {level!r}; search levels: {tuple(SEARCH_LEVELS)}"
            )
        limits = SEARCH_LEVELS[level]
        self.level = level
        self.limits = SearchLimits(
            depth=limits.depth, movetime=limits.movetime if movetime is None else movetime
        )
        self.searcher = Searcher(cancel)

    def choose_move(self, board: Board) -> Move:
        self.searcher.resume()
        result = self.searcher.search(board, self.limits)
        if result.move is None:
            raise ChessError(f"no legal move to choose in {board.fen()!r}")
        return result.move

    def stop(self) -> None:
        self.searcher.stop()


def make_level_player(level: int, seed: int | None = None) -> CarefulPlayer | SearchPlayer:
    """The player of `level` 2-8 (level 1, random, is `chesscore.engine.players.RandomPlayer`).

    The seed drives level 2's random choices; the search levels play the best move they find.
    """
    if level == CAREFUL_LEVEL:
        return CarefulPlayer(seed)
    if level in SEARCH_LEVELS:
        return SearchPlayer(level)
    raise ChessError(f"unknown player level {level!r}; engine levels: {LEVELS}")


def choose_move_uci(
    fen: str,
    moves: list[str],
    level: int,
    seed: int | None = None,
    cancel: StopSignal | None = None,
    movetime: float | None = None,
) -> str:
    """The level's move, as UCI text, in the position `fen` after the UCI `moves`.

    Plain data in and out, so it can run in a worker process (`ProcessPoolExecutor.submit`).
    `cancel` (e.g. a `multiprocessing.Manager().Event()`) makes a search level answer at once
    with its best move so far once set, for a position that changed meanwhile; `movetime`
    overrides the level's thinking time (seconds). Raises the chesscore error of a bad FEN,
    move or level.

    >>> choose_move_uci("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", [], 4)
    'a1a8'
    """
    board = Board.from_fen(fen)
    for text in moves:
        board.push_uci(text)
    if level in SEARCH_LEVELS:
        return SearchPlayer(level, movetime, cancel).choose_move(board).uci()
    return make_level_player(level, seed).choose_move(board).uci()
