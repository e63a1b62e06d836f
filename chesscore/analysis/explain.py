"""Why a move was bad, in one or two sentences built from the threat analysis' facts.

`explain_move(board, played, judgement, ...)` says what went wrong with the legal move `played`
in `board` and what was better, for example "Nd5?? leaves the queen on e7 attacked by the
bishop on g5 and defended by nothing: Bxe7 wins it. Better was Qd7 (+0.4)." Nothing here
searches: the engine's findings come in as plain inputs, the best line from `board` and its
evaluation, and the opponent's best line after `played` and the evaluation after it (both from
White's view, chesscore.analysis.judgement). The first sentence names the first of these that
the position shows (each checked on the board, never assumed):

- *mate allowed*: the evaluation after the move is a mate against the mover ("allows mate in 2");
- *losing capture*: the move captures, and the exchange it starts loses material (SEE < 0);
- *hanging*: a piece of the mover is hanging after the move (chesscore.analysis.threats) and the
  reply takes it, winning material by static exchange (chesscore.analysis.see); without a reply
  line, the best capture by exchange value does;
- *fork allowed*: the reply forks two or more pieces (chesscore.analysis.insight);
- *discovered attack allowed*: the reply opens a line of another piece onto a piece of the mover;
- *pin walked into*: the move or the reply makes a pin of a piece of the mover
  (chesscore.analysis.xray);

and, when none holds, the move's class ("Kf1? is a mistake."). The second sentence names the
best move, and what it did, first of: a mate it starts (*mate missed*), a piece it takes that
nothing can take back (*free piece not taken*), a fork it makes (*fork missed*), a pin it makes
(*pin missed*); then its evaluation ("+0.4", "#3").

The result is a value: the text, its kinds, the squares of the pieces it names and its arrows
(a move it names, an attack, a defence, a pin line; for an overlay to show exactly those: the
move played is not among them, the board shows it as the last move), and every fact it states
as data (a piece standing on a square in a given
position, an attack, a pin, a square nothing attacks), so that a test can check each against
another chess library. Squares are 0x88 ints, positions FEN strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from chesscore.analysis.insight import Change, Fork, compare_positions
from chesscore.analysis.see import SEE_VALUES, exchange_on_target
from chesscore.analysis.threats import make_threat_map
from chesscore.analysis.values import PIECE_VALUES
from chesscore.errors import IllegalMoveError
from chesscore.rules.move import Move
from chesscore.rules.squares import NAME_ORDER, Color, square_name

if TYPE_CHECKING:
    from chesscore.analysis.judgement import Evaluation, Judgement
    from chesscore.analysis.threats import ThreatMap
    from chesscore.rules.board import Board

PIECE_WORDS = ("", "pawn", "knight", "bishop", "rook", "queen", "king")


class Role(StrEnum):
    """What an arrow of an explanation shows."""

    MOVE = "move"  # a move the text names: the reply, the best move
    ATTACK = "attack"  # an attack on a piece the text names
    DEFENCE = "defence"  # a defence of a piece the text names
    PIN = "pin"  # a pin line, from the pinner to the piece behind the pinned one


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow from `origin` to `target` (squares), showing a `role`."""

    origin: int
    target: int
    role: Role


class Kind(StrEnum):
    """What an explanation says went wrong, or what the better move did."""

    MATE_ALLOWED = "mate_allowed"
    STALEMATE = "stalemate"
    HANGING = "hanging"
    LOSING_CAPTURE = "losing_capture"
    FORK_ALLOWED = "fork_allowed"
    DISCOVERED_ATTACK_ALLOWED = "discovered_attack_allowed"
    PIN_ALLOWED = "pin_allowed"
    MATE_MISSED = "mate_missed"
    FREE_PIECE_MISSED = "free_piece_missed"
    FORK_MISSED = "fork_missed"
    PIN_MISSED = "pin_missed"


@dataclass(frozen=True, slots=True)
class PieceFact:
    """The text names the piece on `square` of `fen`: "the queen on e7"."""

    fen: str
    square: int
    color: Color
    piece: int


@dataclass(frozen=True, slots=True)
class AttackFact:
    """In `fen`, the piece on `origin` attacks (or, of its own colour, defends) `target`."""

    fen: str
    origin: int
    target: int


@dataclass(frozen=True, slots=True)
class PinFact:
    """In `fen`, the piece on `pinner` pins the one on `pinned` to the one on `target`."""

    fen: str
    pinner: int
    pinned: int
    target: int


