"""The analysis service: import a PGN file or a position, share a tree under a short id.

Reading PGN plays every move (about a tenth of a millisecond each), so the functions that read
and write trees run in the work pool (server.work), never in the process that answers
everyone, and what one request may make them read is bounded: a file is first listed by its
tokens alone (`chesscore.rules.pgn_import.scan_games`), and only the one game asked for is
read, at most `MAX_GAME_PLIES` moves counting variations. A shared tree is written as PGN
(`chesscore.rules.pgn_export`), which keeps its variations, comments, NAGs, clocks and
evaluations, and stored under 8 random characters by the service, which holds the store; each
address may share `SHARE_BURST` trees at once and then one every `SHARE_INTERVAL` seconds, so
nobody fills the disk.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from chesscore import ChessError
from chesscore.analysis.annotate import annotation_of_move
from chesscore.rules.pgn_export import make_tree_pgn, variation_depth
from chesscore.rules.pgn_import import (
    GameSpan,
    ImportedGame,
    normalize_text,
    read_games,
    scan_games,
)
from server.analysis.tables import AnalysisTables
from server.analysis.tree import MAX_NODES, MAX_VARIATION_DEPTH, parse_root
from server.shared.buckets import AddressBuckets
from server.shared.errors import N_, RequestError, refusal
from server.shared.slots import Slot

MAX_GAME_PLIES = MAX_NODES
MAX_LISTED = 500
MAX_STORED_BYTES = 512 * 1024
SHARE_BURST = 20
SHARE_INTERVAL = 30.0
ID_LENGTH = 8


def is_analysis_id(text: str) -> bool:
    return len(text) == ID_LENGTH and all(c.isalnum() or c in "-_" for c in text) and text.isascii()


@dataclass(frozen=True)
class Imported:
    """A game read for the board, with its notice (a position no game could reach)."""

    game: ImportedGame
    notice: str | None


def list_games(text: str) -> list[GameSpan]:
    """The games of a PGN file, found without playing their moves."""
    spans = scan_games(normalize_text(text))
    if not spans:
        raise RequestError("bad_pgn", N_("empty PGN: no game in the PGN, no tags and no moves"))
    return spans


def read_game(text: str, span: GameSpan) -> Imported:
    """The game of `text` at `span`, every move played; `bad_pgn` naming the line."""
    if span.moves > MAX_GAME_PLIES:
        raise RequestError(
            "bad_pgn",
            N_(
                "the game on line {line} has {moves} moves with its variations, more than "
                "{MAX_GAME_PLIES}"
            ),
            line=span.line,
            moves=span.moves,
            MAX_GAME_PLIES=MAX_GAME_PLIES,
        )
    source = normalize_text(text)[span.start : span.end]
    try:
        games = read_games(source, 1, allow_impossible_checks=True, first_line=span.line)
    except ChessError as error:
        raise refusal("bad_pgn", error) from error
    game = games[0]
    if variation_depth(game.moves) > MAX_VARIATION_DEPTH:
        raise RequestError(
            "bad_pgn",
            N_("variations nest deeper than {MAX_VARIATION_DEPTH} levels"),
            MAX_VARIATION_DEPTH=MAX_VARIATION_DEPTH,
        )
    _, notice = parse_root(game.start_fen)
    return Imported(game, notice)


def read_stored(text: str) -> Imported:
    """A shared tree's game, from the PGN it was stored as."""
    return read_game(text, scan_games(text)[0])


def from_fen(fen: object) -> Imported:
    board, notice = parse_root(fen)
    return Imported(ImportedGame({}, board.fen(), (), "", "*", 1), notice)


def make_pgn(game: ImportedGame, annotate: bool) -> str:
    """The PGN of `game`'s whole tree, with the threat annotations when `annotate`."""
    return make_tree_pgn(game, annotation_of_move if annotate else None)


def make_stored_pgn(game: ImportedGame) -> str:
    """The PGN `game` (read by `read_game` or `parse_tree`, which bound how deep its
    variations nest) is stored as when shared: `payload_too_large` past MAX_STORED_BYTES."""
    text = make_tree_pgn(game)
    if len(text.encode()) > MAX_STORED_BYTES:
        raise RequestError(
            "payload_too_large",
            N_("the tree is too large to store: at most {MAX_STORED_BYTES} bytes of PGN"),
            MAX_STORED_BYTES=MAX_STORED_BYTES,
        )
    return text


class AnalysisService:
    """The shared trees in the store, and each address's bucket for sharing them."""

    def __init__(self, tables: AnalysisTables) -> None:
        self.tables = tables
        self.shares = AddressBuckets(SHARE_BURST, SHARE_INTERVAL)

    def share(self, text: str, client: str | None) -> str:
        """Store a tree's PGN (`make_stored_pgn`) and return its new id."""
        if client is not None:
            self.shares.take(client, N_("shared analyses"))
        analysis_id = secrets.token_urlsafe(6)
        self.tables.save_analysis(analysis_id, text)
        return analysis_id

    def load_text(self, analysis_id: str) -> str:
        """A shared tree's stored PGN (`read_stored` reads it): `not_found`."""
        text = self.tables.load_analysis(analysis_id) if is_analysis_id(analysis_id) else None
        if text is None:
            raise RequestError(
                "not_found",
                N_("no analysis with id {analysis_id}"),
                analysis_id=repr(analysis_id[:20]),
            )
        return text


ANALYSIS: Slot[AnalysisService] = Slot("analysis service")
