"""What the server pushes: a game's state as plain JSON-ready data, tailored to its receiver.

Everyone gets the same public state (position, moves, clocks, offers, the opening's name, the
threat map and its insight ...), save that the players of a game in progress get no opening name
(a hint: they see it once the game is over); only the seat whose turn it is also gets `dests`
and `promotions`, the legal moves it may make, and `safety`, how each of them fares in an
exchange. In a game that is not `assisted` the players get no overlays (`threats`, `insight` and
`safety` are null) while spectators still do, save in a rated game in play
(`Game.withholds_overlays`): nobody gets them then, spectators once it has ended. The public
part is built once per change and copied per room; its costly parts (the move list, and the
position facts from `server.threats.cache`) are JSON text, encoded once and spliced into every
message (`wire`). Seat tokens never appear here. The fields are documented in docs/protocol.md,
"The state".
"""

from __future__ import annotations

from typing import Any, TypedDict

from chesscore import BLACK, WHITE, Board, Color
from chesscore.openings import opening_of
from server.edge.wire import JsonText, dumps
from server.games.play import Game, MoveRecord, color_name
from server.games.stored import shown_to_data
from server.threats.cache import position_facts


class Destinations(TypedDict):
    """The legal moves of the side to move: targets by origin square, and which promote."""

    dests: dict[str, list[str]] | None
    promotions: dict[str, list[str]] | None


class MoverFields(Destinations):
    """What only the seat to move gets: its legal moves and, in an assisted game, their
    safety labels."""

    safety: JsonText | None


class State(Destinations):
    """A game's state as one receiver gets it (docs/protocol.md, "The state"). The costly
    parts are JSON text, encoded once (`JsonText`): the move list and the position's facts."""

    game: str
    version: int
    ply: int
    fen: str
    start_fen: str
    turn: str
    check: bool
    checked_king: str | None
    status: str
    outcome: dict[str, Any] | None
    last_move: dict[str, str] | None
    announcement: str | None
    opening: dict[str, str] | None
    moves: JsonText
    opponent: str
    level: int | None
    players: dict[str, dict[str, Any]]
    clock: dict[str, Any] | None
    can_claim_draw: bool
    offers: dict[str, str | None]
    rematch: str | None
    assisted: bool
    rated: bool
    threats: JsonText | None
    insight: JsonText | None
    safety: JsonText | None


def make_public_state(
    game: Game, now: float, connected: frozenset[Color] = frozenset(), overlays: bool = True
) -> State:
    """The state every member of the game's room sees; `connected`: the seats with a connection
    (the computer's is always there). Without `overlays` its `threats` and `insight` are null
    (for a sender whose receivers get none: `gets_overlays`)."""
    board = game.board
    header = game.header
    last = game.moves[-1] if game.moves else None
    withheld = game.withholds_overlays or not overlays
    facts = position_facts(board, not withheld)
    return {
        "game": game.id,
        "version": game.version,
        "ply": game.ply,
        "fen": board.fen(),
        "start_fen": game.settings.start_fen,
        "turn": color_name(board.turn),
        "check": board.is_check(),
        "checked_king": facts.checked_king,
        "status": header.status,
        "outcome": header.outcome.to_json() if header.outcome else None,
        "last_move": {"uci": last.uci, "san": last.san} if last else None,
        "announcement": facts.announcement,
        "opening": opening_json(board),
        "moves": _moves_text(game),
        "opponent": game.settings.opponent,
        "level": game.settings.level,
        "players": _make_players(game, connected),
        "clock": _make_clock(game, now),
        "can_claim_draw": game.is_playing and board.can_claim_draw(),
        "offers": {
            kind: _name_or_none(header.offer_by(kind)) for kind in ("draw", "takeback", "rematch")
        },
        "rematch": header.rematch,
        "assisted": game.settings.assisted,
        "rated": game.settings.rated,
        "threats": None if withheld else facts.threats,
        "insight": None if withheld else facts.insight,
        "dests": None,
        "promotions": None,
        "safety": None,
    }


def tailor_state(public: State, game: Game, role: Color | None) -> State:
    """`public` as `role` (a colour, or None for a spectator) receives it: a player of a game
    that is not assisted gets no overlays, and nobody those of a rated game in play (the public
    state has none then)."""
    base = seat_state(public, game, role)
    fields = mover_fields(game, role)
    return base if fields is None else {**base, **fields}


def gets_overlays(game: Game, role: Color | None) -> bool:
    """Whether `role` (a colour, or None for a spectator) gets the game's overlays now."""
    return (role is None or game.settings.assisted) and not game.withholds_overlays


