"""What a solver had to see at a step of a puzzle: the threat overlay and a sentence.

`make_lesson(puzzle, step)` takes the position where the solver's `step`-th move (from 0) is
due and gives the page what a hint and a failed puzzle show: the threat map of that position
in the overlay's wire form (server.threats.wire, as the trainer's verdict carries it), the
square of the piece to move (the second hint) and a sentence about the solution's move read off
chesscore's analysis: the forks it makes (chesscore.analysis.insight), the undefended or cheaper
piece it takes (the threat map's hanging pieces), the mate or check it gives, and the puzzle's
themes (chesscore.puzzles) when nothing of those is seen, e.g. "Nf5 forks the king on g7 and
the queen on d6." Each fact is a whole sentence of the `messages` catalog with named
placeholders, said through a `Translator` (chesscore.words; the server hands the
request's catalog), so every language orders its own words; a fork names its first two targets.
Squares are named here, at the edge, as everywhere in the server.
"""

from __future__ import annotations

from typing import Any

from chesscore import Board, Move, square_name
from chesscore.analysis.describe import PIECE_NAMES
from chesscore.analysis.insight import describe_change
from chesscore.analysis.threats import ThreatMap
from chesscore.puzzles import THEMES
from chesscore.puzzles.verify import material_balance
from chesscore.rules.squares import COLOR_NAMES, KING, PAWN
from chesscore.training import PositionFacts
from chesscore.training.drills import PIECE_WORDS
from chesscore.words import ENGLISH, N_, Translator
from server.puzzles.tables import StoredPuzzle
from server.shared.errors import RequestError
from server.threats.cache import checked_king
from server.threats.wire import pin_lines_json, square_or_none, threats_json, xrays_json

# The sentences naming one or two pieces a move forks, uncovers an attack on or attacks.
FORKS_ONE = N_("{move} forks the {piece1} on {square1}.")
FORKS_TWO = N_("{move} forks the {piece1} on {square1} and the {piece2} on {square2}.")
UNCOVERS = N_("{move} uncovers an attack on the {piece1} on {square1}.")
ATTACKS_ONE = N_("{move} attacks the {piece1} on {square1}.")
ATTACKS_TWO = N_("{move} attacks the {piece1} on {square1} and the {piece2} on {square2}.")

# Themes that say what kind of tactic the solution is, in the order a sentence names them.
TACTICS = (
    "backRankMate", "fork", "pin", "skewer", "discoveredAttack", "doubleCheck", "deflection",
    "trappedPiece", "hangingPiece", "exchangeSacrifice", "sacrifice", "promotion",
)  # fmt: skip


def position_at(puzzle: StoredPuzzle, step: int) -> tuple[Board, Move]:
    """The board where the solver's move number `step` (from 0) is due, and that move;
    `bad_request` for a step the line has not."""
    solver_moves = len(puzzle.moves) // 2
    if not 0 <= step < solver_moves:
        raise RequestError(
            "bad_request", f"'step' must be 0 to {solver_moves - 1} for this puzzle, got {step}"
        )
    board = Board.from_fen(puzzle.fen)
    for uci in puzzle.moves[: 2 * step + 1]:
        board.push_uci(uci)
    return board, board.parse_uci(puzzle.moves[2 * step + 1])


def make_lesson(puzzle: StoredPuzzle, step: int, words: Translator = ENGLISH) -> dict[str, Any]:
    """`{"step", "fen", "turn", "check", "dests", "sans", "pieces", "piece", "move", "san",
    "sentence", "overlay", "line"}` for the step: `dests` the legal moves there and `sans`
    each one's SAN -> UCI (the page knows no rules: a move typed is looked up there),
    `pieces` what stands on each square (for the squares' words to a screen reader), `line`
    every position of the puzzle's line (`make_line`), for the page to play it on."""
    board, move = position_at(puzzle, step)
    facts = PositionFacts(board.fen())
    threats = facts.threats
    return {
        "step": step,
        "fen": board.fen(),
        "turn": COLOR_NAMES[board.turn],
        "check": board.is_check(),
        "dests": board.destinations(),
        "sans": {board.san(legal): legal.uci() for legal in board.legal_moves()},
        "pieces": {
            square_name(sq): f"{COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]}"
            for sq, piece in board.pieces().items()
        },
        "line": make_line(puzzle),
        "piece": square_name(move.from_square),
        "move": move.uci(),
        "san": board.san(move),
        "sentence": solution_sentence(board, move, puzzle.themes, threats, words)
        + line_outcome(puzzle, step, words),
        "overlay": {
            "threats": threats_json(threats),
            "xrays": xrays_json(facts.xrays),
            "pins": pin_lines_json(facts.pins),
            "checked_king": square_or_none(checked_king(board, board.turn, threats.checkers)),
        },
    }


