"""The Position: a chess position with its history, make/unmake, and the public methods to
play on it that need no format above FEN; chesscore.rules.board's `Board` adds SAN and the
outcome on top (the layering of python-chess's BaseBoard and Board).

State: `board` is the flat 0x88 list of 128 piece codes (see chesscore.rules.squares and
chesscore.rules.move), `piece_squares` the set of occupied squares per colour (so generation
never scans 128 squares), `kings` the king square per colour, then `turn`, `castling_rights` (a
4-bit set), `ep_square` (set after every pawn double step, whether or not a capture is
possible; `fen()` and `key()` mention it only when a legal en passant capture exists, the
lichess and python-chess convention), `halfmove_clock` and `fullmove_number`. `keys` holds the
Zobrist key of every position from the root to the current one, kept in step by push and pop
for the repetition rules. `push_packed` saves a state record and `pop_packed` restores it, so
undo is exact; `push_null`/`pop_null` pass the move to the other side and back. The fast
internals (`generate_legal`, `push_packed`, `pop_packed`, `gives_check_packed`,
`is_capture_packed`) work on packed int moves for perft and the engine; the public methods
take and return `Move` values. Generation (chesscore.rules.movegen) and FEN
(chesscore.rules.fen) read a position through the `PositionState` protocol of
chesscore.rules.state, so they sit below this module without importing it.
"""

from __future__ import annotations

from typing import Self

from chesscore.errors import ChessError, IllegalMoveError, InvalidSquareError
from chesscore.rules import movegen
from chesscore.rules.fen import STARTING_FEN, make_fen, parse_fen
from chesscore.rules.move import (
    FLAG_CASTLING,
    FLAG_DOUBLE_STEP,
    FLAG_EN_PASSANT,
    FLAG_SHIFT,
    MOVE_KEY_MASK,
    ORIGIN_SHIFT,
    PROMOTION_SHIFT,
    SQUARE_MASK,
    Move,
    Piece,
)
from chesscore.rules.squares import BLACK, KING, PAWN, SQUARE_NAMES, WHITE, Color, is_on_board
from chesscore.rules.zobrist import (
    CASTLING_KEYS,
    EN_PASSANT_KEYS,
    PIECE_KEYS,
    SIDE_KEY,
    compute_key,
)

# What push saves and pop restores: move, captured piece code, castling rights, en passant
# square, halfmove clock, key without the en passant term.
StateRecord = tuple[int, int, int, int | None, int, int]
# What push_null saves and pop_null restores: en passant square, halfmove clock, key without
# the en passant term.
NullRecord = tuple[int | None, int, int]

_CASTLING_MASK = movegen.CASTLING_MASK
_SPECIAL = 1 << PROMOTION_SHIFT  # packed moves at or above this promote or carry a flag


def _checked_square(sq: object) -> int:
    if type(sq) is not int or not is_on_board(sq):
        raise InvalidSquareError(f"not a square of the board: {sq!r}")
    return sq


def _checked_color(color: object) -> Color:
    if color not in (WHITE, BLACK) or type(color) is not int:
        raise ChessError(f"not a colour (WHITE = 0, BLACK = 1): {color!r}")
    return color


