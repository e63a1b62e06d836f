"""Reading PGN files from elsewhere: every game of a file, with its variations and annotations.

`read_games(text)` reads the exports of lichess (`[%clk]`, `[%eval]`, variations, NAGs),
chess.com (`[%clk]`, `[%timestamp]`) and ChessBase (blank lines inside the movetext) alike, with
or without a UTF-8 byte order mark, with LF or CRLF line ends. Each game is its headers, its
start position and its moves as a tree: a `Node` per move, each with the alternatives to that
move (`variations`, each a line of nodes from the position before it), its comment (the text
outside the `[%...]` commands), its NAGs (`$1`, or a suffix such as `!?`, read as its NAG) and,
when its comment carries them, the clock left after the move and the evaluation. Every move is
played on a board as it is read, so an illegal or ambiguous move is refused; an error names the
line of the file it is on and what was wrong (`InvalidPgnError`).

As forgiving as python-chess where other programs write what is not SAN: a move written from
square to square (`g1f3`, `e7e8q`, `g1-f3`, as some tools write UCI) is read as that move when
it is legal. A null move (`--`, ChessBase's `Z0`, `0000`, `@@@@`, pgn-extract's `null`) cannot
be a node of our trees (no board plays "pass"): the line it is in ends before it, and the rest
of that line, the null move first, is kept as text in the comment of the line's last move (of
the move the variation replaces, when the null move opens a variation; the game's comment when
it opens the main line), so nothing of the file is lost.

(`chesscore.rules.pgn.parse_pgn` is the main line of the first game read here.)
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from chesscore.errors import ChessError, InvalidPgnError
from chesscore.rules.board import Board
from chesscore.rules.move import Move
from chesscore.words import N_, Value, say

TOKEN = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
  | (?P<rest>;[^\n]*)
  | (?P<escape>^%[^\n]*)
  | (?P<tag>\[\s*[A-Za-z0-9_]+\s+"(?:[^"\\\n]|\\.)*"\s*\])
  | (?P<badtag>\[[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>(?:1-0|0-1|1/2-1/2|\*)(?![^\s{}()\[\];]))
  | (?P<number>\d+\.+(?![^\s{}()\[\];]))
  | (?P<word>[^\s{}()\[\];$]+)
  | (?P<junk>\S)
    """,
    re.VERBOSE | re.MULTILINE,
)
TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
COMMAND = re.compile(r"\[%(\w+)\s+([^\]]*)\]")
SUFFIXES = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
SUFFIX = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)$")
CLOCK = re.compile(r"(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)")
NULL_MOVES = frozenset({"--", "Z0", "0000", "@@@@", "null"})
# A move from square to square, as UCI writes it (also with "-" or "x" between the squares).
SQUARE_TO_SQUARE = re.compile(r"([a-h][1-8])[-x]?([a-h][1-8])=?([nbrqNBRQ])?")


@dataclass(frozen=True, slots=True)
class Node:
    """One move of a game or variation, with what the file says about it."""

    move: Move
    san: str  # as chesscore writes it
    comment: str = ""
    nags: tuple[int, ...] = ()
    clock: float | None = None  # seconds left after the move, from [%clk h:mm:ss]
    evaluation: str | None = None  # [%eval ...] as written: "0.17", "#-3"
    variations: tuple[tuple[Node, ...], ...] = ()  # alternatives to this move


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """A game of a PGN file: headers as written, start position, moves, the result token
    that ends its moves ("*" if none does), and where it starts (line)."""

    headers: dict[str, str]
    start_fen: str
    moves: tuple[Node, ...]
    comment: str
    result: str
    line: int

    @property
    def title(self) -> str:
        """ "White - Black (Result)" from the headers, for a list to choose a game from."""
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return f"{white} - {black} ({self.headers.get('Result', self.result)})"


@dataclass
class _Draft:
    """A node while its line is read: its comments, NAGs and variations still grow."""

    move: Move
    san: str
    comments: list[str] = field(default_factory=list)
    nags: list[int] = field(default_factory=list)
    variations: list[tuple[Node, ...]] = field(default_factory=list)

    def freeze(self) -> Node:
        text = " ".join(self.comments)
        commands = dict(COMMAND.findall(text))
        comment = " ".join(COMMAND.sub(" ", text).split())
        return Node(
            self.move,
            self.san,
            comment,
            tuple(self.nags),
            _seconds(commands.get("clk")),
            commands["eval"].strip() if "eval" in commands else None,
            tuple(self.variations),
        )


