"""Command line for the rules core: ``python -m chesscore perft|moves|threats|analyse|review``.

``perft FEN DEPTH [--divide]`` prints the leaf-node count as its last line (``--divide`` first
prints ``uci: count`` for every root move); ``moves FEN`` prints each legal move in UCI and SAN;
``threats FEN`` prints the board with, on every square, the number of white and black pieces
attacking it and the piece standing there (``2/1N``, ``.`` for an empty square), then the
checkers, pins and hanging pieces. ``analyse FEN|file.pgn`` runs the engine's multi-PV
analysis (``--depth``, ``--multipv``, ``--movetime``), printing the best line of every finished
depth as it comes, then each line with its rank, its score from White's point of view (``+0.34``,
``#-2``) and its moves in SAN; for a PGN file, the position at the end of the first game's main
line (``--game``, ``--ply`` for another). ``review game.pgn`` reviews a game (the first, or
``--game N``) at ``--seconds``/``--depth`` per position: the annotated PGN on stdout, the
progress on stderr (one line redrawn on a terminal, else a "34/81 positions" line at most once a
second), then a summary line (accuracy and counts per side). Bad input (a FEN or PGN that
does not parse, a missing file, a negative depth) is reported on stderr with exit code 2,
never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from chesscore.analysis.threats import make_threat_map
from chesscore.engine.analyse import Analysis, Line, analyse
from chesscore.engine.search import MAX_PLY, SearchLimits
from chesscore.errors import ChessError
from chesscore.review.evaluate import PositionEval, ReviewSetting
from chesscore.review.judge import count_judgements, review_accuracy, review_plies
from chesscore.review.passes import review_positions
from chesscore.review.pgn import reviewed_pgn
from chesscore.rules.board import Board
from chesscore.rules.perft import perft, perft_divide
from chesscore.rules.pgn_import import ImportedGame, read_games
from chesscore.rules.squares import square_name

USAGE_ERROR = 2
INTERRUPTED = 130  # as a shell reports a command stopped by SIGINT
EXAMPLES = """examples:
  python -m chesscore perft "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 4
  python -m chesscore perft "<FEN>" 3 --divide     (uci: count per root move, then the total)
  python -m chesscore moves "<FEN>"                (each legal move in UCI and SAN)
  python -m chesscore threats "<FEN>"              (white/black attacker counts per square)
  python -m chesscore analyse "<FEN>" --depth 6 --multipv 3   (the engine's best lines)
  python -m chesscore analyse game.pgn --movetime 5 --ply 30 (a game's position after ply 30)
  python -m chesscore review game.pgn --game 2 > reviewed.pgn  (the annotated PGN)"""
DEFAULT_ANALYSIS_DEPTH = 6  # when neither --depth nor --movetime is given: a few seconds
IMPOSSIBLE_NOTICE = "note: this position cannot arise in a game; analysis only"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _make_parser()
    args = parser.parse_args(argv)
    try:
        subject = args.load(args)  # a Board, or for `review` the game
        lines = args.command(subject, args)
        print("\n".join(lines))
    except ChessError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        sys.stderr.close()
    except KeyboardInterrupt:  # Ctrl-C during a long analysis or review: no traceback
        print("\ninterrupted", file=sys.stderr)
        return INTERRUPTED
    return 0


def _make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m chesscore",
        description="The chesscore rules on the command line.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(load=_load_fen)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    perft_parser = commands.add_parser("perft", help="count the leaf nodes of the move tree")
    perft_parser.add_argument("fen", metavar="FEN")
    perft_parser.add_argument("depth", metavar="DEPTH", type=_depth)
    perft_parser.add_argument("--divide", action="store_true", help="counts per root move")
    perft_parser.set_defaults(command=_run_perft)
    moves_parser = commands.add_parser("moves", help="list the legal moves in UCI and SAN")
    moves_parser.add_argument("fen", metavar="FEN")
    moves_parser.set_defaults(command=_run_moves)
    threats_parser = commands.add_parser("threats", help="show attack counts per square")
    threats_parser.add_argument("fen", metavar="FEN")
    threats_parser.set_defaults(command=_run_threats)
    _add_analyse_parser(commands)
    _add_review_parser(commands)
    return parser


def _add_analyse_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("analyse", help="the engine's best lines (multi-PV)")
    parser.add_argument("source", metavar="FEN|file.pgn")
    parser.add_argument(
        "--depth", type=_positive, help=f"deepest iteration (default {DEFAULT_ANALYSIS_DEPTH})"
    )
    parser.add_argument("--multipv", type=_positive, default=3, help="lines (default 3)")
    parser.add_argument("--movetime", type=_seconds, help="seconds to think at most")
    parser.add_argument("--game", type=_positive, default=1, help="game of the PGN (from 1)")
    parser.add_argument("--ply", type=_depth, help="position after this many plies of the PGN")
    parser.set_defaults(command=_run_analyse, load=_load_source)


def _add_review_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    default = ReviewSetting()
    parser = commands.add_parser("review", help="the annotated PGN of a game's review")
    parser.add_argument("source", metavar="file.pgn")
    parser.add_argument("--game", type=_positive, default=1, help="game of the PGN (from 1)")
    parser.add_argument(
        "--seconds", type=_seconds, default=default.seconds,
        help=f"seconds per position at most (default {default.seconds})",
    )  # fmt: skip
    parser.add_argument(
        "--depth", type=_review_depth, default=default.depth,
        help=f"depth cap per position (default {default.depth})",
    )  # fmt: skip
    parser.set_defaults(command=_run_review, load=_load_review_game)


def _load_fen(args: argparse.Namespace) -> Board:
    return Board.from_fen(args.fen)


def _load_source(args: argparse.Namespace) -> Board:
    """The position to analyse: a PGN file's (when the source names a file) or a FEN's. A FEN
    with checks no game could give is analysed all the same, as other engines do, with a note."""
    path = Path(args.source)
    if path.suffix.lower() == ".pgn" or path.is_file():
        return _load_pgn_position(path, args.game, args.ply)
    try:
        return Board.from_fen(args.source)
    except ChessError:
        board = Board.from_fen(args.source, allow_impossible_checks=True)
        print(IMPOSSIBLE_NOTICE, file=sys.stderr)
        return board


def _load_pgn_position(path: Path, game_number: int, ply: int | None) -> Board:
    game = _read_game(path, game_number)
    main_line = [node.move for node in game.moves]
    if ply is not None and ply > len(main_line):
        raise ChessError(f"ply {ply} is past the end of the game ({len(main_line)} plies)")
    board = Board.from_fen(game.start_fen)
    for move in main_line[:ply]:
        board.push(move)
    return board


def _load_review_game(args: argparse.Namespace) -> ImportedGame:
    return _read_game(Path(args.source), args.game)


def _read_game(path: Path, game_number: int) -> ImportedGame:
    """Game `game_number` (from 1) of the PGN file at `path`; ChessError saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ChessError(f"cannot read {str(path)!r}: {reason}") from None
    games = read_games(text, limit=game_number)
    if game_number > len(games):
        raise ChessError(f"{path} holds {len(games)} game(s), not {game_number}")
    return games[game_number - 1]


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


def _review_depth(text: str) -> int:
    depth = _positive(text)
    if depth > MAX_PLY:
        raise argparse.ArgumentTypeError(f"depth must be at most {MAX_PLY}, got {text!r}")
    return depth


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return seconds


def _run_perft(board: Board, args: argparse.Namespace) -> list[str]:
    if not args.divide:
        return [str(perft(board, args.depth))]
    counts = perft_divide(board, args.depth)
    lines = [f"{uci}: {count}" for uci, count in sorted(counts.items())]
    return [*lines, str(sum(counts.values()))]


def _run_moves(board: Board, args: argparse.Namespace) -> list[str]:
    pairs = sorted((move.uci(), board.san(move)) for move in board.legal_moves())
    return [f"{uci} {san}" for uci, san in pairs]


def _run_threats(board: Board, args: argparse.Namespace) -> list[str]:
    threats = make_threat_map(board)
    white, black = threats.attackers
    lines = ["white/black attackers and the piece on each square"]
    for rank in range(7, -1, -1):
        cells = []
        for file in range(8):
            sq = rank * 16 + file
            piece = board.piece_at(sq)
            letter = piece.symbol() if piece else "."
            cells.append(f"{len(white[sq])}/{len(black[sq])}{letter}".ljust(5))
        lines.append(f"{rank + 1}  " + " ".join(cells).rstrip())
    lines.append("   " + " ".join(name.ljust(5) for name in "abcdefgh").rstrip())
    pins = [
        f"{square_name(pin.pinned)} pinned by {square_name(pin.pinner)}" for pin in threats.pins
    ]
    lines.append(f"checkers: {' '.join(map(square_name, threats.checkers)) or '-'}")
    lines.append(f"pins: {', '.join(pins) or '-'}")
    lines.append(f"hanging: {' '.join(map(square_name, threats.hanging)) or '-'}")
    return lines


def _run_analyse(board: Board, args: argparse.Namespace) -> list[str]:
    """Each finished depth's best line as it comes (printed here), then every line."""
    depth = args.depth or (MAX_PLY if args.movetime else DEFAULT_ANALYSIS_DEPTH)
    limits = SearchLimits(depth=min(depth, MAX_PLY), movetime=args.movetime)

    def show_depth(analysis: Analysis) -> None:
        if not analysis.done and analysis.lines:
            best = analysis.lines[0]
            print(f"depth {analysis.depth}  {_format_line(board, best)}", flush=True)

    result = analyse(board, limits, args.multipv, on_update=show_depth)
    if not result.lines:
        return ["checkmate: no lines" if board.is_check() else "stalemate: no lines"]
    summary = f"depth {result.depth}, {result.nodes:,} nodes, {result.seconds:.1f} s"
    return [summary, *(f"{line.rank}  {_format_line(board, line)}" for line in result.lines)]


def _format_line(board: Board, line: Line) -> str:
    """The score from White's point of view, then the moves in SAN."""
    replay = board.copy()
    sans = []
    for move in line.moves:
        sans.append(replay.san(move))
        replay.push(move)
    return f"{line.score.text():>6}  {' '.join(sans)}"


def _run_review(game: ImportedGame, args: argparse.Namespace) -> list[str]:
    """Evaluate every position (progress on stderr), judge every ply; the annotated PGN."""
    setting = ReviewSetting(seconds=args.seconds, depth=args.depth)
    start = Board.from_fen(game.start_fen, allow_impossible_checks=True)
    moves = [node.move for node in game.moves]
    first = Progress(len(moves) + 1, "positions", sys.stderr)
    second: list[Progress] = []  # the second look's, once it knows how many positions

    def on_second_look(indexes: list[int]) -> None:
        first.finish()
        second.append(Progress(len(indexes), "positions looked at again", sys.stderr))

    began = time.monotonic()
    evals = review_positions(
        start, moves, setting, first.update, lambda position: second[0].update(position),
        on_second_look=on_second_look,
    )  # fmt: skip
    assert evals is not None  # nothing cancels it
    if second[0].total:
        second[0].finish()
    again = second[0].total
    plies = review_plies(start, moves, evals)
    accuracy = review_accuracy(evals, start, moves)
    seconds = time.monotonic() - began
    summary = _summary(accuracy, count_judgements(plies), len(evals), again, seconds)
    print(summary, file=sys.stderr)
    headers = dict(game.headers)
    headers.setdefault("Result", game.result)
    return [reviewed_pgn(headers, start, plies, accuracy).rstrip("\n")]


class Progress:
    """A review's progress on `stream`: a bar redrawn in place on a terminal, otherwise a
    "34/81 positions" line at most once a second (and the last one always)."""

    WIDTH = 30

    def __init__(self, total: int, unit: str, stream: TextIO) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.is_tty = stream.isatty()
        self.last_line = float("-inf")
        self.done = 0

    def update(self, position: PositionEval) -> None:
        self.done += 1
        if self.is_tty:
            filled = self.WIDTH * self.done // self.total
            bar = "#" * filled + "-" * (self.WIDTH - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {self.unit}")
            self.stream.flush()
        elif time.monotonic() - self.last_line >= 1 or self.done == self.total:
            self.last_line = time.monotonic()
            print(f"{self.done}/{self.total} {self.unit}", file=self.stream, flush=True)

    def finish(self) -> None:
        if self.is_tty:
            self.stream.write("\n")


def _summary(
    accuracy: tuple[float | None, float | None],
    counts: dict[str, dict[str, int]],
    positions: int,
    again: int,
    seconds: float,
) -> str:
    """ "White 87.2% (1 inaccuracy, 0 mistakes, 2 blunders); Black ...; 81 positions
    (6 looked at again) in 42.0 s"."""
    sides = []
    for name, value in zip(("White", "Black"), accuracy, strict=True):
        side = counts[name.lower()]
        marks = ", ".join(_plural(n, kind) for kind, n in side.items())
        shown = f"{value:.1f}%" if value is not None else "no move"
        sides.append(f"{name} {shown} ({marks})")
    return f"{'; '.join(sides)}; {positions} positions ({again} looked at again) in {seconds:.1f} s"


def _plural(count: int, word: str) -> str:
    """ "1 blunder", "2 inaccuracies"."""
    if count == 1:
        return f"1 {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("y") else f"{count} {word}s"


if __name__ == "__main__":
    sys.exit(main())
