"""The engine: iterative deepening negamax alpha-beta with a quiescence search.

A `Searcher` owns its tables: the transposition table (keyed by the board's Zobrist key, so a
position reached by another move order is searched once), two killer moves per ply (quiet
moves that refuted a sibling) and the history counters (how often a quiet move caused a
cutoff anywhere). Moves are tried best-first: the table's move, then captures by most valuable
victim and least valuable attacker, then killers, then quiet moves by history. Each depth
searches the first move with the full window and the rest with a null window (principal
variation search), late quiet moves at reduced depth; a side in check gets one more ply. Away
from the principal variation, positions far from the window are cut short: one far above beta
returns at once near the leaves, or when even passing the move (a null move, searched
shallower) keeps it above beta; one far below alpha tries only its captures and checks. At
the leaves the quiescence search plays out captures so a score is never taken in the middle of
an exchange. Mate scores count plies (`MATE - ply`), so the shortest mate wins; a repetition of
any earlier position, or the fifty-move rule, is a draw. The search stops at its depth or time
limit, or when another thread calls `stop()`, and answers with the best move of the deepest
finished iteration (or of the unfinished one, once it has found a better move).

The hot loops work on the board's packed-int moves (`chesscore.rules.move`) and its flat 128-square
list, and keep the evaluation up to date by each move's difference rather than re-scanning the
board; local aliases of attributes and tables there save a dictionary look-up per use, which is
measurable at tens of thousands of nodes per second.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from chesscore.engine.captures import generate_captures
from chesscore.engine.evaluate import MOP_UP_PHASE, blend, evaluation_terms, mop_up, move_delta
from chesscore.rules.board import Board
from chesscore.rules.move import (
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
    Move,
)
from chesscore.rules.movegen import is_attacked, scan_king
from chesscore.rules.squares import KNIGHT, QUEEN

MATE = 100_000
MATE_BOUND = MATE - 1_000  # scores beyond this are mates, counted in plies
INFINITY = MATE + 1
MAX_PLY = 100
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 300_000  # entries (about 150 bytes each) before the table is cleared
CHECK_EVERY = 1023  # nodes between looks at the clock and the stop flag (mask)

# Move ordering keys: the table's move first, then captures, killers, then quiet by history.
TT_MOVE_ORDER = 1 << 30
CAPTURE_ORDER = 1 << 24
KILLER_ORDER = 1 << 22
HISTORY_LIMIT = 1 << 20

# What a capture wins, by piece type of the victim (or of the promotion piece, less the pawn).
CAPTURE_VALUE = (0, 100, 320, 330, 500, 950, 0, 0)
DELTA_MARGIN = 200  # what position can add to a capture's material in the quiescence search
STATIC_MARGIN = 120  # per ply of depth: how far above beta a position may stand and still fall
FUTILITY_MARGIN = 150  # per ply of depth: what a quiet move can gain near the leaves


class SearchStopped(Exception):
    """Raised inside the search when time is up or `stop()` was called; caught at the root."""


@dataclass(frozen=True)
class SearchLimits:
    """When to stop: the deepest iteration, the thinking time in seconds, the node budget."""

    depth: int = MAX_PLY
    movetime: float | None = None
    nodes: int | None = None


@dataclass
class SearchInfo:
    """What one finished (or stopped) iteration found, for UCI `info` lines and the caller."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    move: Move | None = None
    stopped: bool = False

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative when being mated), or None for an ordinary score."""
        if abs(self.score) < MATE_BOUND:
            return None
        plies = MATE - abs(self.score)
        moves = (plies + 1) // 2
        return moves if self.score > 0 else -moves


InfoCallback = Callable[[SearchInfo], None]


class StopSignal(Protocol):
    """A flag another thread or process may raise: `threading.Event`, a Manager's Event."""

    def is_set(self) -> bool: ...


