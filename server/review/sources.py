"""What a review is of: a finished game here or a game of a PGN file, as plain data.

A `ReviewSource` is the game to review (headers, start FEN, its main line in UCI and SAN) and
the key that makes it reviewed once: a game's own id, or for a PGN a hash of its start
position, its moves and the setting, so the same game posted twice, whatever its headers and
comments, gets the same review. The limits are checked here, before anything is queued: at
most `MAX_PLIES` plies, a game still in play refused (`game_in_play`), a PGN read through the
analysis board's bounded reader (server.analysis.service: the file is first listed by its
tokens, then only the chosen game is played), its headers bounded (they are stored with the
review), its comments and variations left out.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from chesscore.review.evaluate import ReviewSetting
from chesscore.rules.board import Board
from chesscore.rules.squares import COLOR_NAMES
from server.analysis.service import list_games, read_game
from server.shared.display import display_headers, display_result
from server.shared.errors import N_, RequestError

MAX_PLIES = 600
# A PGN's headers are kept within these bounds: they are stored and rewritten with the review.
MAX_HEADERS = 24
MAX_HEADER_LENGTH = 200


@dataclass(frozen=True)
class ReviewSource:
    """The game to review, with its `key` (unique per game reviewed) and its `source` JSON
    (`{"game": id}` or `{"pgn": true}`)."""

    key: str
    source: dict[str, Any]
    headers: dict[str, str]
    start_fen: str
    ucis: tuple[str, ...]
    sans: tuple[str, ...]


def check_length(plies: int) -> None:
    if plies > MAX_PLIES:
        raise RequestError(
            "too_long",
            N_("the game has {plies} plies; a review takes at most {MAX_PLIES}"),
            plies=plies,
            MAX_PLIES=MAX_PLIES,
        )
    if plies == 0:
        raise RequestError("bad_request", N_("the game has no moves: there is nothing to review"))


def pgn_source(text: str, index: int | None, setting: ReviewSetting) -> ReviewSource:
    """The game of the PGN `text` at `index` (the first when None): `bad_pgn` naming what is
    wrong, `too_long` past MAX_PLIES, `bad_request` for an index the file has not. It plays
    the game's moves: the transport runs it in the work pool (server.work)."""
    spans = list_games(text)
    chosen = 0 if index is None else index
    if not 0 <= chosen < len(spans):
        raise RequestError(
            "bad_request", N_("field 'game' must be a game's index, 0 to {len}"), len=len(spans) - 1
        )
    check_length(spans[chosen].plies)
    game = read_game(text, spans[chosen]).game
    ucis = tuple(node.move.uci() for node in game.moves)
    sans = tuple(node.san for node in game.moves)
    check_length(len(ucis))
    headers = bounded_headers(game.headers)
    headers["Result"] = display_result(game.headers.get("Result"), game.result)
    start_fen = Board.from_fen(game.start_fen, allow_impossible_checks=True).fen()
    digest = hashlib.sha256(
        json.dumps([start_fen, ucis, setting.to_json()], separators=(",", ":")).encode()
    ).hexdigest()
    return ReviewSource(f"pgn:{digest}", {"pgn": True}, headers, start_fen, ucis, sans)


def bounded_headers(headers: dict[str, str]) -> dict[str, str]:
    """The first `MAX_HEADERS` headers, names and values cut to `MAX_HEADER_LENGTH` and fit to
    show (server.shared.display: no bidi or control characters, a `Result` of the four)."""
    items = list(headers.items())[:MAX_HEADERS]
    return display_headers(
        {name[:MAX_HEADER_LENGTH]: value[:MAX_HEADER_LENGTH] for name, value in items}
    )


def game_source(
    game_id: str, headers: dict[str, str], start_fen: str, moves: list[tuple[str, str]]
) -> ReviewSource:
    """A finished game here: its (uci, san) moves."""
    check_length(len(moves))
    ucis = tuple(uci for uci, _ in moves)
    sans = tuple(san for _, san in moves)
    return ReviewSource(game_id, {"game": game_id}, headers, start_fen, ucis, sans)


def skeleton_plies(source: ReviewSource) -> list[dict[str, Any]]:
    """The review JSON's `plies`, complete from the start: what was played, each position
    after it, and nothing judged yet."""
    board = Board.from_fen(source.start_fen, allow_impossible_checks=True)
    plies = []
    for index, (uci, san) in enumerate(zip(source.ucis, source.sans, strict=True), 1):
        color = COLOR_NAMES[board.turn]
        board.push_uci(uci)
        plies.append({"ply": index, "color": color, "san": san, "uci": uci, "fen": board.fen()})
        plies[-1].update(UNJUDGED)
    return plies


# A ply's fields that stay null until it is judged.
UNJUDGED: dict[str, Any] = {
    "eval": None,
    "best": None,
    "line": None,
    "class": None,
    "symbol": None,
    "nag": None,
    "accuracy": None,
    "explanation": None,
}
