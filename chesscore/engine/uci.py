"""The UCI front end: `python -m chesscore.uci` (the entry point in chesscore/uci.py runs this
module's `main`) plays in chess GUIs and engine-match tools.

It speaks the Universal Chess Interface over stdin/stdout: `uci` (answers `id` and the
options, then `uciok`), `isready` (`readyok`, at once even while searching), `ucinewgame`,
`setoption name Level value N` (1 random, 2 careful beginner, 3-8 search; default 8),
`position startpos|fen <fen> [moves ...]`, `go` with `movetime`, `wtime`/`btime`/`winc`/`binc`/
`movestogo`, `depth`, `nodes` or `infinite`, `stop` and `quit`. The search runs in its own
thread so `stop`, `isready` and `quit` are answered while it thinks; each finished iteration
prints an `info` line and the search ends with `bestmove`. A command that cannot be used (a bad
FEN, an illegal move, an unknown option) is answered with `info string error: ...` and
changes nothing; unknown commands are ignored with a note, as the protocol asks.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from chesscore.engine.levels import SEARCH_LEVELS, make_level_player
from chesscore.engine.players import RandomPlayer
from chesscore.engine.search import MAX_PLY, Searcher, SearchInfo, SearchLimits
from chesscore.errors import ChessError
from chesscore.rules.board import Board
from chesscore.rules.move import Move

ENGINE_NAME = "chesscore"
ENGINE_AUTHOR = "the chess-threats developers"
TOP_LEVEL = max(SEARCH_LEVELS)
MOVE_OVERHEAD = 0.03  # seconds kept back from the clock for the GUI's own delays
GO_NUMBERS = ("movetime", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes")


def format_info(info: SearchInfo) -> str:
    """The UCI `info` line of one finished iteration."""
    mate = info.mate_in
    score = f"mate {mate}" if mate is not None else f"cp {info.score}"
    nps = int(info.nodes / info.seconds) if info.seconds > 0 else 0
    pv = " ".join(move.uci() for move in info.pv)
    return (
        f"info depth {info.depth} score {score} nodes {info.nodes} nps {nps} "
        f"time {int(info.seconds * 1000)} pv {pv}"
    )


def parse_go(tokens: list[str], turn: int, default_movetime: float) -> tuple[SearchLimits, bool]:
    """The search limits of a `go` command's arguments, and whether it is `infinite`.

    A bare `go` (no time, depth or node limit) thinks for `default_movetime` seconds.
    """
    numbers: dict[str, int] = {}
    infinite = False
    index = 0
    while index < len(tokens):
        word = tokens[index]
        if word == "infinite":
            infinite = True
        elif word in GO_NUMBERS:
            if index + 1 >= len(tokens) or not tokens[index + 1].lstrip("-").isdigit():
                raise ChessError(f"go {word} needs a number, got {' '.join(tokens)!r}")
            numbers[word] = int(tokens[index + 1])
            index += 1
        index += 1
    depth = numbers.get("depth", MAX_PLY)
    movetime: float | None = None
    if "movetime" in numbers:
        movetime = max(numbers["movetime"], 1) / 1000
    elif ("wtime", "btime")[turn] in numbers:
        movetime = _budget(numbers, turn)
    elif not infinite and "depth" not in numbers and "nodes" not in numbers:
        movetime = default_movetime
    return SearchLimits(depth=depth, movetime=movetime, nodes=numbers.get("nodes")), infinite


def _budget(numbers: dict[str, int], turn: int) -> float:
    """Seconds for this move from the clock: a share of what is left plus most of the increment."""
    left = numbers[("wtime", "btime")[turn]] / 1000
    increment = numbers.get(("winc", "binc")[turn], 0) / 1000
    moves_to_go = max(numbers.get("movestogo", 30), 1)
    budget = left / moves_to_go + increment * 0.75
    return max(min(budget, left / 2) - MOVE_OVERHEAD, 0.01)


class UciEngine:
    """The protocol state: the position, the level, and the search thread if one runs."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_line = write
        self._lock = threading.Lock()
        self.board = Board()
        self.level = TOP_LEVEL
        self.searcher = Searcher()
        self.thread: threading.Thread | None = None
        self._stop_event = threading.Event()

    def write(self, line: str) -> None:
        # The search thread prints too; a lock keeps lines whole.
        with self._lock:
            self._write_line(line)

    def handle(self, line: str) -> bool:
        """Act on one command line; False once `quit` has been handled."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        handler = self._handlers().get(command)
        if handler is None:
            self.write(f"info string unknown command: {line.strip()!r}")
            return True
        try:
            return handler(args)
        except ChessError as error:
            self.write(f"info string error: {error}")
            return True

    def _handlers(self) -> dict[str, Callable[[list[str]], bool]]:
        return {
            "uci": self._uci,
            "isready": self._isready,
            "ucinewgame": self._new_game,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "quit": self._quit,
            "debug": lambda args: True,
            "ponderhit": lambda args: True,
        }

    def _uci(self, args: list[str]) -> bool:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        self.write(f"option name Level type spin default {TOP_LEVEL} min 1 max {TOP_LEVEL}")
        self.write("uciok")
        return True

    def _isready(self, args: list[str]) -> bool:
        self.write("readyok")
        return True

    def _new_game(self, args: list[str]) -> bool:
        self._stop([])
        self.searcher.clear()
        self.board = Board()
        return True

    def _setoption(self, args: list[str]) -> bool:
        text = " ".join(args)
        if len(args) != 4 or args[0] != "name" or args[2] != "value":
            raise ChessError(f"expected 'setoption name <id> value <x>', got {text!r}")
        if args[1].lower() != "level":
            raise ChessError(f"unknown option {args[1]!r}; options: Level")
        if not args[3].isdigit() or not 1 <= int(args[3]) <= TOP_LEVEL:
            raise ChessError(f"Level must be 1 to {TOP_LEVEL}, got {args[3]!r}")
        self.level = int(args[3])
        return True

    def _position(self, args: list[str]) -> bool:
        self._stop([])
        if "moves" in args:
            split = args.index("moves")
            setup, moves = args[:split], args[split + 1 :]
        else:
            setup, moves = args, []
        if setup == ["startpos"]:
            board = Board()
        elif setup[:1] == ["fen"] and len(setup) > 1:
            board = Board.from_fen(" ".join(setup[1:]))
        else:
            raise ChessError(f"expected 'position startpos|fen <fen> [moves ...]', got {args!r}")
        for text in moves:
            board.push_uci(text)
        self.board = board
        return True

    def _go(self, args: list[str]) -> bool:
        self._stop([])
        level = SEARCH_LEVELS.get(self.level, SEARCH_LEVELS[TOP_LEVEL])
        limits, infinite = parse_go(args, self.board.turn, level.movetime)
        self._stop_event.clear()
        self.searcher.resume()
        board = self.board.copy()
        self.thread = threading.Thread(
            target=self._think, args=(board, limits, infinite), name="uci-search", daemon=True
        )
        self.thread.start()
        return True

    def _think(self, board: Board, limits: SearchLimits, infinite: bool) -> None:
        """The search thread: search, print `info` lines, wait for `stop` if infinite, answer."""
        legal = board.legal_moves()
        if not legal:
            self.write("bestmove 0000")
            return
        try:
            move = self._choose(board, limits)
        except Exception as error:  # a GUI waits for bestmove whatever happens: never leave it
            self.write(f"info string error: search failed: {error!r}")
            move = legal[0]
        if infinite:
            self._stop_event.wait()
        self.write(f"bestmove {move.uci() if move is not None else '0000'}")

    def _choose(self, board: Board, limits: SearchLimits) -> Move | None:
        if self.level in SEARCH_LEVELS:
            level_depth = SEARCH_LEVELS[self.level].depth
            limits = SearchLimits(min(limits.depth, level_depth), limits.movetime, limits.nodes)
            return self.searcher.search(board, limits, self._report).move
        player = RandomPlayer() if self.level == 1 else make_level_player(self.level)
        return player.choose_move(board)

    def _report(self, info: SearchInfo) -> None:
        self.write(format_info(info))

    def _stop(self, args: list[str]) -> bool:
        thread = self.thread
        if thread is not None:
            self.searcher.stop()
            self._stop_event.set()
            thread.join()
            self.thread = None
        return True

    def _quit(self, args: list[str]) -> bool:
        self._stop([])
        return False


def run(stdin: TextIO, stdout: TextIO) -> None:
    """Serve UCI commands from `stdin` until `quit` or the end of input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    engine = UciEngine(write)
    for line in stdin:
        if not engine.handle(line):
            return
    engine.handle("quit")


def main() -> None:
    run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