class Position:
    """A chess position and the moves that led to it from its root position."""

    board: list[int]
    piece_squares: list[set[int]]
    kings: list[int]
    turn: Color
    castling_rights: int
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int
    keys: list[int]

    def __init__(self, fen: str = STARTING_FEN, *, allow_impossible_checks: bool = False) -> None:
        """The position of `fen` (the start position by default); see `from_fen`."""
        position = parse_fen(fen, allow_impossible_checks)
        self.board = position.board
        self.turn = position.turn
        self.castling_rights = position.castling_rights
        self.ep_square = position.ep_square
        self.halfmove_clock = position.halfmove_clock
        self.fullmove_number = position.fullmove_number
        self.piece_squares = [set(), set()]
        self.kings = [0, 0]
        for sq, code in enumerate(self.board):
            if code:
                self.piece_squares[code >> 3].add(sq)
                if code & 7 == KING:
                    self.kings[code >> 3] = sq
        self._hash = compute_key(self.board, self.turn, self.castling_rights, None)
        self._stack: list[StateRecord] = []
        self._null_saves: list[NullRecord] = []
        self._root_fen = self.fen()
        self.keys = [self._current_key()]
        self._legal_key: int | None = None
        self._legal_moves: list[int] = []

    @classmethod
    def from_fen(cls, fen: str, *, allow_impossible_checks: bool = False) -> Self:
        """Parse a FEN strictly; raises InvalidFenError naming the field or the reason the
        position cannot be played. `allow_impossible_checks` accepts composed positions whose
        checks no move could give (see chesscore.rules.fen), as some test suites hold."""
        return cls(fen, allow_impossible_checks=allow_impossible_checks)

    def copy(self) -> Self:
        """An independent copy, history included."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.board = self.board[:]
        other.piece_squares = [set(self.piece_squares[0]), set(self.piece_squares[1])]
        other.kings = self.kings[:]
        other.keys = self.keys[:]
        other._stack = self._stack[:]
        other._null_saves = self._null_saves[:]
        return other

    def fen(self) -> str:
        """The FEN of the position (en passant square only when a legal capture exists)."""
        return make_fen(self)

    def root_fen(self) -> str:
        """The FEN of the position the history starts from."""
        return self._root_fen

    def root(self) -> Self:
        """A new board at the root position, without history."""
        return type(self)(self._root_fen, allow_impossible_checks=True)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r})"

    # -- state ----------------------------------------------------------------------------

    @property
    def castling(self) -> str:
        """The castling rights as in FEN ("KQkq", "-")."""
        letters = "".join(
            c for c, right in movegen.CASTLING_LETTERS if self.castling_rights & right
        )
        return letters or "-"

    @property
    def ply(self) -> int:
        """Half-moves played since the root position."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the root position, oldest first."""
        return [Move.from_packed(record[0]) for record in self._stack]

    def piece_at(self, sq: int) -> Piece | None:
        code = self.board[_checked_square(sq)]
        return Piece.from_code(code) if code else None

    def pieces(self) -> dict[int, Piece]:
        """Every piece on the board by square."""
        board = self.board
        squares = sorted(self.piece_squares[0] | self.piece_squares[1])
        return {sq: Piece.from_code(board[sq]) for sq in squares}

    def king_square(self, color: Color) -> int:
        return self.kings[_checked_color(color)]

    def key(self) -> int:
        """64-bit Zobrist key of the position (see chesscore.rules.zobrist)."""
        return self.keys[-1]

    def _current_key(self) -> int:
        if self.ep_square is not None and movegen.has_legal_en_passant(self):
            return self._hash ^ EN_PASSANT_KEYS[self.ep_square & 7]
        return self._hash

    # -- fast internals on packed moves ---------------------------------------------------

    def generate_legal(self) -> list[int]:
        """Legal moves as packed ints (chesscore.rules.move), a new list the caller may change;
        for the engine and everything that needs no Move objects."""
        return self._legal()[:]

    def _legal(self) -> list[int]:
        """The legal moves, generated once per position: SAN, push, destinations and the
        outcome all ask for them after every move. Keyed by the position key, so no make or
        unmake pays for the cache; never handed out as is (callers could change it)."""
        key = self.keys[-1]
        if self._legal_key != key:
            self._legal_moves = movegen.generate_legal(self)
            self._legal_key = key
        return self._legal_moves

    def push_packed(self, move: int) -> None:
        """Make a legal packed move (unchecked: it must come from `generate_legal`)."""
        board = self.board
        target = move & SQUARE_MASK
        origin = move >> ORIGIN_SHIFT & SQUARE_MASK
        piece = moved = board[origin]
        captured = board[target]
        color = self.turn
        self._stack.append(
            (move, captured, self.castling_rights, self.ep_square, self.halfmove_clock, self._hash)
        )
        key = self._hash ^ SIDE_KEY ^ PIECE_KEYS[piece << 7 | origin]
        board[origin] = 0
        own = self.piece_squares[color]
        own.remove(origin)
        own.add(target)
        if captured:
            self.piece_squares[color ^ 1].remove(target)
            key ^= PIECE_KEYS[captured << 7 | target]
        self.ep_square = None
        if move >= _SPECIAL:
            piece, key = self._push_special(move, piece, key)
        board[target] = piece
        key ^= PIECE_KEYS[piece << 7 | target]
        if piece & 7 == KING:
            self.kings[color] = target
        rights = self.castling_rights
        if rights and rights != rights & _CASTLING_MASK[origin] & _CASTLING_MASK[target]:
            self.castling_rights = rights & _CASTLING_MASK[origin] & _CASTLING_MASK[target]
            key ^= CASTLING_KEYS[rights] ^ CASTLING_KEYS[self.castling_rights]
        self.halfmove_clock = 0 if captured or moved & 7 == PAWN else self.halfmove_clock + 1
        self.fullmove_number += color
        self.turn = color ^ 1
        self._hash = key
        if self.ep_square is not None and movegen.has_legal_en_passant(self):
            key ^= EN_PASSANT_KEYS[self.ep_square & 7]
        self.keys.append(key)

    def _push_special(self, move: int, piece: int, key: int) -> tuple[int, int]:
        """The promotion, en passant, castling or double-step part of `push_packed`."""
        board = self.board
        color = self.turn
        target = move & SQUARE_MASK
        flag = move >> FLAG_SHIFT
        if flag == FLAG_DOUBLE_STEP:
            self.ep_square = ((move >> ORIGIN_SHIFT & SQUARE_MASK) + target) >> 1
        elif flag == FLAG_EN_PASSANT:
            captured_sq = target - 16 if color == WHITE else target + 16
            key ^= PIECE_KEYS[board[captured_sq] << 7 | captured_sq]
            board[captured_sq] = 0
            self.piece_squares[color ^ 1].remove(captured_sq)
        elif flag == FLAG_CASTLING:
            rook_origin, rook_target = movegen.CASTLING_ROOK_MOVES[target]
            rook = board[rook_origin]
            board[rook_origin] = 0
            board[rook_target] = rook
            self.piece_squares[color].remove(rook_origin)
            self.piece_squares[color].add(rook_target)
            key ^= PIECE_KEYS[rook << 7 | rook_origin] ^ PIECE_KEYS[rook << 7 | rook_target]
        promotion = move >> PROMOTION_SHIFT & 7
        if promotion:
            piece = promotion | color << 3
        return piece, key

    def pop_packed(self) -> int:
        """Undo the last move and return it packed."""
        move, captured, rights, ep_square, halfmove_clock, key = self._stack.pop()
        self.keys.pop()
        board = self.board
        target = move & SQUARE_MASK
        origin = move >> ORIGIN_SHIFT & SQUARE_MASK
        color = self.turn ^ 1
        self.turn = color
        piece = board[target]
        own = self.piece_squares[color]
        own.remove(target)
        own.add(origin)
        if move >= _SPECIAL:
            piece = self._pop_special(move, piece)
        board[origin] = piece
        board[target] = captured
        if captured:
            self.piece_squares[color ^ 1].add(target)
        if piece & 7 == KING:
            self.kings[color] = origin
        self.castling_rights = rights
        self.ep_square = ep_square
        self.halfmove_clock = halfmove_clock
        self._hash = key
        self.fullmove_number -= color
        return move

    def _pop_special(self, move: int, piece: int) -> int:
        board = self.board
        color = self.turn
        target = move & SQUARE_MASK
        flag = move >> FLAG_SHIFT
        if flag == FLAG_EN_PASSANT:
            captured_sq = target - 16 if color == WHITE else target + 16
            board[captured_sq] = PAWN | (color ^ 1) << 3
            self.piece_squares[color ^ 1].add(captured_sq)
        elif flag == FLAG_CASTLING:
            rook_origin, rook_target = movegen.CASTLING_ROOK_MOVES[target]
            board[rook_origin] = board[rook_target]
            board[rook_target] = 0
            self.piece_squares[color].remove(rook_target)
            self.piece_squares[color].add(rook_origin)
        if move >> PROMOTION_SHIFT & 7:
            piece = PAWN | color << 3
        return piece

    def push_null(self) -> None:
        """Pass: the other side moves next (the engine's null-move search asks "what if I
        could pass?"). Not a move of the game: `ply` and `move_stack` do not change, the
        halfmove clock restarts (no repetition is found across the pass) and `pop_null` must
        undo it before any move played before it is popped. Refused in check, where passing
        would leave the king to be taken."""
        if self.is_check():
            raise IllegalMoveError(f"no null move in check in position {self.fen()!r}")
        self._null_saves.append((self.ep_square, self.halfmove_clock, self._hash))
        self.turn ^= 1
        self.ep_square = None
        self.halfmove_clock = 0
        self._hash ^= SIDE_KEY
        self.keys.append(self._hash)

    def pop_null(self) -> None:
        """Undo the last `push_null`; IndexError when there is none."""
        if not self._null_saves:
            raise IndexError("pop_null without a null move pushed")
        self.ep_square, self.halfmove_clock, self._hash = self._null_saves.pop()
        self.keys.pop()
        self.turn ^= 1

    def gives_check_packed(self, move: int) -> bool:
        """Whether a legal packed move checks the opponent."""
        return movegen.gives_check(self, move)

    def is_capture_packed(self, move: int) -> bool:
        return bool(self.board[move & SQUARE_MASK]) or move >> FLAG_SHIFT == FLAG_EN_PASSANT

    def find_packed(self, move: Move) -> int | None:
        """The legal packed move matching a public Move, or None when it is not legal."""
        wanted = move.packed_key()
        for packed in self._legal():
            if packed & MOVE_KEY_MASK == wanted:
                return packed
        return None

    # -- editing ----------------------------------------------------------------------------

    def set_piece_at(self, sq: int, piece: Piece) -> Piece | None:
        """Put `piece` on `sq` and return what stood there; see `replace_code`."""
        if not isinstance(piece, Piece):
            raise ChessError(f"not a Piece: {piece!r}")
        old = self.replace_code(_checked_square(sq), piece.code())
        return Piece.from_code(old) if old else None

    def remove_piece_at(self, sq: int) -> Piece | None:
        """Empty `sq` and return what stood there; see `replace_code`."""
        old = self.replace_code(_checked_square(sq), 0)
        return Piece.from_code(old) if old else None

    def replace_code(self, sq: int, code: int) -> int:
        """Put the piece code `code` (0: none) on `sq` and return the code that was there;
        unchecked and on ints, the shared core of `set_piece_at` and `remove_piece_at`. The
        position stays coherent: piece sets, king squares, the Zobrist key of the current
        position (and with it the legal-move cache, keyed by it), castling rights of a king
        or rook that left home and an en passant square whose pawn is gone.
        A king taken off keeps its old square in `kings` until a king is put back. The
        history is not rewritten: undoing a move played before an edit is not supported."""
        board = self.board
        old = board[sq]
        key = self._hash
        if old:
            self.piece_squares[old >> 3].discard(sq)
            key ^= PIECE_KEYS[old << 7 | sq]
        board[sq] = code
        if code:
            self.piece_squares[code >> 3].add(sq)
            key ^= PIECE_KEYS[code << 7 | sq]
            if code & 7 == KING:
                self.kings[code >> 3] = sq
        rights = self.castling_rights
        if rights & _CASTLING_MASK[sq] != rights:
            self.castling_rights = rights & _CASTLING_MASK[sq]
            key ^= CASTLING_KEYS[rights] ^ CASTLING_KEYS[self.castling_rights]
        self._hash = key
        self._drop_stale_en_passant()
        self.keys[-1] = self._current_key()
        # Regenerate even when the key is unchanged: an edit is rare, a stale move list costly.
        self._legal_key = None
        return old

    def _drop_stale_en_passant(self) -> None:
        """Forget the en passant square once the pawn that stepped past it is gone or the
        square is taken."""
        ep = self.ep_square
        if ep is None:
            return
        pawn_sq = ep - 16 if self.turn == WHITE else ep + 16
        if self.board[ep] or self.board[pawn_sq] != PAWN | (self.turn ^ 1) << 3:
            self.ep_square = None

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order (by origin square, then target, then promotion)."""
        keys = sorted(
            (m >> ORIGIN_SHIFT & SQUARE_MASK, m & SQUARE_MASK, m >> PROMOTION_SHIFT & 7)
            for m in self._legal()
        )
        return [Move(origin, target, promotion or None) for origin, target, promotion in keys]

    def is_legal(self, move: Move) -> bool:
        return isinstance(move, Move) and self.find_packed(move) is not None

    def push(self, move: Move) -> None:
        """Play a legal move; raises IllegalMoveError naming the move and the position."""
        packed = self.find_packed(move) if isinstance(move, Move) else None
        if packed is None:
            raise IllegalMoveError(f"illegal move {move} in position {self.fen()!r}")
        self.push_packed(packed)

    def parse_uci(self, text: str) -> Move:
        """The legal move of UCI text (InvalidMoveError if malformed, else IllegalMoveError)."""
        move = Move.from_uci(text)
        if self.find_packed(move) is None:
            raise IllegalMoveError(f"illegal move {text!r} in position {self.fen()!r}")
        return move

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Undo the last move and return it; IndexError when there is none."""
        if not self._stack:
            raise IndexError("pop from a board with no moves played")
        return Move.from_packed(self.pop_packed())

    def destinations(self) -> dict[str, list[str]]:
        """From-square name -> sorted names of the squares its legal moves go to."""
        return _group_targets(self._legal())

    def promotion_targets(self) -> dict[str, list[str]]:
        """From-square name -> sorted names of the squares its legal promotions go to (each
        one open to all four pieces); empty when no pawn can promote."""
        return _group_targets([m for m in self._legal() if m >> PROMOTION_SHIFT & 7])

    def is_capture(self, move: Move) -> bool:
        return bool(self.board[move.to_square]) or self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        return (
            move.to_square == self.ep_square
            and self.board[move.from_square] & 7 == PAWN
            and (move.to_square - move.from_square) % 16 != 0
        )

    def is_castling(self, move: Move) -> bool:
        return (
            self.board[move.from_square] & 7 == KING and abs(move.to_square - move.from_square) == 2
        )

    def gives_check(self, move: Move) -> bool:
        """Whether a legal move checks the opponent (IllegalMoveError if not legal)."""
        packed = self.find_packed(move)
        if packed is None:
            raise IllegalMoveError(f"illegal move {move} in position {self.fen()!r}")
        return self.gives_check_packed(packed)

    # -- attacks, checks, pins ------------------------------------------------------------

    def attackers(self, color: Color, sq: int) -> list[int]:
        """Squares of the pieces of `color` attacking or defending `sq` (the attack primitive)."""
        pieces = self.piece_squares[_checked_color(color)]
        return movegen.attackers(self.board, _checked_square(sq), pieces)

    def is_attacked(self, color: Color, sq: int) -> bool:
        pieces = self.piece_squares[_checked_color(color)]
        return movegen.is_attacked(self.board, _checked_square(sq), pieces)

    def is_check(self) -> bool:
        color = self.turn
        return movegen.is_attacked(self.board, self.kings[color], self.piece_squares[color ^ 1])

    def checkers(self) -> list[int]:
        """Squares of the pieces giving check to the side to move."""
        color = self.turn
        return movegen.attackers(self.board, self.kings[color], self.piece_squares[color ^ 1])

    def pins(self, color: Color) -> list[tuple[int, int]]:
        """(pinned square, pinner square) for the pieces of `color` pinned to their king."""
        enemies = self.piece_squares[_checked_color(color) ^ 1]
        pinned = movegen.scan_king(self.board, self.kings[color], enemies).pinned
        return sorted((sq, along.start) for sq, along in pinned.items())

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self._legal()


def _group_targets(moves: list[int]) -> dict[str, list[str]]:
    """From-square name -> sorted target square names of the packed `moves`."""
    targets: dict[str, set[str]] = {}
    for m in moves:
        targets.setdefault(SQUARE_NAMES[m >> ORIGIN_SHIFT & SQUARE_MASK], set()).add(
            SQUARE_NAMES[m & SQUARE_MASK]
        )
    return {origin: sorted(names) for origin, names in sorted(targets.items())}
