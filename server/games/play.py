"""Game logic: a game's record and every action a player can take, independent of Flask.

A `Game` is the settings it was created with, the board (from `chesscore`, which decides every
rule), the list of moves with their SAN, and a small immutable `Header` (status, outcome,
clocks, pending offers, claimed seats, rematch). Actions never change a game: each validates a
request and returns a `Change` (the recorded change event, the new header, the new board and
the moves to add or drop) or raises `RequestError`. The caller stores the change first and only
then calls `game.apply(change)`, so a refused or unstored request leaves the game as it was.
Times are wall-clock seconds passed in as `now`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Required, TypedDict

from chesscore import (
    BLACK,
    WHITE,
    AmbiguousMoveError,
    Board,
    ChessError,
    Color,
    IllegalMoveError,
    Move,
    Outcome,
    Termination,
)
from server.games.clock import ClockSettings, ClockState
from server.games.refusals import (
    explain_ambiguous_san,
    explain_illegal_move,
    explain_illegal_san,
)
from server.shared.errors import N_, RequestError

COLOR_NAMES = {WHITE: "white", BLACK: "black"}
OFFER_KINDS = ("draw", "takeback", "rematch")
CLAIMABLE = (Termination.THREEFOLD_REPETITION, Termination.FIFTY_MOVES)


def color_name(color: Color) -> str:
    return COLOR_NAMES[color]


@dataclass(frozen=True)
class ShownRating:
    """A player's rating as a game shows it beside the name: the whole rating, whether it is
    provisional ("1500?"), and once a rated game ended the change it made (+8 / -8)."""

    rating: int
    provisional: bool
    diff: int | None = None


@dataclass(frozen=True)
class GameSettings:
    """What a game was created with; never changes."""

    opponent: str  # "friend" or "computer"
    creator: Color
    start_fen: str
    clock: ClockSettings | None = None
    level: int | None = None
    seed: int = 0
    assisted: bool = True  # whether the players may see the threat overlays (issue 7)
    # The players' display names by colour (server.shared.names; None: no name given).
    names: tuple[str | None, str | None] = (None, None)
    review: bool = False  # a game against the computer reviewed when it ends (issue 18)
    # A rated game (issue 27, server.games.rating): between two accounts, never assisted; the
    # players' ratings in its speed as it started, by colour.
    rated: bool = False
    ratings: tuple[ShownRating | None, ShownRating | None] = (None, None)

    @property
    def computer(self) -> Color | None:
        """The computer's colour, or None in a game between people."""
        return 1 - self.creator if self.opponent == "computer" else None


@dataclass(frozen=True)
class NewGame:
    """A new game as a client asks for it: its `GameSettings` before the service draws the
    creator's colour (when `color` is None) and the seed."""

    opponent: str  # "friend" or "computer"
    color: Color | None  # None: random
    fen: str
    clock: ClockSettings | None = None
    level: int | None = None
    assisted: bool = True
    name: str | None = None  # the creator's display name
    review: bool = False

    def settings(self, creator: Color, seed: int) -> GameSettings:
        """The game's settings, once the creator's colour and the seed are drawn."""
        names = (self.name, None) if creator == WHITE else (None, self.name)
        return GameSettings(
            self.opponent,
            creator,
            self.fen,
            self.clock,
            self.level,
            seed,
            self.assisted,
            names,
            self.review,
        )


@dataclass(frozen=True)
class Header:
    """The small part of a game that changes besides the moves."""

    status: str = "playing"  # "playing", "finished" or "aborted"
    outcome: Outcome | None = None
    clock: ClockState | None = None
    offers: tuple[tuple[str, Color], ...] = ()  # (kind, offering colour), kept immutable
    seated: frozenset[Color] = frozenset()
    rematch: str | None = None
    # The invited friend's display name, given once the seat is taken (the creator's is in
    # the settings, given at creation): `Game.names` has both.
    friend_name: str | None = None
    # The ratings after a rated game ended, with the change it made, by colour.
    rated: tuple[ShownRating, ShownRating] | None = None

    def offer_by(self, kind: str) -> Color | None:
        return dict(self.offers).get(kind)

    def with_offer(self, kind: str, color: Color | None) -> Header:
        # Every move withdraws any takeback offer, and there rarely is one: the header as it
        # is then, not a copy made by `replace` (its slowest part of a move's glue).
        if color is None and all(k != kind for k, _ in self.offers):
            return self
        offers = {k: c for k, c in self.offers if k != kind}
        if color is not None:
            offers[kind] = color
        return replace(self, offers=tuple(sorted(offers.items())))


