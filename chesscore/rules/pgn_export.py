"""Writing a move tree as PGN: the pair of `chesscore.rules.pgn_import.read_games`.

`make_tree_pgn(game)` writes an `ImportedGame` (headers, start position, the moves as a tree of
`Node`s) with everything the import reads back: variations in parentheses after the move they
replace, comments in braces, NAGs as ``$n``, the clock as ``[%clk h:mm:ss]`` and the evaluation
as ``[%eval 0.34]`` / ``[%eval #-3]`` inside the move's comment, as lichess writes them. So
``read_games(make_tree_pgn(game))[0]`` is `game` again (the headers' seven-tag roster filled in).
`annotate`, when given, adds a text to every move's comment from the position before the move,
the move and the position after it (`chesscore.analysis.annotate.annotation_of_move` writes the
threat annotations ``[%csl ...]``/``[%cal ...]``); rules know nothing of the analysis, so it is
passed in.

`make_line_pgn` writes a main line from the SAN of its moves (`LineMove`), without playing it:
the export of many stored games, whose SAN was written when they were played.

Variations are written by recursion, one level per variation inside a variation; callers that
take trees from outside bound that nesting (`variation_depth`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.pgn import RESULTS, escape_tag, make_tags, wrap_tokens
from chesscore.rules.pgn_import import ImportedGame, Node
from chesscore.rules.squares import WHITE

Annotate = Callable[[Board, Move, Board], str]
# Written from the start position itself, never copied from the headers.
SET_UP = ("SetUp", "FEN")


def make_tree_pgn(game: ImportedGame, annotate: Annotate | None = None) -> str:
    """The PGN text of `game` with all its variations, comments, NAGs, clocks and evaluations.

    >>> from chesscore.rules.pgn_import import read_games
    >>> text = '1. e4 { [%eval 0.3] } e5 (1... c5 $1 { Sicilian }) 2. Nf3 *'
    >>> print(make_tree_pgn(read_games(text)[0]).splitlines()[-1])
    1. e4 { [%eval 0.3] } 1... e5 (1... c5 $1 { Sicilian }) 2. Nf3 *
    """
    result = game.result if game.result in RESULTS else "*"
    headers = {name: value for name, value in game.headers.items() if name not in SET_UP}
    tags = make_tags(headers, game.start_fen, result)
    lines = [f'[{name} "{escape_tag(value)}"]' for name, value in tags.items()]
    tokens = [f"{{ {_clean(game.comment)} }}"] if game.comment.strip() else []
    board = Board.from_fen(game.start_fen, allow_impossible_checks=True)
    _line_tokens(board, game.moves, tokens, annotate)
    tokens.append(result)
    return "\n".join([*lines, "", *wrap_tokens(tokens)]) + "\n"


@dataclass(frozen=True, slots=True)
class LineMove:
    """A move of a main line as stored: its SAN, the clock after it in seconds and the
    evaluation after it as ``[%eval]`` writes it (None: none)."""

    san: str
    clock: float | None = None
    evaluation: str | None = None


def make_line_pgn(
    headers: dict[str, str], start_fen: str, moves: Sequence[LineMove], result: str
) -> str:
    """The PGN text of a main line written from its moves' SAN as given, without playing them:
    for games whose SAN chesscore wrote when they were played (the export of many stored
    games, where replaying each would cost several times the writing). Clocks and evaluations
    are written as `make_tree_pgn` writes them, which gives the same text for the same game.

    >>> from chesscore.rules.pgn import START_FEN
    >>> text = make_line_pgn({}, START_FEN, [LineMove("e4", 180.0), LineMove("e5")], "*")
    >>> text.splitlines()[-1]
    '1. e4 { [%clk 0:03:00] } 1... e5 *'
    """
    result = result if result in RESULTS else "*"
    plain = {name: value for name, value in headers.items() if name not in SET_UP}
    tags = make_tags(plain, start_fen, result)
    lines = [f'[{name} "{escape_tag(value)}"]' for name, value in tags.items()]
    tokens: list[str] = []
    # The FEN's side to move and move number (written by chesscore, so well formed), without
    # building a board for them.
    fields = start_fen.split()
    first = 0 if fields[1] == "w" else 1
    fullmove = int(fields[5]) if len(fields) > 5 else 1
    numbered = False
    for index, move in enumerate(moves):
        ply = first + index
        if ply % 2 == 0:
            tokens.append(f"{fullmove + ply // 2}.")
        elif not numbered:
            tokens.append(f"{fullmove + ply // 2}...")
        numbered = True
        tokens.append(move.san)
        comment = _comment_text("", move.evaluation, move.clock, "")
        if comment:
            tokens.append(f"{{ {comment} }}")
            numbered = False
    tokens.append(result)
    return "\n".join([*lines, "", *wrap_tokens(tokens)]) + "\n"


def variation_depth(moves: tuple[Node, ...]) -> int:
    """How deep variations nest in `moves` (0 for a line without any), counted without
    recursion, so a hostile tree cannot exhaust the stack before it is refused."""
    deepest = 0
    stack = [(moves, 0)]
    while stack:
        line, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((variation, depth + 1) for node in line for variation in node.variations)
    return deepest


def format_clock(seconds: float) -> str:
    """``h:mm:ss`` as ``[%clk]`` writes it, tenths kept when the clock has them.

    >>> format_clock(180), format_clock(59.9)
    ('0:03:00', '0:00:59.9')
    """
    tenths = round(seconds * 10)
    whole, fraction = divmod(tenths, 10)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{text}.{fraction}" if fraction else text


def _line_tokens(
    board: Board, line: tuple[Node, ...], tokens: list[str], annotate: Annotate | None
) -> None:
    """Append the tokens of `line`, played from `board` (left as it was)."""
    numbered = False  # whether the next Black move needs "N..." (start, comment, variation)
    played = 0
    for node in line:
        if board.turn == WHITE:
            tokens.append(f"{board.fullmove_number}.")
        elif not numbered:
            tokens.append(f"{board.fullmove_number}...")
        numbered = True
        before = board.copy() if annotate is not None or node.variations else None
        tokens.append(board.san(node.move))
        tokens.extend(f"${nag}" for nag in node.nags)
        board.push(node.move)
        played += 1
        comment = _comment(node, annotate(before, node.move, board) if annotate and before else "")
        if comment:
            tokens.append(f"{{ {comment} }}")
            numbered = False
        for variation in node.variations:
            assert before is not None
            start = len(tokens)
            _line_tokens(before.copy(), variation, tokens, annotate)
            tokens[start] = "(" + tokens[start]
            tokens[-1] += ")"
            numbered = False
    for _ in range(played):
        board.pop()


def _comment(node: Node, annotation: str) -> str:
    return _comment_text(node.comment, node.evaluation, node.clock, annotation)


def _comment_text(
    comment: str, evaluation: str | None, clock: float | None, annotation: str
) -> str:
    """A move's comment: its text, then ``[%eval]``, ``[%clk]`` and the annotation."""
    parts = [_clean(comment)] if comment.strip() else []
    if evaluation is not None:
        parts.append(f"[%eval {evaluation}]")
    if clock is not None:
        parts.append(f"[%clk {format_clock(clock)}]")
    if annotation:
        parts.append(annotation)
    return " ".join(parts)


def _clean(comment: str) -> str:
    """A comment as PGN can hold it: a '}' would end it early, so it becomes ')'."""
    return " ".join(comment.replace("}", ")").split())