@dataclass
class _Line:
    """A line being read: the board after its last move, and its moves so far."""

    board: Board
    nodes: list[_Draft] = field(default_factory=list)


@dataclass
class _Skipped:
    """The rest of a line after a null move, kept as text until the line ends."""

    depth: int = 0  # variations opened inside the skipped text and not yet closed
    words: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GameSpan:
    """Where a game of a PGN file is, its headers and how many main-line moves it has, found
    without playing the moves (`scan_games`)."""

    headers: dict[str, str]
    start: int  # offsets into the text (after the byte order mark and line ends are fixed)
    end: int
    line: int  # the line it starts on
    plies: int  # main-line moves
    moves: int  # moves counting the variations'


def normalize_text(text: str) -> str:
    """`text` without a UTF-8 byte order mark, its line ends as LF."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def scan_games(text: str) -> list[GameSpan]:
    """Every game of the (normalized) PGN `text`, found by its tokens alone: a listing of a
    large file costs a regular-expression pass, where reading it plays every move (about a
    tenth of a millisecond each). A game's moves are read later with `read_games` on its
    span (`first_line` keeping the line numbers of the file).

    >>> spans = scan_games('[White "A"]\\n\\n1. e4 e5 (1... c5) 1-0\\n\\n[White "B"]\\n\\n1. d4 *')
    >>> [(span.headers["White"], span.plies, span.line) for span in spans]
    [('A', 2, 1), ('B', 1, 5)]
    """
    spans: list[GameSpan] = []
    headers: dict[str, str] = {}
    start: int | None = None
    depth = plies = moves = 0
    in_moves = ended = False
    counted, line = 0, 1  # lines counted up to offset `counted`, so the file is counted once

    def close(end: int) -> None:
        nonlocal headers, start, depth, plies, moves, in_moves, ended, counted, line
        if start is not None and (headers or in_moves):
            line += text.count("\n", counted, start)
            counted = start
            spans.append(GameSpan(headers, start, end, line, plies, moves))
        headers, start, depth, plies, moves, in_moves, ended = {}, None, 0, 0, 0, False, False

    for match in TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("comment", "rest", "escape", "number", "nag"):
            continue
        if kind == "tag" and in_moves:
            close(match.start())
        if start is None:
            start = match.start()
        if kind == "tag":
            tag = TAG.fullmatch(match.group())
            if tag is not None:
                headers[tag.group(1)] = re.sub(r"\\(.)", r"\1", tag.group(2))
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "result" and depth == 0:
            close(match.end())
        elif kind in ("word", "junk") and match.group() != "e.p.":  # read_games skips "e.p."
            in_moves = True
            # A null move ends the main line (read_games keeps the rest as a comment).
            ended = ended or (depth == 0 and _is_null_move(match.group()))
            plies += depth == 0 and not ended
            moves += 1
    close(len(text))
    return spans


def read_games(
    text: str,
    limit: int | None = None,
    *,
    allow_impossible_checks: bool = False,
    first_line: int = 1,
) -> list[ImportedGame]:
    """Every game of the PGN `text`, or its first `limit` (InvalidPgnError naming the line on
    anything wrong in what is read). `allow_impossible_checks` accepts a FEN tag whose checks no
    game could give, as `Board.from_fen` does (positions composed for analysis).

    >>> games = read_games('[White "A"]\\n\\n1. e4 {[%clk 0:03:00]} e5 (1... c5 $1) 2. Nf3 *')
    >>> [node.san for node in games[0].moves], games[0].moves[0].clock
    (['e4', 'e5', 'Nf3'], 180.0)
    >>> [[node.san for node in line] for line in games[0].moves[1].variations]
    [['c5']]
    """
    if not isinstance(text, str):
        raise InvalidPgnError(N_("PGN must be text, got {kind}"), kind=type(text).__name__)
    games = _Reader(normalize_text(text), limit, allow_impossible_checks, first_line).read()
    if not games:
        raise InvalidPgnError(N_("empty PGN: no game in the PGN, no tags and no moves"))
    return games


class _Reader:
    def __init__(
        self, text: str, limit: int | None, allow_impossible_checks: bool, first_line: int
    ) -> None:
        self.text = text
        self.first_line = first_line
        self.limit = limit
        self.allow_impossible_checks = allow_impossible_checks
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.games: list[ImportedGame] = []
        self._start_game()

    def read(self) -> list[ImportedGame]:
        for match in TOKEN.finditer(self.text):
            if self.limit is not None and len(self.games) >= self.limit:
                return self.games
            kind = match.lastgroup
            assert kind is not None
            if self.skipped is not None and self._skip(kind, match.group()):
                continue
            getattr(self, f"_on_{kind}")(match.group(), self._line_of(match.start()))
        self._end_skip()
        self._end_game(len(self.line_starts) + self.first_line - 1)
        return self.games

    def _line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset) + self.first_line - 1

    def _start_game(self) -> None:
        self.headers: dict[str, str] = {}
        self.comment: list[str] = []
        self.lines: list[_Line] = []
        self.started: int | None = None  # the line of the game's first tag or move
        self.result = "*"
        self.in_moves = False
        self.skipped: _Skipped | None = None

    def _begin(self, line: int) -> None:
        if self.started is None:
            self.started = line

    def _fail(self, line: int, problem: str, **params: Value) -> InvalidPgnError:
        """The error naming `line` and saying the `problem` (a msgid filled from `params`)."""
        said = say(problem, **params)
        return InvalidPgnError(N_("line {line}: {problem}"), line=line, problem=said)

    def _end_game(self, line: int) -> None:
        if len(self.lines) > 1:
            raise self._fail(line, N_("unterminated '(': a variation '(' is not closed"))
        if self.headers or self.lines:  # lines: moves, or a null move that opened them
            root = self._root(line)
            moves = tuple(draft.freeze() for draft in self.lines[0].nodes) if self.lines else ()
            comment = " ".join(COMMAND.sub(" ", " ".join(self.comment)).split())
            start = self.started or line
            game = ImportedGame(dict(self.headers), root.fen(), moves, comment, self.result, start)
            self.games.append(game)
        self._start_game()

    def _root(self, line: int) -> Board:
        fen = self.headers.get("FEN")
        if fen is None:
            return Board()
        try:
            return Board.from_fen(fen, allow_impossible_checks=self.allow_impossible_checks)
        except ChessError as error:
            raise self._fail(
                line,
                N_("invalid FEN tag: the FEN tag {fen} is not a position: {reason}"),
                fen=repr(fen),
                reason=error.message,
            ) from error

    def _current(self, line: int) -> _Line:
        self._begin(line)
        if not self.lines:
            self.lines.append(_Line(self._root(line)))
        self.in_moves = True
        return self.lines[-1]

    # -- tokens -------------------------------------------------------------------------

    def _on_tag(self, token: str, line: int) -> None:
        if self.in_moves:  # a tag after moves starts the next game (its result was left out)
            self._end_game(line)
        self._begin(line)
        match = TAG.fullmatch(token)
        assert match is not None
        self.headers[match.group(1)] = re.sub(r"\\(.)", r"\1", match.group(2))

    def _on_badtag(self, token: str, line: int) -> None:
        raise self._fail(line, N_("malformed tag pair {tag}"), tag=repr(token[:60]))

    def _on_comment(self, token: str, line: int) -> None:
        if not token.endswith("}"):
            raise self._fail(line, N_("unterminated '{': a comment '{' is not closed"))
        body = token[1:-1].strip()
        current = self.lines[-1] if self.lines else None
        if current is not None and current.nodes:
            current.nodes[-1].comments.append(body)
        elif len(self.lines) <= 1:
            self.comment.append(body)  # before the first move: the game's comment

    def _on_rest(self, token: str, line: int) -> None:
        self._on_comment("{" + token[1:] + "}", line)

    def _on_escape(self, token: str, line: int) -> None:
        return None  # "%" lines are for other programs

    def _on_nag(self, token: str, line: int) -> None:
        current = self.lines[-1] if self.lines else None
        if current is None or not current.nodes:
            raise self._fail(line, N_("{nag} annotates no move"), nag=token)
        current.nodes[-1].nags.append(int(token[1:]))

    def _on_number(self, token: str, line: int) -> None:
        return None

    def _on_result(self, token: str, line: int) -> None:
        if len(self.lines) > 1:
            raise self._fail(
                line, N_("unterminated '(': result {result} inside a variation"), result=token
            )
        self.result = token
        self.in_moves = True
        self._end_game(line)

    def _on_open(self, token: str, line: int) -> None:
        current = self._current(line)
        if not current.nodes:
            raise self._fail(line, N_("a variation '(' before any move it could replace"))
        board = current.board.copy()
        board.pop()  # the variation replaces the last move: it starts before it
        self.lines.append(_Line(board))

    def _on_close(self, token: str, line: int) -> None:
        if len(self.lines) < 2:
            raise self._fail(line, N_("')' closes no variation: unbalanced ')'"))
        variation = self.lines.pop()
        if variation.nodes:
            frozen = tuple(draft.freeze() for draft in variation.nodes)
            self.lines[-1].nodes[-1].variations.append(frozen)

    def _on_junk(self, token: str, line: int) -> None:
        self._on_word(token, line)  # refused as a move, in the move's words

    def _on_word(self, token: str, line: int) -> None:
        if token == "e.p.":
            return
        word = re.sub(r"^\d+\.+", "", token)  # a number glued to its move: "12.Nf3"
        suffix = SUFFIX.search(word)
        nags = [SUFFIXES[suffix.group(1)]] if suffix else []
        san = word[: suffix.start()] if suffix else word
        if san == "":
            raise self._fail(line, N_("{move} is not a move chesscore can play"), move=repr(token))
        current = self._current(line)
        if san in NULL_MOVES:
            self.skipped = _Skipped(words=[token])
            return
        board = current.board
        try:
            move = _parse_move(board, san)
        except ChessError as error:
            number = f"{board.fullmove_number}{'.' if board.turn == 0 else '...'}"
            raise self._fail(
                line,
                N_("{number} {move}: {reason}"),
                number=number,
                move=repr(token),
                reason=error.message,
            ) from error
        draft = _Draft(move, board.san(move), nags=nags)
        board.push(move)
        current.nodes.append(draft)

    # -- the rest of a line after a null move ----------------------------------------------

    def _skip(self, kind: str, token: str) -> bool:
        """Keep `token` as text of the skipped line (True), or end the skipped text at the
        token that ends its line (False: the token is then read as usual)."""
        assert self.skipped is not None
        if kind in ("tag", "result") or (kind == "close" and self.skipped.depth == 0):
            self._end_skip()
            return False
        self.skipped.depth += {"open": 1, "close": -1}.get(kind, 0)
        # A comment's braces would end the comment the text is kept in: only its words.
        self.skipped.words.append(token[1:-1].strip() if kind == "comment" else token)
        return True

    def _end_skip(self) -> None:
        """The skipped text into the comment of the line's last move (or, with none, of the
        move the variation replaces, or the game's)."""
        if self.skipped is None:
            return
        text = " ".join(" ".join(self.skipped.words).split())
        text = text.replace("( ", "(").replace(" )", ")")
        self.skipped = None
        line = self.lines[-1]
        if not line.nodes and len(self.lines) > 1:
            line = self.lines[-2]  # the null move opened a variation: the move it replaces
        if line.nodes:
            line.nodes[-1].comments.append(text)
        else:
            self.comment.append(text)


def _is_null_move(token: str) -> bool:
    """Whether a move token (with its number or suffix, as written) is a null move."""
    word = re.sub(r"^\d+\.+", "", token)
    suffix = SUFFIX.search(word)
    return (word[: suffix.start()] if suffix else word) in NULL_MOVES


def _parse_move(board: Board, text: str) -> Move:
    """The move of SAN `text`, or of a move written from square to square (`g1f3`) as other
    tools write it, when no SAN reads so."""
    try:
        return board.parse_san(text)
    except ChessError:
        match = SQUARE_TO_SQUARE.fullmatch(text)
        if match is None:
            raise
        origin, target, promotion = match.groups()
        try:
            return board.parse_uci(origin + target + (promotion or "").lower())
        except ChessError:
            pass
        raise


def _seconds(clock: str | None) -> float | None:
    if clock is None:
        return None
    match = CLOCK.fullmatch(clock.strip())
    if match is None:
        return None
    hours, minutes, seconds = match.groups()
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)