@dataclass(frozen=True)
class MoveRecord:
    """A move as played and stored: UCI, SAN, and the mover's time left after it in
    milliseconds when the game has a clock (None without one, and in games stored before
    clocks were kept per move): the `[%clk]` of the PGN export."""

    uci: str
    san: str
    clock_ms: int | None = None


class Event(TypedDict, total=False):
    """A recorded change (docs/protocol.md, "Changes"): always its `type` and, once stored, its
    `version`; `by` (the acting colour's name) and the rest as the type has them."""

    type: Required[str]
    version: int
    by: str
    color: str  # the colour a seat was claimed for, or a flag fell for
    kind: str  # an offer's kind: "draw", "takeback" or "rematch"
    ply: int
    uci: str
    san: str
    plies: int  # how many plies a takeback took back
    rematch: str  # the id of the rematch an accepted offer made
    name: str  # the display name the invited friend gave
    outcome: dict[str, Any]
    ratings: dict[str, Any]  # a rated game's new ratings and changes, by colour name


@dataclass(frozen=True)
class Change:
    """One change to a game, ready to store: it becomes version `game.version + 1`."""

    event: Event
    header: Header
    board: Board | None = None
    added: tuple[MoveRecord, ...] = ()
    keep_plies: int | None = None  # a takeback keeps only this many moves


@dataclass
class Game:
    """A game in memory: settings, board, moves, header and its version."""

    id: str
    settings: GameSettings
    board: Board
    header: Header
    version: int = 0
    moves: list[MoveRecord] = field(default_factory=list)
    # How many moves the move list's JSON text holds, and its records (without the brackets)
    # as last sent: a move adds its record instead of writing them all again
    # (server.games.messages).
    moves_text: tuple[int, str] | None = field(default=None, compare=False, repr=False)

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def is_playing(self) -> bool:
        return self.header.status == "playing"

    @property
    def withholds_overlays(self) -> bool:
        """Whether nobody, player or spectator, gets the game's threat facts now (the threat
        map, insight, safety, previews, squares in words): a rated game in play. Watching it
        in another tab would otherwise be help (docs/ratings.md, "Fair play")."""
        return self.settings.rated and self.is_playing

    @property
    def names(self) -> tuple[str | None, str | None]:
        """The players' display names by colour (None: no name given)."""
        return display_names(self.settings, self.header)

    def apply(self, change: Change) -> None:
        """Make a stored change part of the game."""
        if change.keep_plies is not None:
            del self.moves[change.keep_plies :]
            self.moves_text = None  # other moves may come back to its length
        self.moves.extend(change.added)
        if change.board is not None:
            self.board = change.board
        self.header = change.header
        self.version += 1


def display_names(settings: GameSettings, header: Header) -> tuple[str | None, str | None]:
    """The players' display names by colour (None: no name given): the settings' and, in
    the invited friend's seat, the name the friend gave."""
    if header.friend_name is None:
        return settings.names
    white, black = settings.names
    if settings.creator == WHITE:
        return white, header.friend_name
    return header.friend_name, black


def shown_names(settings: GameSettings, header: Header) -> tuple[str, str]:
    """The players' names as a game's record shows them (PGN headers, the history): the
    display name, "Computer" for the computer's seat, else the colour ("White", "Black")."""
    names = display_names(settings, header)
    return (
        _shown_name(settings, WHITE, names[WHITE]),
        _shown_name(settings, BLACK, names[BLACK]),
    )


def _shown_name(settings: GameSettings, color: Color, name: str | None) -> str:
    if color == settings.computer:
        return "Computer"
    return name or color_name(color).title()


