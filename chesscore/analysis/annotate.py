"""PGN export with the threat annotations in the move comments, for any PGN viewer to draw.

After every move a comment carries the facts of the position reached, in the graphical
annotation commands lichess, ChessBase and python-chess read: ``[%csl ...]`` colours squares
and ``[%cal ...]`` draws arrows, each item a colour letter (G green, R red, Y yellow, B blue)
and one or two squares. The colours chosen:

- squares: ``R`` a hanging piece (as in the threat map), ``Y`` a pinned piece (absolute and
  relative pins, chesscore.analysis.xray); a piece both hanging and pinned is red;
- arrows: ``R`` from each checking piece to the king, ``Y`` from a pinner to the piece its pin
  protects (the king or the more valuable piece, through the pinned one), ``G`` from a piece
  that the move made fork to each forked piece (chesscore.analysis.insight).

For example, after 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 comes ``4. Bxc6 { [%csl Yb7,Rc6,Yd7,Re5] [%cal
Yc6a8,Yc6e8] }``. A move that leaves nothing to show gets no comment. The headers are
chesscore.rules.pgn's (seven-tag roster first, SetUp/FEN for a set-up position), plus ``Annotator``
and ``Assisted`` (``"yes"``/``"no"``: whether the players were allowed the threat overlays) when
given. The PGN itself is written by `chesscore.rules.pgn.make_pgn`, which takes one comment per
move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chesscore.analysis.insight import compare_positions
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.xray import find_pins
from chesscore.rules.pgn import make_pgn
from chesscore.rules.squares import in_name_order, square_name

if TYPE_CHECKING:
    from chesscore.analysis.insight import Change
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move


def make_annotated_pgn(
    board: Board,
    headers: dict[str, str] | None = None,
    result: str | None = None,
    *,
    annotator: str | None = None,
    assisted: bool | None = None,
) -> str:
    """The PGN of the game that led to `board`, every move commented with its threat
    annotations; `headers` and `result` as in `chesscore.rules.pgn.make_pgn`.

    >>> from chesscore import Board
    >>> board = Board()
    >>> for san in ["f3", "e5", "g4", "Qh4"]:
    ...     _ = board.push_san(san)
    >>> print(make_annotated_pgn(board, annotator="chesscore", assisted=False))
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "?"]
    [Black "?"]
    [Result "0-1"]
    [Annotator "chesscore"]
    [Assisted "no"]
    <BLANKLINE>
    1. f3 e5 2. g4 Qh4# { [%csl Yh2] [%cal Rh4e1,Yh4h1] } 0-1
    <BLANKLINE>
    """
    extra = dict(headers or {})
    if annotator is not None:
        extra["Annotator"] = annotator
    if assisted is not None:
        extra["Assisted"] = "yes" if assisted else "no"
    return make_pgn(board, extra, result, comments=_annotations(board))


def _annotations(board: Board) -> list[str]:
    """The annotation of the position after each move of `board`'s game, oldest first."""
    replay = board.root()
    threats = make_threat_map(replay)
    comments = []
    for move in board.move_stack:
        after = replay.copy()
        after.push(move)
        after_threats = make_threat_map(after)
        change = compare_positions(replay, move, after, threats, after_threats)
        replay, threats = after, after_threats
        comments.append(make_annotation(replay, threats, change))
    return comments


def annotation_of_move(before: Board, move: Move, after: Board) -> str:
    """The annotation of the position `move` led to from `before` (`after`), with the forks
    the move made: `chesscore.rules.pgn_export` writes it into the move's comment."""
    before_threats, after_threats = make_threat_map(before), make_threat_map(after)
    change = compare_positions(before, move, after, before_threats, after_threats)
    return make_annotation(after, after_threats, change)


def make_annotation(board: Board, threats: ThreatMap, change: Change | None = None) -> str:
    """The ``[%csl ...] [%cal ...]`` text for `board` (empty when there is nothing to show);
    `change` (the last move's, chesscore.analysis.insight) adds its forks."""
    pins = find_pins(board)
    colours = {pin.pinned: "Y" for pin in pins}
    colours.update({sq: "R" for sq in threats.hanging})
    squares = [colours[sq] + square_name(sq) for sq in in_name_order(colours)]
    king = square_name(board.king_square(board.turn))
    arrows = [f"R{square_name(checker)}{king}" for checker in threats.checkers]
    arrows += [f"Y{square_name(pin.pinner)}{square_name(pin.target)}" for pin in pins]
    for fork in change.forks if change else ():
        arrows += [f"G{square_name(fork.origin)}{square_name(target)}" for target in fork.targets]
    parts = []
    if squares:
        parts.append(f"[%csl {','.join(squares)}]")
    if arrows:
        parts.append(f"[%cal {','.join(arrows)}]")
    return " ".join(parts)