def seat_state(public: State, game: Game, role: Color | None) -> State:
    """What `role` receives when it is not to move: the seat to move gets the same with its
    `mover_fields`. The same for both players (the rooms make it once for the two), and the
    public state itself (no copy) for every role that gets it as it is, so the rooms getting
    the very same state share one encoding of it."""
    assisted = gets_overlays(game, role)
    # The opening's name would be a hint to the players.
    if role is not None and game.is_playing and public["opening"] is not None:
        public = {**public, "opening": None}
    return public if assisted else {**public, "threats": None, "insight": None}


def mover_fields(game: Game, role: Color | None) -> MoverFields | None:
    """`dests`, `promotions` and `safety` of `role` when it is the seat to move (None when
    it is not): the last three fields of its state, null in everyone else's."""
    # The computer's seat has no connection to receive its moves: they are not worth making.
    if role != game.board.turn or role == game.settings.computer or not game.is_playing:
        return None
    board = game.board
    assisted = game.settings.assisted and not game.withholds_overlays
    return {
        "dests": board.destinations(),
        "promotions": board.promotion_targets(),
        "safety": position_facts(board, overlays=False).safety_of(board) if assisted else None,
    }


# How every state's text ends but the mover's (`State` ends with these three fields).
_NO_MOVER_FIELDS = '"dests":null,"promotions":null,"safety":null}'


def encode_mover_state(seat_text: JsonText, fields: MoverFields) -> JsonText:
    """The text of the mover's state from `seat_text`, the encoded `seat_state` it was made
    from: its last three fields written over, so the state is not encoded a second time
    for one seat (the same text as encoding `{**seat_state, **fields}`, whose keys keep their
    places)."""
    text = seat_text.text
    if not text.endswith(_NO_MOVER_FIELDS):
        raise ValueError("not the text of a seat's state")
    return JsonText(text[: -len(_NO_MOVER_FIELDS)] + dumps(fields)[1:])


def make_state(
    game: Game, role: Color | None, now: float, connected: frozenset[Color] = frozenset()
) -> State:
    """The state `role` receives (a join's reply, an HTTP read): the overlays made only if it
    gets them."""
    public = make_public_state(game, now, connected, gets_overlays(game, role))
    return tailor_state(public, game, role)


def make_destinations(game: Game) -> Destinations:
    """The legal moves of the side to move: targets by square, and which ones promote."""
    board = game.board
    return {"dests": board.destinations(), "promotions": board.promotion_targets()}


def opening_json(board: Board) -> dict[str, str] | None:
    """The ECO code and name of the last named position of the game (chesscore.openings)."""
    opening = opening_of(board)
    return None if opening is None else {"eco": opening.eco, "name": opening.name}


def _moves_text(game: Game) -> JsonText:
    """The move list as JSON text, written directly: UCI and SAN are made of letters, digits
    and `+#=-`, nothing JSON escapes. It is sent again after every move, so the text sent last
    is kept with the game and only the records of the moves made since are written (all of
    them took about 10 microseconds at 40 plies, growing with the game)."""
    moves = game.moves
    count, records = game.moves_text or (0, "")
    if count > len(moves):
        count, records = 0, ""
    if count < len(moves):
        added = ",".join(_record_text(record) for record in moves[count:])
        records = f"{records},{added}" if records else added
        game.moves_text = (len(moves), records)
    return JsonText(f"[{records}]")


def _record_text(record: MoveRecord) -> str:
    return f'{{"uci":"{record.uci}","san":"{record.san}"}}'


def _make_players(game: Game, connected: frozenset[Color]) -> dict[str, Any]:
    computer = game.settings.computer
    return {
        color_name(color): {
            "kind": "computer" if color == computer else "human",
            "seated": color in game.header.seated,
            "name": game.names[color],
            "connected": color == computer or color in connected,
            "rating": _rating_json(game, color),
        }
        for color in (WHITE, BLACK)
    }


def _rating_json(game: Game, color: Color) -> dict[str, Any] | None:
    """The player's rating in a rated game: as the game started, then once it was rated the
    new rating with the change (`diff`)."""
    rated = game.header.rated
    shown = rated[color] if rated is not None else game.settings.ratings[color]
    return None if shown is None else shown_to_data(shown)


def _make_clock(game: Game, now: float) -> dict[str, Any] | None:
    clock = game.header.clock
    settings = game.settings.clock
    if clock is None or settings is None:
        return None
    return {
        "initial_ms": settings.initial_ms,
        "increment_ms": settings.increment_ms,
        "white_ms": clock.remaining_ms(WHITE, now),
        "black_ms": clock.remaining_ms(BLACK, now),
        "running": _name_or_none(clock.running),
    }


def _name_or_none(color: Color | None) -> str | None:
    return None if color is None else color_name(color)
