"""Command line for the rules core: ``python -m chesscore perft|moves|threats FEN ...``.

``perft FEN DEPTH [--divide]`` prints the leaf-node count as its last line (``--divide`` first
prints ``uci: count`` for every root move); ``moves FEN`` prints each legal move in UCI and SAN;
``threats FEN`` prints the board with, on every square, the number of white and black pieces
attacking it and the piece standing there (``2/1N``, ``.`` for an empty square), then the
checkers, pins and hanging pieces. Bad input (a FEN that does not parse, a negative depth) is
reported on stderr with exit code 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from chesscore.analysis.threats import make_threat_map
from chesscore.errors import ChessError
from chesscore.rules.board import Board
from chesscore.rules.perft import perft, perft_divide
from chesscore.rules.squares import square_name

USAGE_ERROR = 2
EXAMPLES = """examples:
  python -m chesscore perft "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 4
  python -m chesscore perft "<FEN>" 3 --divide     (uci: count per root move, then the total)
  python -m chesscore moves "<FEN>"                (each legal move in UCI and SAN)
  python -m chesscore threats "<FEN>"              (white/black attacker counts per square)"""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = _make_parser()
    args = parser.parse_args(argv)
    try:
        board = Board.from_fen(args.fen)
        lines = args.command(board, args)
    except ChessError as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    try:
        print("\n".join(lines))
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
    return parser


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"depth must be a whole number >= 0, got {text!r}")
    return int(text)


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


if __name__ == "__main__":
    sys.exit(main())