@dataclass(frozen=True, slots=True)
class NoAttackerFact:
    """In `fen`, no piece of `color` attacks `square` ("defended by nothing")."""

    fen: str
    square: int
    color: Color


@dataclass(slots=True)
class _Facts:
    """What a clause names, gathered while it is written."""

    kinds: list[Kind] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    pieces: list[PieceFact] = field(default_factory=list)
    attacks: list[AttackFact] = field(default_factory=list)
    pins: list[PinFact] = field(default_factory=list)
    unattacked: list[NoAttackerFact] = field(default_factory=list)

    def piece(self, board: Board, sq: int) -> str:
        """ "the queen on e7", entered as a fact of `board`."""
        code = board.board[sq]
        self.pieces.append(PieceFact(board.fen(), sq, code >> 3, code & 7))
        return f"the {PIECE_WORDS[code & 7]} on {square_name(sq)}"

    def move(self, move: Move) -> None:
        """An arrow for a move the text names."""
        self.arrows.append(Arrow(move.from_square, move.to_square, Role.MOVE))

    def group(self, board: Board, squares: Iterable[int], target: int) -> str:
        """The pieces on `squares`, each attacking `target` in `board`, cheapest first."""
        cells = board.board
        ordered = sorted(squares, key=lambda sq: (PIECE_VALUES[cells[sq] & 7], NAME_ORDER[sq]))
        words = [self.piece(board, sq) for sq in ordered]
        self.attacks += [AttackFact(board.fen(), sq, target) for sq in ordered]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a move was bad (see the module docstring): the text, its kinds (what went wrong
    first, then what the better move did), the squares of the pieces it names and the squares
    it points at, its arrows, and the facts it states (for checking, not for showing)."""

    text: str
    kinds: tuple[Kind, ...]
    squares: tuple[int, ...]
    arrows: tuple[Arrow, ...]
    pieces: tuple[PieceFact, ...]
    attacks: tuple[AttackFact, ...]
    pins: tuple[PinFact, ...]
    unattacked: tuple[NoAttackerFact, ...]


@dataclass(frozen=True, slots=True)
class _Situation:
    """What every clause reads: the position before the move and after it, the move in SAN,
    the first moves of the two lines."""

    board: Board
    played: Move
    san: str
    mover: Color
    after: Board
    before_map: ThreatMap
    after_map: ThreatMap
    change: Change
    reply: Move | None
    best: Move | None
    # The positions after the reply and after the best move, and what those moves changed.
    after_reply: tuple[Board, Change] | None
    after_best: tuple[Board, Change] | None


def explain_move(
    board: Board,
    played: Move,
    judgement: Judgement,
    best_line: Sequence[Move] = (),
    best_eval: Evaluation | None = None,
    reply_line: Sequence[Move] = (),
    played_eval: Evaluation | None = None,
) -> Explanation:
    """Why the legal `played` of `board` is a `judgement` (the module docstring): `best_line`
    is the engine's line from `board` (best move first) and `best_eval` its evaluation,
    `reply_line` the opponent's best line after `played` and `played_eval` the evaluation
    after it. IllegalMoveError when a move of either line is not legal where it is played.

    >>> from chesscore import Board
    >>> from chesscore.analysis.judgement import Evaluation, Judgement
    >>> board = Board.from_fen("7k/4q3/8/6B1/8/8/2N5/K7 w - - 0 1")
    >>> after = board.copy(); _ = after.push_san("Nd4")
    >>> explanation = explain_move(
    ...     board, board.parse_san("Nd4"), Judgement.BLUNDER,
    ...     [board.parse_san("Bxe7")], Evaluation(cp=880), [after.parse_san("Qxg5")])
    >>> print(explanation.text)  # doctest: +NORMALIZE_WHITESPACE
    Nd4?? leaves the bishop on g5 attacked by the queen on e7 and defended by nothing: Qxg5
    wins it. Better was Bxe7, taking the queen on e7 for nothing (+8.8).
    >>> [kind.value for kind in explanation.kinds]
    ['hanging', 'free_piece_missed']
    """
    situation = _situation(board, played, best_line, reply_line)
    facts = _Facts()
    first = _first_sentence(situation, judgement, played_eval, facts)
    second = _second_sentence(situation, best_eval, played_eval, facts)
    text = f"{first}." + (f" {second}." if second else "")
    return Explanation(
        text,
        tuple(facts.kinds),
        tuple(dict.fromkeys([*facts.squares, *(piece.square for piece in facts.pieces)])),
        tuple(dict.fromkeys(facts.arrows)),
        tuple(facts.pieces),
        tuple(facts.attacks),
        tuple(facts.pins),
        tuple(facts.unattacked),
    )


def _situation(
    board: Board, played: Move, best_line: Sequence[Move], reply_line: Sequence[Move]
) -> _Situation:
    _check_line(board, [played])
    _check_line(board, best_line)
    after = board.copy()
    after.push(played)
    _check_line(after, reply_line)
    before_map, after_map = make_threat_map(board), make_threat_map(after)
    change = compare_positions(board, played, after, before_map, after_map)
    best = best_line[0] if best_line else None
    reply = reply_line[0] if reply_line else None
    return _Situation(
        board,
        played,
        board.san(played),
        board.turn,
        after,
        before_map,
        after_map,
        change,
        reply,
        best,
        _change_of(after, reply, after_map) if reply is not None else None,
        _change_of(board, best, before_map) if best is not None else None,
    )


def _check_line(board: Board, line: Sequence[Move]) -> None:
    """IllegalMoveError naming the first move of `line` that is not legal where it is played."""
    replay = board.copy()
    for move in line:
        if not replay.is_legal(move):
            text = move.uci() if isinstance(move, Move) else repr(move)
            raise IllegalMoveError(f"illegal move {text} in position {replay.fen()!r}")
        replay.push(move)


def _change_of(board: Board, move: Move, threats: ThreatMap) -> tuple[Board, Change]:
    """The position after the legal `move` of `board` (whose threat map is `threats`) and
    what the move changed."""
    after = board.copy()
    after.push(move)
    return after, compare_positions(board, move, after, threats, make_threat_map(after))


# -- the first sentence: what the move did wrong --------------------------------------------


def _first_sentence(
    s: _Situation, judgement: Judgement, played_eval: Evaluation | None, facts: _Facts
) -> str:
    head = f"{s.san}{judgement.symbol}"
    for clause in (
        _stalemate,
        _mate_allowed,
        _losing_capture,
        _hanging,
        _fork_allowed,
        _discovered,
        _pin,
    ):
        text = clause(s, played_eval, facts)
        if text:
            return f"{head} {text}"
    article = "an" if judgement.label[0] in "AEIOU" else "a"
    return f"{head} is {article} {judgement.label.lower()}"


def _stalemate(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    """The move leaves the opponent no legal move and no check: the game is drawn at once."""
    after = s.after
    if after.generate_legal() or after.is_check():
        return ""
    king = after.king_square(s.mover ^ 1)
    facts.kinds.append(Kind.STALEMATE)
    facts.squares.append(king)
    return f"stalemates {facts.piece(after, king)}: it has no move and is not in check, a draw"


def _mate_allowed(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    mate = played_eval.for_color(s.mover).mate if played_eval else None
    if mate is None or mate > 0:
        return ""
    facts.kinds.append(Kind.MATE_ALLOWED)
    if s.reply is None:
        return f"allows mate in {-mate}"
    facts.move(s.reply)
    return f"allows mate in {-mate}, starting with {s.after.san(s.reply)}"


def _hanging(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    """A hanging piece of the mover that the reply (or the best capture) wins."""
    after, mover = s.after, s.mover
    capture = s.reply if s.reply is not None else _best_capture(after)
    if capture is None:
        return ""
    target = capture.to_square
    code = after.board[target]
    if not code or code >> 3 != mover or target not in s.after_map.hanging:
        return ""
    if target == s.played.to_square and _even_trade(s):
        return ""  # a piece taken back after it took as much: a trade, not a piece lost
    packed = after.find_packed(capture)
    value = exchange_on_target(after, packed)[0] if packed is not None else 0
    if value <= 0:
        return ""
    attackers = s.after_map.attackers[mover ^ 1][target]
    defenders = s.after_map.attackers[mover][target]
    facts.kinds.append(Kind.HANGING)
    facts.squares.append(target)
    facts.arrows += [Arrow(a, target, Role.ATTACK) for a in attackers]
    facts.arrows += [Arrow(d, target, Role.DEFENCE) for d in defenders]
    facts.move(capture)
    piece = facts.piece(after, target)
    attacked = facts.group(after, attackers, target)
    if defenders:
        defended = f"defended by {facts.group(after, defenders, target)}"
        wins = "wins material"
    else:
        facts.unattacked.append(NoAttackerFact(after.fen(), target, mover))
        # A piece behind the capturer may still take back: then the capture wins less.
        defended = "defended by nothing"
        wins = "wins it" if value >= SEE_VALUES[code & 7] else "wins material"
    # "attacked by A, B and C, and defended by D": the comma keeps the two lists apart.
    comma = "," if len(attackers) > 1 else ""
    tail = f"{attacked}{comma} and {defended}: {after.san(capture)} {wins}"
    if target == s.played.to_square:
        return f"puts {piece} attacked by {tail}"
    if _defended_by_the_move(s, target):
        facts.attacks.append(AttackFact(s.board.fen(), s.played.from_square, target))
        return f"stops defending {piece}, now attacked by {tail}"
    return f"leaves {piece} attacked by {tail}"


def _even_trade(s: _Situation) -> bool:
    """Whether the move was a capture that wins at least nothing by static exchange (its
    piece may be taken back, but no more is lost than was taken)."""
    if not s.board.board[s.played.to_square]:
        return False
    packed = s.board.find_packed(s.played)
    return packed is not None and exchange_on_target(s.board, packed)[0] >= 0


def _defended_by_the_move(s: _Situation, target: int) -> bool:
    """Whether the piece on `target`, there before the move too and not hanging then, was
    defended by the piece that moved."""
    return (
        s.board.board[target] == s.after.board[target]
        and target not in s.before_map.hanging
        and s.played.from_square in s.before_map.attackers[s.mover][target]
    )


def _best_capture(board: Board) -> Move | None:
    """The capture of `board` that wins the most by static exchange, if any wins anything."""
    best: tuple[int, Move] | None = None
    for move in board.legal_moves():
        if board.board[move.to_square]:
            packed = board.find_packed(move)
            assert packed is not None
            value = exchange_on_target(board, packed)[0]
            if value > 0 and (best is None or value > best[0]):
                best = value, move
    return best[1] if best else None


def _losing_capture(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    board, after, target = s.board, s.after, s.played.to_square
    if not board.board[target]:
        return ""
    packed = board.find_packed(s.played)
    assert packed is not None
    value = exchange_on_target(board, packed)[0]
    if value >= 0:
        return ""
    # Only pieces that may legally take back are named: a pinned attacker may not.
    takers = sorted({m.from_square for m in after.legal_moves() if m.to_square == target})
    if not takers:
        return ""
    facts.kinds.append(Kind.LOSING_CAPTURE)
    facts.squares.append(target)
    facts.arrows += [Arrow(t, target, Role.ATTACK) for t in takers]
    taken = facts.piece(board, target)
    group = facts.group(after, takers, target)
    points = round(-value / 100)
    unit = "point" if points == 1 else "points"
    verb = ("can", "can both")[len(takers) - 1] if len(takers) < 3 else "can all"
    return (
        f"takes {taken}, but {group} {verb} take back: the exchange loses {points} {unit} "
        f"of material"
    )


def _fork_allowed(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    if s.reply is None or s.after_reply is None:
        return ""
    after_reply, change = s.after_reply
    forks = [f for f in change.forks if f.origin == s.reply.to_square]
    if not forks:
        return ""
    facts.kinds.append(Kind.FORK_ALLOWED)
    facts.move(s.reply)
    return f"allows {s.after.san(s.reply)}, forking {_forked(after_reply, forks[0], facts)}"


def _forked(board: Board, fork: Fork, facts: _Facts) -> str:
    """ "the king on e8 and the rook on a8": the targets of a fork made on `board`."""
    facts.squares += [fork.origin, *fork.targets]
    facts.arrows += [Arrow(fork.origin, t, Role.ATTACK) for t in fork.targets]
    facts.attacks += [AttackFact(board.fen(), fork.origin, t) for t in fork.targets]
    words = [facts.piece(board, t) for t in _most_valuable_first(board, fork.targets)]
    return ", ".join(words[:-1]) + " and " + words[-1]


def _most_valuable_first(board: Board, squares: Iterable[int]) -> list[int]:
    cells = board.board
    return sorted(squares, key=lambda sq: (-PIECE_VALUES[cells[sq] & 7], NAME_ORDER[sq]))


def _discovered(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    if s.reply is None or s.after_reply is None:
        return ""
    after_reply, change = s.after_reply
    cells = after_reply.board
    found = [a for a in change.discovered if cells[a.target] >> 3 == s.mover]
    if not found:
        return ""
    attack = max(found, key=lambda a: (PIECE_VALUES[cells[a.target] & 7], -NAME_ORDER[a.target]))
    facts.kinds.append(Kind.DISCOVERED_ATTACK_ALLOWED)
    facts.squares.append(attack.target)
    facts.move(s.reply)
    facts.arrows.append(Arrow(attack.origin, attack.target, Role.ATTACK))
    facts.attacks.append(AttackFact(after_reply.fen(), attack.origin, attack.target))
    opener = facts.piece(after_reply, attack.origin)
    target = facts.piece(after_reply, attack.target)
    return f"allows {s.after.san(s.reply)}, which opens the line of {opener} to {target}"


def _pin(s: _Situation, played_eval: Evaluation | None, facts: _Facts) -> str:
    """A pin of a piece of the mover that the move walks into, or that the reply makes."""
    cells = s.after.board
    walked = [p for p in s.change.pins_created if cells[p.pinned] >> 3 == s.mover]
    if walked:
        pin, board, lead = walked[0], s.after, "walks into a pin"
    elif s.reply is not None and s.after_reply is not None:
        board, change = s.after_reply
        made = [p for p in change.pins_created if p.pinner == s.reply.to_square]
        if not made:
            return ""
        pin, lead = made[0], f"allows {s.after.san(s.reply)}"
        facts.move(s.reply)
    else:
        return ""
    facts.kinds.append(Kind.PIN_ALLOWED)
    if walked:
        by = facts.piece(board, pin.pinner)
        return f"{lead}: {by} pins {_pin_words(board, pin.pinner, pin.pinned, pin.target, facts)}"
    return f"{lead}, pinning {_pin_words(board, pin.pinner, pin.pinned, pin.target, facts)}"


def _pin_words(board: Board, pinner: int, pinned: int, target: int, facts: _Facts) -> str:
    """ "the knight on c6 to the king on e8": a pin's pinned piece and the piece behind it,
    entered as facts (the pinner is named by its move or by the caller)."""
    facts.squares += [pinned]
    facts.arrows.append(Arrow(pinner, target, Role.PIN))
    facts.pins.append(PinFact(board.fen(), pinner, pinned, target))
    return f"{facts.piece(board, pinned)} to {facts.piece(board, target)}"


# -- the second sentence: what was better ------------------------------------------------------


def _second_sentence(
    s: _Situation, best_eval: Evaluation | None, played_eval: Evaluation | None, facts: _Facts
) -> str:
    best = s.best
    if best is None or best == s.played:
        return ""
    san = s.board.san(best)
    mate = best_eval.for_color(s.mover).mate if best_eval else None
    if mate is not None and mate > 0:
        facts.kinds.append(Kind.MATE_MISSED)
        facts.move(best)
        return f"Better was {san}, with mate in {mate}"
    facts.move(best)
    detail = (
        _free_piece(s, best, facts) or _fork_missed(s, best, facts) or _pin_missed(s, best, facts)
    )
    shown = f" ({best_eval.text()})" if best_eval else ""
    return f"Better was {san}{detail}{shown}"


def _free_piece(s: _Situation, best: Move, facts: _Facts) -> str:
    """The best move takes a piece that nothing can take back (and the move played did not)."""
    board, target = s.board, best.to_square
    code = board.board[target]
    if not code or s.played.to_square == target or board.is_en_passant(best):
        return ""
    assert s.after_best is not None  # there is a best move
    after = s.after_best[0]
    if make_threat_map(after).attackers[s.mover ^ 1][target]:
        return ""
    packed = board.find_packed(best)
    assert packed is not None
    if exchange_on_target(board, packed)[0] < SEE_VALUES[code & 7]:
        return ""  # a promotion's gain aside, a free capture wins the whole piece
    facts.kinds.append(Kind.FREE_PIECE_MISSED)
    facts.squares.append(target)
    facts.unattacked.append(NoAttackerFact(after.fen(), target, s.mover ^ 1))
    return f", taking {facts.piece(board, target)} for nothing"


def _fork_missed(s: _Situation, best: Move, facts: _Facts) -> str:
    assert s.after_best is not None  # there is a best move
    after, change = s.after_best
    forks = [f for f in change.forks if f.origin == best.to_square]
    if not forks:
        return ""
    facts.kinds.append(Kind.FORK_MISSED)
    return f", forking {_forked(after, forks[0], facts)}"


def _pin_missed(s: _Situation, best: Move, facts: _Facts) -> str:
    assert s.after_best is not None  # there is a best move
    after, change = s.after_best
    made = [p for p in change.pins_created if p.pinner == best.to_square]
    if not made:
        return ""
    pin = made[0]
    facts.kinds.append(Kind.PIN_MISSED)
    return f", pinning {_pin_words(after, pin.pinner, pin.pinned, pin.target, facts)}"