def make_line(puzzle: StoredPuzzle) -> list[dict[str, Any]]:
    """The positions after each move of the line: `{"uci", "san", "fen", "check"}`, the
    setting-up move's first."""
    board = Board.from_fen(puzzle.fen)
    line = []
    for uci in puzzle.moves:
        move = board.parse_uci(uci)
        san = board.san(move)
        board.push(move)
        line.append({"uci": uci, "san": san, "fen": board.fen(), "check": board.is_check()})
    return line


def _piece_word(board: Board, sq: int, words: Translator) -> str:
    piece = board.piece_at(sq)
    assert piece is not None  # the caller names squares that hold a piece
    return words.gettext(PIECE_WORDS[piece.piece_type])


def _one_or_two(
    board: Board, squares: list[int], words: Translator, one: str, two: str, san: str
) -> str:
    """`one` naming the piece on the first square, or `two` naming the first two."""
    named: dict[str, str] = {"move": san}
    for index, sq in enumerate(squares[:2]):
        named |= {
            f"piece{index + 1}": _piece_word(board, sq, words),
            f"square{index + 1}": square_name(sq),
        }
    return _say(words, one if len(squares) == 1 else two, **named)


def _say(words: Translator, message: str, **values: object) -> str:
    return words.gettext(message).format(**values)


def solution_sentence(
    board: Board,
    move: Move,
    themes: tuple[str, ...],
    threats: ThreatMap,
    words: Translator = ENGLISH,
) -> str:
    """The solution's move in whole sentences (module docstring), each a message of the
    catalog said through `words`; `threats`: the threat map of `board`."""
    san = board.san(move)
    after = board.copy()
    after.push(move)
    if after.is_checkmate():
        return _say(words, N_("{move} is checkmate."), move=san)
    change = describe_change(board, move, threats)
    said = []
    captured = board.piece_at(move.to_square)
    if captured is not None:
        said.append(_taking(board, move, threats, words))
    forks = [fork for fork in change.forks if fork.origin == move.to_square]
    if forks:
        said.append(_one_or_two(after, list(forks[0].targets), words, FORKS_ONE, FORKS_TWO, san))
    uncovered = [a.target for a in change.discovered if _kind(after, a.target) != PAWN]
    if uncovered:
        said.append(_one_or_two(after, uncovered[:1], words, UNCOVERS, UNCOVERS, san))
    if after.is_check() and not said:
        said.append(_say(words, N_("{move} gives check."), move=san))
    attacked = [  # pieces, not pawns, and not the king ("check" says it)
        a.target
        for a in change.new_attacks
        if a.color == board.turn
        and a.origin == move.to_square
        and _kind(after, a.target) not in (PAWN, KING)
    ]
    if attacked and not forks and captured is None:
        said.append(_one_or_two(after, attacked, words, ATTACKS_ONE, ATTACKS_TWO, san))
    if not said:
        said.append(_say(words, N_("{move} starts the winning line."), move=san))
    named = [words.gettext(THEMES[key]) for key in TACTICS if key in themes]
    if named:
        said.append(_say(words, N_("The idea: {themes}."), themes=", ".join(named)))
    return " ".join(said)


def line_outcome(puzzle: StoredPuzzle, step: int, words: Translator = ENGLISH) -> str:
    """What the line from `step` on comes to, as a sentence after the first: " The line mates
    in 2." or " By its end you are 3 pawns of material up." ("" when it is the move
    itself: a mate in one, or a one-move line whose first sentence said the capture)."""
    board, _ = position_at(puzzle, step)
    solver = board.turn
    start = material_balance(board, solver)
    for uci in puzzle.moves[2 * step + 1 :]:
        board.push_uci(uci)
    left = (len(puzzle.moves) - 2 * step) // 2
    if board.is_checkmate():
        if left == 1:
            return ""
        # English says "mates in 3" with no noun; other languages count their moves.
        mates = words.ngettext("The line mates in {n}.", "The line mates in {n}.", left)
        return " " + mates.format(n=left)
    gain = material_balance(board, solver) - start
    if left == 1 or gain <= 0:
        return ""
    up = words.ngettext(
        "By its end you are {n} pawn of material up.",
        "By its end you are {n} pawns of material up.",
        gain,
    )
    return " " + up.format(n=gain)


def _kind(board: Board, sq: int) -> int:
    piece = board.piece_at(sq)
    return 0 if piece is None else piece.piece_type


def _taking(board: Board, move: Move, threats: ThreatMap, words: Translator) -> str:
    """ "Rxd1 takes the rook on d1, which was undefended." (or worth more than the piece
    taking it, as the threat map's hanging pieces are), or only what it takes."""
    sq = move.to_square
    named = {
        "move": board.san(move),
        "piece": _piece_word(board, sq, words),
        "square": square_name(sq),
    }
    if sq not in threats.hanging:
        return _say(words, N_("{move} takes the {piece} on {square}."), **named)
    if not threats.attackers[board.turn ^ 1][sq]:
        return _say(
            words, N_("{move} takes the {piece} on {square}, which was undefended."), **named
        )
    return _say(
        words,
        N_("{move} takes the {piece} on {square}, which was worth more than the piece taking it."),
        **named,
    )
