"""PGN (Portable Game Notation): `make_pgn` writes a game, `parse_pgn` reads one.

Export writes the seven-tag roster (Event, Site, Date, Round, White, Black, Result) first, in
that order, then ``SetUp "1"`` and ``FEN`` when the game did not start from the standard
position, then any other tags; the movetext is SAN with move numbers, wrapped at 80 columns,
and ends with the result token; `comments`, one per move (None or empty for none), are
written as ``{ ... }`` after their moves. Import reads the tag pairs and the main line's SAN
moves of the first game in the text, through chesscore.rules.pgn_import (which reads whole
files, variations and annotations included). Anything it cannot read raises `InvalidPgnError`,
naming the line and the first bad or illegal move with its move number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from chesscore.errors import InvalidPgnError
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.rules.pgn_import import read_games
from chesscore.rules.squares import WHITE

SEVEN_TAG_ROSTER = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
LINE_WIDTH = 80

TAG_NAME_PATTERN = re.compile(r"[A-Za-z0-9_]+")


@dataclass
class Game:
    """A game read from PGN: its tags, the board with every move pushed, and the moves."""

    headers: dict[str, str] = field(default_factory=dict)
    board: Board = field(default_factory=Board)
    moves: list[Move] = field(default_factory=list)


def make_pgn(
    board: Board,
    headers: dict[str, str] | None = None,
    result: str | None = None,
    comments: Sequence[str | None] | None = None,
) -> str:
    """The PGN of the game that led to `board` (its root position and `move_stack`).

    The result is `result` if given, else the ``Result`` header, else the board's outcome
    (``*`` while the game goes on). `comments`, if given, holds one entry per move played:
    the text of the comment written after that move, or None (or "") for none; a comment
    may not contain ``}``, which would end it early.

    >>> board = Board()
    >>> _, _ = board.push_san("e4"), board.push_san("e5")
    >>> make_pgn(board, comments=[None, "symmetric"]).splitlines()[-1]
    '1. e4 e5 { symmetric } *'
    """
    root = board.root()
    moves = board.move_stack
    tags = _make_tags(board, root, headers or {}, result)
    lines = [f'[{name} "{escape_tag(value)}"]' for name, value in tags.items()]
    notes = _checked_comments(comments, len(moves))
    movetext = wrap_tokens([*_movetext_tokens(root, moves, notes), tags["Result"]])
    return "\n".join([*lines, "", *movetext]) + "\n"


def _checked_comments(comments: Sequence[str | None] | None, count: int) -> list[str | None]:
    """The comments to write, one per move; InvalidPgnError naming what is wrong otherwise."""
    if comments is None:
        return [None] * count
    notes = list(comments)
    if len(notes) != count:
        raise InvalidPgnError(f"{len(notes)} comments given for {count} moves")
    for note in notes:
        if note is not None and (not isinstance(note, str) or "}" in note):
            raise InvalidPgnError(f"invalid comment {note!r}: text without '}}' expected")
    return notes


def _make_tags(
    board: Board, root: Board, headers: dict[str, str], result: str | None
) -> dict[str, str]:
    if result is None and "Result" not in headers:
        outcome = board.outcome()
        result = outcome.result() if outcome else "*"
    return make_tags(headers, root.fen(), result)


def make_tags(headers: dict[str, str], root_fen: str, result: str | None) -> dict[str, str]:
    """The tag pairs to write: the seven-tag roster first (`result`, when given, in place of
    the ``Result`` header), ``SetUp`` and ``FEN`` for a set-up position, then the others."""
    for name in headers:
        if not isinstance(name, str) or TAG_NAME_PATTERN.fullmatch(name) is None:
            raise InvalidPgnError(f"invalid tag name {name!r}: letters, digits and _ only")
    tags = {name: headers.get(name, default) for name, default in SEVEN_TAG_ROSTER.items()}
    if result is not None:
        tags["Result"] = result
    if tags["Result"] not in RESULTS:
        raise InvalidPgnError(f"invalid result {tags['Result']!r}; expected one of {RESULTS}")
    if root_fen != START_FEN:
        tags["SetUp"] = "1"
        tags["FEN"] = root_fen
    for name, value in headers.items():
        tags.setdefault(name, value)
    return tags


def escape_tag(value: str) -> str:
    """A tag value as a PGN tag pair holds it (one line, quotes and backslashes escaped)."""
    # A tag pair is one line: line breaks in a value become spaces.
    flat = " ".join(str(value).splitlines())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def _movetext_tokens(root: Board, moves: list[Move], comments: list[str | None]) -> list[str]:
    replay = root.copy()
    tokens = []
    for index, move in enumerate(moves):
        if replay.turn == WHITE:
            tokens.append(f"{replay.fullmove_number}.")
        elif index == 0:
            tokens.append(f"{replay.fullmove_number}...")
        tokens.append(replay.san(move))
        replay.push(move)
        if comments[index]:
            tokens.append(f"{{ {comments[index]} }}")
    return tokens


def wrap_tokens(tokens: list[str]) -> list[str]:
    """Movetext tokens as lines of at most LINE_WIDTH columns."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > LINE_WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


def parse_pgn(text: str) -> Game:
    """The main line of the first game in the PGN `text`, its moves pushed on a board
    (chesscore.rules.pgn_import reads the file; InvalidPgnError naming the line on junk).

    >>> game = parse_pgn('[White "Anna"]\\n\\n1. e4 {best} e5 (1... c5) 2. Nf3 $1 *')
    >>> game.headers["White"], [move.uci() for move in game.moves]
    ('Anna', ['e2e4', 'e7e5', 'g1f3'])
    """
    first = read_games(text, limit=1)[0]
    game = Game(headers=first.headers, board=Board.from_fen(first.start_fen))
    for node in first.moves:
        game.board.push(node.move)
        game.moves.append(node.move)
    return game