class Searcher:
    """An alpha-beta searcher with its own transposition table, killers and history.

    `cancel`, when given, is looked at as often as the clock: once it is set, every search
    ends at once with its best move so far (a worker process's way to be told to stop).

    >>> from chesscore import Board
    >>> board = Board.from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    >>> Searcher().search(board, SearchLimits(depth=2)).move.uci()
    'a1a8'
    """

    def __init__(self, cancel: StopSignal | None = None) -> None:
        self.cancel = cancel
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * (2 << 14)
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self.nodes = 0
        self.stopped = False
        self.deadline = float("inf")
        self.node_limit: int | None = None
        self.board = Board()
        self.root_length = 1

    def stop(self) -> None:
        """Ask a running search (in another thread) to finish as soon as it can.

        The request holds until `resume()`, so a stop sent just before a search starts is not
        lost: `search` never clears it itself.
        """
        self.stopped = True

    def resume(self) -> None:
        """Let the next search run (clears a `stop()`)."""
        self.stopped = False

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self.table.clear()
        self.history = [0] * (2 << 14)
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]

    def search(
        self, board: Board, limits: SearchLimits, on_info: InfoCallback | None = None
    ) -> SearchInfo:
        """Search `board` (left unchanged) within `limits`; the result names the best move.

        `move` is None only when the side to move has no legal move.
        """
        start = time.monotonic()
        self._prepare(board, limits, start)
        root_moves = self.board.generate_legal()
        best = SearchInfo(0, 0, 0, 0.0)
        if not root_moves:
            best.score = -MATE if self.board.is_check() else 0
            return best
        best.move = Move.from_packed(root_moves[0])
        for depth in range(1, max(1, limits.depth) + 1):
            info = self._iterate(depth, root_moves, start)
            if info.move is not None:
                best = info
            if on_info is not None and info.move is not None:
                on_info(info)
            if info.stopped or self._should_not_deepen(best, depth, start, limits):
                break
        if best.depth == 0:  # depth 1 was cut short before it finished a move
            score, packed = self._static_lines(root_moves)[0]
            best.score, best.move = score, Move.from_packed(packed)
            best.pv = [best.move]
        best.nodes, best.seconds = self.nodes, time.monotonic() - start
        return best

    def begin(self, board: Board, limits: SearchLimits) -> tuple[list[int], float]:
        """Set up a search of `board` whose iterations the caller drives (multi-PV analysis,
        `chesscore.engine.analyse`): the root's legal moves (packed) and the start time."""
        start = time.monotonic()
        self._prepare(board, limits, start)
        return self.board.generate_legal(), start

    def iterate_lines(
        self, depth: int, root_moves: list[int], count: int, start: float
    ) -> list[SearchInfo]:
        """One iteration at `depth` of a search set up by `begin`: the best `count` root moves,
        best first, each with its exact score and principal variation (multi-PV); none when
        the search was stopped. `root_moves` is re-ordered for the next: these, then the rest.
        With `count` 1 it is exactly the iteration `search` makes."""
        lines: list[tuple[int, int]] = []  # (score, packed move), best first
        try:
            self._search_root_lines(depth, root_moves, count, lines)
        except SearchStopped:
            while len(self.board.keys) > self.root_length:
                self.board.pop_packed()
            if depth > 1 or self._is_cancelled():
                return []
            return self._cut_first_lines(lines, root_moves, count, start)
        chosen = [move for _, move in lines]
        root_moves[:] = chosen + [move for move in root_moves if move not in chosen]
        seconds = time.monotonic() - start
        infos = []
        for score, packed in lines:
            move = Move.from_packed(packed)
            pv = self._principal_variation(move, depth)
            infos.append(SearchInfo(depth, score, self.nodes, seconds, pv, move))
        return infos

    def _cut_first_lines(
        self, lines: list[tuple[int, int]], root_moves: list[int], count: int, start: float
    ) -> list[SearchInfo]:
        """What depth 1 has when the clock or the node budget cuts it short: the root moves it
        finished, then the best of the rest by their static score, `count` lines in all. Every
        depth obeys the clock (on a position of nine queens a side depth 1 alone, its
        quiescence search, ran for minutes), and a time limit however short still gives lines."""
        finished = {move for _, move in lines}
        rest = [line for line in self._static_lines(root_moves) if line[1] not in finished]
        lines = (lines + rest)[:count]
        seconds = time.monotonic() - start
        return [
            SearchInfo(1, score, self.nodes, seconds, [first], first, stopped=True)
            for score, first in ((score, Move.from_packed(move)) for score, move in lines)
        ]

    def _static_lines(self, root_moves: list[int]) -> list[tuple[int, int]]:
        """Every root move scored by the static evaluation after it (no search), best first."""
        board = self.board
        mg0, eg0, phase0 = evaluation_terms(board)
        turn = board.turn
        scored = []
        for move in root_moves:
            dmg, deg, dphase = move_delta(board.board, move, turn)
            scored.append((-blend(mg0 + dmg, eg0 + deg, phase0 + dphase, turn ^ 1), move))
        scored.sort(key=lambda line: -line[0])
        return scored

    def _is_cancelled(self) -> bool:
        """Whether `stop()` or the cancel signal (not the clock) asked the search to end."""
        return self.stopped or (self.cancel is not None and self.cancel.is_set())

    def _prepare(self, board: Board, limits: SearchLimits, start: float) -> None:
        self.board = board.copy()
        self.root_length = len(self.board.keys)
        self.nodes = 0
        self.node_limit = limits.nodes
        self.deadline = start + limits.movetime if limits.movetime is not None else float("inf")
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        # Old history counts say what worked in other positions: keep their order, shrink them.
        self.history = [value >> 3 for value in self.history]

    def _should_not_deepen(
        self, best: SearchInfo, depth: int, start: float, limits: SearchLimits
    ) -> bool:
        """True when the next iteration could not finish in time or a mate is already proved."""
        if best.mate_in is not None and depth >= MATE - abs(best.score):
            return True
        if limits.movetime is None:
            return False
        # The next iteration costs several times this one, but even unfinished it is worth its
        # time: it searches the best move first and switches only to a move proved better.
        # Only when little time is left would it see nothing beyond that first move.
        return time.monotonic() - start > limits.movetime * 0.6

    def _iterate(self, depth: int, root_moves: list[int], start: float) -> SearchInfo:
        """One root iteration at `depth`; the root moves are re-ordered best first."""
        info = SearchInfo(depth, -INFINITY, 0, 0.0)
        try:
            self._search_root(depth, root_moves, info)
        except SearchStopped:
            info.stopped = True
            # The stop came from deep inside: take back the moves still made on our copy.
            while len(self.board.keys) > self.root_length:
                self.board.pop_packed()
        info.nodes, info.seconds = self.nodes, time.monotonic() - start
        if info.move is not None:
            info.pv = self._principal_variation(info.move, depth)
        return info

    def _search_root(self, depth: int, root_moves: list[int], info: SearchInfo) -> None:
        board = self.board
        squares = board.board
        mg0, eg0, phase0 = evaluation_terms(board)
        turn = board.turn
        alpha, beta = -INFINITY, INFINITY
        for index, move in enumerate(root_moves):
            dmg, deg, dphase = move_delta(squares, move, turn)
            board.push_packed(move)
            if index == 0:
                score = -self._negamax(
                    depth - 1, -beta, -alpha, 1, mg0 + dmg, eg0 + deg, phase0 + dphase
                )
            else:
                score = -self._negamax(
                    depth - 1, -alpha - 1, -alpha, 1, mg0 + dmg, eg0 + deg, phase0 + dphase
                )
                if score > alpha:
                    score = -self._negamax(
                        depth - 1, -beta, -alpha, 1, mg0 + dmg, eg0 + deg, phase0 + dphase
                    )
            board.pop_packed()
            if score > alpha:
                alpha = score
                info.score, info.move = score, Move.from_packed(move)
                # Best first for the next iteration (and for the PV search of this one).
                root_moves.insert(0, root_moves.pop(index))
        self._store(board.key(), depth, EXACT, alpha, 0, root_moves[0])

    def _search_root_lines(
        self, depth: int, root_moves: list[int], count: int, lines: list[tuple[int, int]]
    ) -> None:
        """`_search_root` keeping the best `count` moves in `lines`: the first `count` are
        searched with the full window, every later one with a null window at the `count`-th
        best score, and with the full window above it only when it beats that score. Each
        move is proved worse than the lines once, not once per line (K root searches, each
        without the better lines' moves, took 1.2 times the nodes on bench/analysis.py's
        positions at depths 4 and 5)."""
        board = self.board
        squares = board.board
        mg0, eg0, phase0 = evaluation_terms(board)
        turn = board.turn
        for index, move in enumerate(root_moves):
            dmg, deg, dphase = move_delta(squares, move, turn)
            board.push_packed(move)
            mg, eg, phase = mg0 + dmg, eg0 + deg, phase0 + dphase
            if len(lines) < count:
                score = -self._negamax(depth - 1, -INFINITY, INFINITY, 1, mg, eg, phase)
            else:
                floor = lines[-1][0]
                score = -self._negamax(depth - 1, -floor - 1, -floor, 1, mg, eg, phase)
                if score > floor:
                    score = -self._negamax(depth - 1, -INFINITY, -floor, 1, mg, eg, phase)
            board.pop_packed()
            if len(lines) < count or score > lines[-1][0]:
                bisect.insort(lines, (score, move), key=lambda line: -line[0])
                del lines[count:]
                # As `_search_root`: each move that made the lines goes first for the next depth.
                root_moves.insert(0, root_moves.pop(index))
        self._store(board.key(), depth, EXACT, lines[0][0], 0, lines[0][1])

    def _negamax(
        self, depth: int, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int
    ) -> int:
        """The score of the board's position for the side to move, within (alpha, beta)."""
        board = self.board
        # Before the horizon test, so a quiet last move that repeats a position counts as a draw.
        if board.halfmove_clock >= 4 and (board.halfmove_clock >= 100 or self._is_repetition()):
            return 0
        if depth <= 0 or ply >= MAX_PLY:
            # The quiescence search answers a check with every evasion: the check extension.
            return self._quiesce(alpha, beta, ply, mg, eg, phase)
        in_check = board.is_check()
        if in_check:
            depth += 1
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_limits()
        key = board.key()
        entry = self.table.get(key)
        tt_move = 0
        if entry is not None:
            entry_depth, entry_flag, entry_score, tt_move = entry
            if entry_depth >= depth and beta - alpha == 1:
                score = _score_from_table(entry_score, ply)
                if (
                    entry_flag == EXACT
                    or (entry_flag == LOWER and score >= beta)
                    or (entry_flag == UPPER and score <= alpha)
                ):
                    return score
        futile = False
        if not in_check and beta - alpha == 1 and abs(beta) < MATE_BOUND:
            # Away from the principal variation, a position far above beta is not worth a full
            # search (and a null move proves it), one far below alpha only for its captures.
            static = blend(mg, eg, phase, board.turn)
            if phase <= MOP_UP_PHASE:
                static += mop_up(board.kings, eg, phase, board.turn)
            if depth <= 3 and static - STATIC_MARGIN * depth >= beta:
                return static
            if depth >= 3 and static >= beta and self._has_pieces():
                score = -self._null_move_search(depth, beta, ply, mg, eg, phase)
                if score >= beta:
                    return beta
            futile = depth <= 2 and static + FUTILITY_MARGIN * depth <= alpha
        moves = board.generate_legal()
        if not moves:
            return -MATE + ply if in_check else 0
        return self._search_moves(
            moves, tt_move, depth, alpha, beta, ply, mg, eg, phase, in_check or not futile, key
        )

    def _has_pieces(self) -> bool:
        """Whether the side to move has a piece besides king and pawns (null moves are unsafe
        without: zugzwang is common there)."""
        board = self.board
        squares = board.board
        return any(KNIGHT <= squares[sq] & 7 <= QUEEN for sq in board.piece_squares[board.turn])

    def _null_move_search(
        self, depth: int, beta: int, ply: int, mg: int, eg: int, phase: int
    ) -> int:
        """The opponent's score if the side to move could pass, searched shallower.

        `Board.push_null` passes (its halfmove clock restarts, so no repetition is found
        across the pass) and `pop_null` takes the pass back.
        """
        board = self.board
        board.push_null()
        mark = len(board.keys)
        reduction = 3 if depth >= 6 else 2
        try:
            score = self._negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, mg, eg, phase)
        except SearchStopped:
            # Stopped deep inside: take back the real moves made after the pass first.
            while len(board.keys) > mark:
                board.pop_packed()
            board.pop_null()
            raise
        board.pop_null()
        return score

    def _search_moves(
        self,
        moves: list[int],
        tt_move: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        mg: int,
        eg: int,
        phase: int,
        keep_quiet: bool,
        key: int,
    ) -> int:
        """Try `moves` best-first (PVS with late move reductions); store and return the best.

        `keep_quiet` False (futility) skips the quiet moves after the first that give no check.
        """
        board = self.board
        squares = board.board
        turn = board.turn
        history = self.history
        history_base = turn << 14
        ordered = self._order_moves(moves, tt_move, ply, squares, history_base)
        negamax = self._negamax
        original_alpha = alpha
        best_score, best_move = -INFINITY, 0
        for index, move in enumerate(ordered):
            quiet = not (
                squares[move & SQUARE_MASK]
                or move >> PROMOTION_SHIFT & 7
                or move >> FLAG_SHIFT == FLAG_EN_PASSANT
            )
            dmg, deg, dphase = move_delta(squares, move, turn)
            board.push_packed(move)
            if quiet and not keep_quiet and index and not board.is_check():
                board.pop_packed()
                continue
            child_mg, child_eg, child_phase = mg + dmg, eg + deg, phase + dphase
            if index == 0:
                score = -negamax(depth - 1, -beta, -alpha, ply + 1, child_mg, child_eg, child_phase)
            else:
                # Late quiet moves rarely matter: look at them shallower first, and only
                # search them fully when they surprise.
                reduction = (1 if quiet and depth >= 3 and index >= 3 else 0) + (
                    1 if quiet and depth >= 6 and index >= 10 else 0
                )
                score = -negamax(
                    depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                    child_mg, child_eg, child_phase,
                )  # fmt: skip
                if score > alpha and (reduction or score < beta):
                    score = -negamax(
                        depth - 1, -beta, -alpha, ply + 1, child_mg, child_eg, child_phase
                    )
            board.pop_packed()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self._reward_quiet(move, ply, depth, history, history_base)
                        break
        flag = LOWER if best_score >= beta else EXACT if best_score > original_alpha else UPPER
        self._store(key, depth, flag, best_score, ply, best_move)
        return best_score

    def _order_moves(
        self, moves: list[int], tt_move: int, ply: int, squares: list[int], history_base: int
    ) -> list[int]:
        """`moves` sorted best-first by the ordering keys of the module docstring."""
        history = self.history
        killer_a, killer_b = self.killers[ply]
        keyed = []
        for move in moves:
            victim = squares[move & SQUARE_MASK]
            if move == tt_move:
                order = TT_MOVE_ORDER
            elif victim or move >> PROMOTION_SHIFT & 7 or move >> FLAG_SHIFT == FLAG_EN_PASSANT:
                attacker = squares[move >> ORIGIN_SHIFT & SQUARE_MASK] & 7
                order = CAPTURE_ORDER + ((victim & 7) << 4) - attacker
                order += (move >> PROMOTION_SHIFT & 7) << 8
            elif move == killer_a:
                order = KILLER_ORDER + 1
            elif move == killer_b:
                order = KILLER_ORDER
            else:
                order = history[history_base | move & 0x3FFF]
            keyed.append((order, move))
        keyed.sort(reverse=True)
        return [move for _, move in keyed]

    def _reward_quiet(
        self, move: int, ply: int, depth: int, history: list[int], history_base: int
    ) -> None:
        """A quiet move caused a cutoff: remember it as a killer and raise its history."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        index = history_base | move & 0x3FFF
        history[index] = min(history[index] + depth * depth, HISTORY_LIMIT)

    def _quiesce(self, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int) -> int:
        """Captures (and every evasion when in check) until the position is quiet.

        Out of check the side to move may also "stand pat" on the static score. Captures are
        tried by the material they win; those that cannot lift the score to alpha even
        unanswered (delta pruning), and those of a defended piece by a more valuable one,
        are not tried: they cost most of the nodes and almost never change the result.
        """
        self.nodes += 1
        if not self.nodes & CHECK_EVERY:
            self._check_limits()
        board = self.board
        squares = board.board
        turn = board.turn
        enemies = board.piece_squares[turn ^ 1]
        safety = scan_king(squares, board.kings[turn], enemies)
        if safety.checkers:
            return self._quiesce_evasions(alpha, beta, ply, mg, eg, phase)
        stand = blend(mg, eg, phase, turn)
        if phase <= MOP_UP_PHASE:
            stand += mop_up(board.kings, eg, phase, turn)
        if stand >= beta or ply >= MAX_PLY:
            return stand
        alpha = max(alpha, stand)
        best = stand
        values = CAPTURE_VALUE
        keyed = [
            (values[squares[m & SQUARE_MASK] & 7] + values[m >> PROMOTION_SHIFT & 7], m)
            for m in generate_captures(board, safety.pinned)
        ]
        keyed.sort(reverse=True)
        quiesce = self._quiesce
        for gain, move in keyed:
            if stand + gain + DELTA_MARGIN <= alpha:
                break  # sorted by gain: no later capture can reach alpha either
            target = move & SQUARE_MASK
            if values[squares[move >> ORIGIN_SHIFT & SQUARE_MASK] & 7] > gain and is_attacked(
                squares, target, enemies
            ):
                continue
            dmg, deg, dphase = move_delta(squares, move, turn)
            board.push_packed(move)
            score = -quiesce(-beta, -alpha, ply + 1, mg + dmg, eg + deg, phase + dphase)
            board.pop_packed()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _quiesce_evasions(
        self, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int
    ) -> int:
        """In check at the horizon: every evasion is searched (no standing pat), or it is mate."""
        board = self.board
        squares = board.board
        turn = board.turn
        moves = board.generate_legal()
        if not moves:
            return -MATE + ply
        best = -INFINITY
        for move in moves:
            dmg, deg, dphase = move_delta(squares, move, turn)
            board.push_packed(move)
            score = -self._quiesce(-beta, -alpha, ply + 1, mg + dmg, eg + deg, phase + dphase)
            board.pop_packed()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    def _is_repetition(self) -> bool:
        """True when the current position occurred before within the reversible moves."""
        board = self.board
        clock = board.halfmove_clock
        if clock < 4:
            return False
        keys = board.keys
        return keys[-1] in keys[-clock - 1 : -2]

    def _check_limits(self) -> None:
        if (
            self._is_cancelled()
            or time.monotonic() >= self.deadline
            or (self.node_limit is not None and self.nodes >= self.node_limit)
        ):
            raise SearchStopped

    def _store(self, key: int, depth: int, flag: int, score: int, ply: int, move: int) -> None:
        # Mate scores are stored as distances from this node, not from the root.
        if score > MATE_BOUND:
            score += ply
        elif score < -MATE_BOUND:
            score -= ply
        self.table[key] = (depth, flag, score, move)

    def _principal_variation(self, first: Move, depth: int) -> list[Move]:
        """The expected line: the best root move, then the table's moves while legal."""
        board = self.board
        line = [first]
        board.push(first)
        seen = {board.key()}
        while len(line) < depth:
            entry = self.table.get(board.key())
            if entry is None or not entry[3] or entry[3] not in board.generate_legal():
                break
            board.push_packed(entry[3])
            if board.key() in seen:
                board.pop_packed()
                break
            seen.add(board.key())
            line.append(Move.from_packed(entry[3]))
        for _ in line:
            board.pop_packed()
        return line


def _score_from_table(score: int, ply: int) -> int:
    """A stored score seen from the root: mates are re-counted from this ply."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score
