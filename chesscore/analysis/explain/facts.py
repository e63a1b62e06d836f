"""What an explanation states, as data: its kinds, its arrows, and every fact it names.

Each fact is a claim about one position (a FEN string), so that a test can check it against
another chess library: a piece standing on a square, an attack or a defence, a pin, a square
no piece of a side attacks, the exact set of a side's pieces on a square's attackers, a line of
moves legal in turn (and whether it ends in mate), material that changed between two
positions, a passed pawn, a trapped piece, a side's own pieces on some squares. `Facts`
gathers them while the sentences are written; `Explanation` is the frozen result. Squares are
0x88 ints, colours ints (chesscore.rules.squares).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from chesscore.analysis.explain.board import color_of, kind_at, kind_of
from chesscore.analysis.explain.nouns import Place, piece_phrase
from chesscore.analysis.values import PIECE_VALUES
from chesscore.rules.squares import NAME_ORDER, Color
from chesscore.words import ENGLISH, Message, render, say_list

if TYPE_CHECKING:
    from chesscore.analysis.explain.claims import Claim
    from chesscore.rules.board import Board
    from chesscore.rules.move import Move

PIECE_WORDS = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
QUOTED_PLIES = 4  # the most of an engine's line an explanation's text quotes


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
    BACK_RANK_MATE = "back_rank_mate"
    STALEMATE = "stalemate"
    HANGING = "hanging"
    DEFENDER_MOVED_AWAY = "defender_moved_away"
    LOSING_CAPTURE = "losing_capture"
    TRAPPED_PIECE = "trapped_piece"
    FORK_ALLOWED = "fork_allowed"
    DISCOVERED_ATTACK_ALLOWED = "discovered_attack_allowed"
    PIN_ALLOWED = "pin_allowed"
    DEFENDER_REMOVED = "defender_removed"
    OVERLOADED_DEFENDER = "overloaded_defender"
    PROMOTION_ALLOWED = "promotion_allowed"
    PASSED_PAWN = "passed_pawn"
    MATERIAL_LINE = "material_line"
    POSITIONAL = "positional"
    MATE_MISSED = "mate_missed"
    FREE_PIECE_MISSED = "free_piece_missed"
    FORK_MISSED = "fork_missed"
    PIN_MISSED = "pin_missed"
    MATERIAL_MISSED = "material_missed"
    KING_SAFETY = "king_safety"
    ACTIVITY = "activity"
    MATERIAL_KEPT = "material_kept"


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


@dataclass(frozen=True, slots=True)
class DefendersFact:
    """In `fen`, the pieces of `color` attacking `square` are exactly those on `origins`
    ("the only defender")."""

    fen: str
    square: int
    color: Color
    origins: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class LineFact:
    """From `fen`, the moves `ucis` are legal in turn; `mate`: the last one mates."""

    fen: str
    ucis: tuple[str, ...]
    mate: bool = False


@dataclass(frozen=True, slots=True)
class MaterialFact:
    """From `before` to `after`, `color` has fewer pieces of the types `lost` (a multiset,
    each at least that many fewer) and its material less the other side's fell by `points`
    pawns (pawn 1, knight and bishop 3, rook 5, queen 9)."""

    before: str
    after: str
    color: Color
    lost: tuple[int, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PassedPawnFact:
    """In `fen`, the pawn of `color` on `square` is passed: no pawn of the other colour
    stands ahead of it on its file or the files beside it."""

    fen: str
    square: int
    color: Color


@dataclass(frozen=True, slots=True)
class TrappedFact:
    """In `fen`, not in check, the piece on `square` (its side to move) is attacked and
    hanging (its capture wins material: chesscore.analysis.exchange), has legal moves, and
    every one lands where it is hanging again, taking nothing worth as much as it."""

    fen: str
    square: int


@dataclass(frozen=True, slots=True)
class OwnPiecesFact:
    """In `fen`, pieces of `color` stand on every one of `squares`."""

    fen: str
    squares: tuple[int, ...]
    color: Color


@dataclass(slots=True)
class Facts:
    """What a clause names, gathered while it is written."""

    kinds: list[Kind] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    arrows: list[Arrow] = field(default_factory=list)
    pieces: list[PieceFact] = field(default_factory=list)
    attacks: list[AttackFact] = field(default_factory=list)
    pins: list[PinFact] = field(default_factory=list)
    unattacked: list[NoAttackerFact] = field(default_factory=list)
    defenders: list[DefendersFact] = field(default_factory=list)
    lines: list[LineFact] = field(default_factory=list)
    material: list[MaterialFact] = field(default_factory=list)
    passed: list[PassedPawnFact] = field(default_factory=list)
    trapped: list[TrappedFact] = field(default_factory=list)
    own: list[OwnPiecesFact] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    def piece(self, board: Board, sq: int, place: str = Place.OBJECT) -> Message:
        """ "the queen on e7" in `place` (chesscore.analysis.explain.nouns), entered as a fact
        of `board`."""
        code = board.board[sq]
        self.pieces.append(PieceFact(board.fen(), sq, color_of(code), kind_of(code)))
        return piece_phrase(place, kind_of(code), sq)

    def move(self, move: Move) -> None:
        """An arrow for a move the text names."""
        self.arrows.append(Arrow(move.from_square, move.to_square, Role.MOVE))

    def line(self, board: Board, moves: Iterable[Move], mate: bool = False) -> str:
        """The legal `moves` from `board` in SAN, "Bxe5 Qd4+ Kh1", entered as a fact."""
        replay, sans, ucis = board.copy(), [], []
        for move in moves:
            sans.append(replay.san(move))
            ucis.append(move.uci())
            replay.push(move)
        self.lines.append(LineFact(board.fen(), tuple(ucis), mate))
        return " ".join(sans)

    def quote(self, board: Board, moves: Sequence[Move], mate: bool = False) -> str:
        """The first `QUOTED_PLIES` of the legal `moves` from `board` in SAN, " …" after
        when the line goes on (the board shows the rest); entered as a line fact."""
        shown = self.line(board, moves[:QUOTED_PLIES], mate and len(moves) <= QUOTED_PLIES)
        return shown + (" …" if len(moves) > QUOTED_PLIES else "")

    def group(self, board: Board, squares: Iterable[int], target: int) -> Message:
        """The pieces on `squares`, each attacking `target` in `board`, cheapest first,
        named after "attacked by" or "defended by"."""
        ordered = sorted(squares, key=lambda sq: (PIECE_VALUES[kind_at(board, sq)], NAME_ORDER[sq]))
        words = [self.piece(board, sq, Place.BY) for sq in ordered]
        self.attacks += [AttackFact(board.fen(), sq, target) for sq in ordered]
        return say_list(words)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why a move was bad (chesscore.analysis.explain): the text (in English; `words`, the
    same as a message to be said in any language, chesscore.words), its kinds (what went wrong
    first, then what the better move did), the squares of the pieces it names and the squares
    it points at, its arrows, and the facts it states (for checking, not for showing)."""

    words: Message
    kinds: tuple[Kind, ...]
    squares: tuple[int, ...]
    arrows: tuple[Arrow, ...]
    pieces: tuple[PieceFact, ...]
    attacks: tuple[AttackFact, ...]
    pins: tuple[PinFact, ...]
    unattacked: tuple[NoAttackerFact, ...]
    defenders: tuple[DefendersFact, ...] = ()
    lines: tuple[LineFact, ...] = ()
    material: tuple[MaterialFact, ...] = ()
    passed: tuple[PassedPawnFact, ...] = ()
    trapped: tuple[TrappedFact, ...] = ()
    own: tuple[OwnPiecesFact, ...] = ()
    claims: tuple[Claim, ...] = ()
    names_best: bool = False  # its second sentence names the better move

    @property
    def text(self) -> str:
        """The explanation in English."""
        return render(self.words, ENGLISH)


def make_explanation(words: Message, facts: Facts, names_best: bool = False) -> Explanation:
    """The frozen result of the gathered `facts`: squares named once each, in order."""
    return Explanation(
        words,
        tuple(facts.kinds),
        tuple(dict.fromkeys([*facts.squares, *(piece.square for piece in facts.pieces)])),
        tuple(dict.fromkeys(facts.arrows)),
        tuple(facts.pieces),
        tuple(facts.attacks),
        tuple(facts.pins),
        tuple(facts.unattacked),
        tuple(facts.defenders),
        tuple(facts.lines),
        tuple(facts.material),
        tuple(facts.passed),
        tuple(facts.trapped),
        tuple(facts.own),
        tuple(facts.claims),
        names_best,
    )