def new_game(game_id: str, settings: GameSettings) -> Game:
    """A game at its start position; refuses a start position where the game is already over."""
    board = Board.from_fen(settings.start_fen)
    over = board.outcome()
    if over is not None:
        raise RequestError(
            "bad_request",
            N_("field 'fen': the game is already over there ({value})"),
            value=over.termination.value,
        )
    seated = {settings.creator}
    if settings.computer is not None:
        seated.add(settings.computer)
    clock = ClockState.start(settings.clock) if settings.clock else None
    return Game(game_id, settings, board, Header(clock=clock, seated=frozenset(seated)))


def restore_game(
    game_id: str, settings: GameSettings, header: Header, version: int, moves: list[MoveRecord]
) -> Game:
    """A stored game, its moves replayed on the start position."""
    board = Board.from_fen(settings.start_fen)
    for record in moves:
        board.push_uci(record.uci)
    return Game(game_id, settings, board, header, version, list(moves))


def finished_header(game: Game, header: Header, outcome: Outcome | None, now: float) -> Header:
    clock = header.clock.stopped(now) if header.clock else None
    status = "finished" if outcome is not None else "aborted"
    offers = tuple((k, c) for k, c in header.offers if k == "rematch")
    return replace(header, status=status, outcome=outcome, clock=clock, offers=offers)


def require_playing(game: Game) -> None:
    if game.header.status == "aborted":
        raise RequestError("game_over", N_("the game was aborted"))
    if game.header.outcome is not None:
        reason = game.header.outcome.termination.value
        raise RequestError("game_over", N_("the game is over ({reason})"), reason=reason)


def make_event(
    event_type: str,
    by: Color | None = None,
    *,
    outcome: Outcome | None = None,
    **fields: str | int,
) -> Event:
    """A change record: its type, who acted, the outcome (as its JSON) and the type's fields
    (the keys of `Event`)."""
    event = Event(type=event_type)
    if by is not None:
        event["by"] = color_name(by)
    for name, value in fields.items():
        if name not in Event.__annotations__:
            raise TypeError(f"an event has no field {name!r}")
        event[name] = value  # type: ignore[literal-required]  # checked just above
    if outcome is not None:
        event["outcome"] = outcome.to_json()
    return event


def expire(game: Game, now: float) -> Change | None:
    """The time forfeit due at `now`, if a clock has run out (a draw when the opponent of the
    flagged side cannot mate)."""
    clock = game.header.clock
    if not game.is_playing or clock is None:
        return None
    flagged = clock.flagged(now)
    if flagged is None:
        return None
    opponent = 1 - flagged
    winner = None if game.board.has_insufficient_material(opponent) else opponent
    outcome = Outcome(Termination.TIME_FORFEIT, winner)
    event = make_event("flag", color=color_name(flagged), outcome=outcome)
    return Change(event, finished_header(game, game.header, outcome, now))


def has_running_clock(header: Header) -> bool:
    """Whether a clock runs, so the game ends on time (`expire`) rather than as abandoned."""
    return header.clock is not None and header.clock.running is not None


def abandon(header: Header) -> Change:
    """The end of a game nobody touched for a long while (the service decides how long): it
    ends with no result, status "aborted" and the event type "abandon". Nobody resigned or
    lost, and an untimed game has no clock to lose on; a game whose clock runs ends on time
    instead (`expire`: a flag is a result, and the one a player would have seen). Only the
    header is read, so the service can end thousands of stale games without replaying them."""
    if header.status != "playing":
        raise RequestError("game_over", N_("the game is over ({status})"), status=header.status)
    if has_running_clock(header):
        raise RequestError("not_allowed", N_("a game whose clock runs ends on time, not abandoned"))
    offers = tuple((k, c) for k, c in header.offers if k == "rematch")
    return Change(make_event("abandon"), replace(header, status="aborted", offers=offers))


def require_turn(game: Game, color: Color, ply: int) -> None:
    """The checks a move passes before its legality: the game on, `ply` current, `color` to move."""
    require_playing(game)
    if ply < game.ply:
        raise RequestError(
            "stale_ply", N_("stale ply {ply}: the game is at ply {ply2}"), ply=ply, ply2=game.ply
        )
    if ply > game.ply:
        raise RequestError(
            "future_ply", N_("future ply {ply}: the game is at ply {ply2}"), ply=ply, ply2=game.ply
        )
    if color != game.board.turn:
        raise RequestError(
            "not_your_turn", N_("it is {color_name}'s turn"), color_name=color_name(game.board.turn)
        )


