"""Command line for the rules core: ``python -m chesscore perft|moves|threats|analyse ...``.

``perft FEN DEPTH [--divide]`` prints the leaf-node count as its last line (``--divide`` first
prints ``uci: count`` for every root move); ``moves FEN`` prints each legal move in UCI and SAN;
``threats FEN`` prints the board with, on every square, the number of white and black pieces
attacking it and the piece standing there (``2/1N``, ``.`` for an empty square), then the
checkers, pins and hanging pieces. ``analyse FEN|file.pgn`` runs the engine's multi-PV
analysis (``--depth``, ``--multipv``, ``--movetime``), printing the best line of every finished
depth as it comes, then each line with its rank, its score from White's point of view (``+0.34``,
``#-2``) and its moves in SAN; for a PGN file, the position at the end of the first game's main
line (``--game``, ``--ply`` for another). Bad input (a FEN or PGN that does not parse, a missing
file, a negative depth) is reported on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from chesscore.analysis.threats import make_threat_map
from chesscore.engine.analyse import Analysis, Line, analyse
from chesscore.engine.search import MAX_PLY, SearchLimits
from chesscore.errors import ChessError
from chesscore.rules.board import Board
from chesscore.rules.perft import perft, perft_divide
from chesscore.rules.pgn_import import read_games
from chesscore.rules.squares import square_name

USAGE_ERROR = 2
EXAMPLES = """examples:
  python -m chesscore perft "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 4
  python -m chesscore perft "<FEN>" 3 --divide     (uci: count per root move, then the total)
  python -m chesscore moves "<FEN>"                (each legal move in UCI and SAN)
  python -m chesscore threats "<FEN>"              (white/black attacker counts per square)
  python -m chesscore analyse "<FEN>" --depth 6 --multipv 3   (the engine's best lines)
  python -m chesscore analyse game.pgn --movetime 5 --ply 30 (a game's position after ply 30)"""
DEFAULT_ANALYSIS_DEPTH = 6  # when neither --depth nor --movetime is given: a few seconds
IMPOSSIBLE_NOTICE = "note: this position cannot arise in a game; analysis only"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _make_parser()
    args = parser.parse_args(argv)
    try:
        board = args.load(args)
        lines = args.command(board, args)
        print("\n".join(lines))
    except ChessError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        sys.stderr.close()
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
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ChessError(f"cannot read {str(path)!r}: {reason}") from None
    games = read_games(text, limit=game_number)
    if game_number > len(games):
        raise ChessError(f"{path} holds {len(games)} game(s), not {game_number}")
    game = games[game_number - 1]
    main_line = [node.move for node in game.moves]
    if ply is not None and ply > len(main_line):
        raise ChessError(f"ply {ply} is past the end of the game ({len(main_line)} plies)")
    board = Board.from_fen(game.start_fen)
    for move in main_line[:ply]:
        board.push(move)
    return board


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


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


if __name__ == "__main__":
    sys.exit(main())