def read_san(game: Game, color: Color, ply: int, text: str) -> Move:
    """The move the SAN `text` names in the game's position; SAN means something only in the
    position it was written for, so the ply and turn are checked first."""
    require_turn(game, color, ply)
    board = game.board
    try:
        return board.parse_san(text)
    except AmbiguousMoveError as error:
        said = explain_ambiguous_san(board, text)
        raise RequestError("ambiguous_move", said) from error
    except IllegalMoveError as error:
        said = explain_illegal_san(board, text)
        raise RequestError("illegal_move", said) from error
    except ChessError as error:
        # The core's message quotes the FEN; the player knows the position.
        message = f"field 'san': {text.strip()!r} is not a move in SAN (like Nf3, exd5 or O-O)"
        raise RequestError("bad_request", message) from error


def make_move(game: Game, color: Color, ply: int, move: Move, now: float) -> Change:
    """`color` plays `move` in the position at `ply`."""
    require_turn(game, color, ply)
    if not game.board.is_legal(move):
        said = explain_illegal_move(game.board, move)
        raise RequestError("illegal_move", said)
    san = game.board.san(move)
    board = game.board.copy()
    board.push(move)
    header = game.header.with_offer("takeback", None)
    if header.offer_by("draw") == 1 - color:
        header = header.with_offer("draw", None)  # moving declines the opponent's offer
    if header.clock is not None and game.settings.clock is not None:
        increment = game.settings.clock.increment_ms
        header = replace(header, clock=header.clock.after_move(color, now, increment, ply + 1))
    outcome = board.outcome()
    if outcome is not None:
        header = finished_header(game, header, outcome, now)
    event = make_event("move", color, ply=ply, uci=move.uci(), san=san, outcome=outcome)
    clock_ms = header.clock.stored_ms(color) if header.clock is not None else None
    return Change(event, header, board, (MoveRecord(move.uci(), san, clock_ms),))


def resign(game: Game, color: Color, now: float) -> Change:
    require_playing(game)
    outcome = Outcome(Termination.RESIGNATION, 1 - color)
    return Change(
        make_event("resign", color, outcome=outcome),
        finished_header(game, game.header, outcome, now),
    )


def abort(game: Game, color: Color, now: float) -> Change:
    require_playing(game)
    if game.ply >= 2:
        raise RequestError(
            "not_allowed", N_("a game can only be aborted before both sides have moved")
        )
    return Change(make_event("abort", color), finished_header(game, game.header, None, now))


def claim_draw(game: Game, color: Color, now: float) -> Change:
    require_playing(game)
    if color != game.board.turn:
        raise RequestError("not_your_turn", N_("only the side to move can claim a draw"))
    outcome = game.board.outcome(claim_draw=True)
    if outcome is None or outcome.termination not in CLAIMABLE:
        raise RequestError(
            "not_allowed", N_("no draw can be claimed: no threefold repetition, no fifty-move rule")
        )
    header = finished_header(game, game.header, outcome, now)
    return Change(make_event("claim_draw", color, outcome=outcome), header)


def claim_seat(game: Game, color: Color) -> Change:
    """The friend's seat given to whoever opened the invitation."""
    header = replace(game.header, seated=game.header.seated | {color})
    return Change(make_event("seat", color=color_name(color)), header)


def name_friend(game: Game, color: Color, name: str) -> Change | None:
    """The invited friend's display name, when `color` is that friend's seat, taken and not
    named yet; None otherwise (any other player's name was given when the game was made, as
    both of a game paired in the lobby were)."""
    friend = 1 - game.settings.creator
    if (
        game.settings.opponent != "friend"
        or color != friend
        or color not in game.header.seated
        or game.names[color] is not None
        or not game.is_playing
    ):
        return None
    header = replace(game.header, friend_name=name)
    return Change(make_event("name", color=color_name(color), name=name), header)
