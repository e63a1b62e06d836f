"""Reading PGN files from elsewhere (chesscore.rules.pgn_import): lichess, chess.com and
ChessBase exports, byte order marks and CRLF, several games in a file, and errors that name the
line; the trees checked against python-chess's PGN reader."""

from __future__ import annotations

import io
import re

import chess.pgn
import pytest

from chesscore import InvalidPgnError
from chesscore.rules.pgn_import import Node, read_games, scan_games

LICHESS = """[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[White "alice"]
[Black "bob"]
[Result "1-0"]
[ECO "C50"]

1. e4 { [%eval 0.36] [%clk 0:03:00] } 1... e5 { [%eval 0.32] [%clk 0:03:00] }
2. Nf3 { [%eval 0.2] [%clk 0:02:58] } 2... Nc6 3. Bc4 Nd4?! { (0.30 → 0.90) Inaccuracy. }
(3... Nf6 4. Ng5 (4. d3 Be7) 4... d5 $1) 4. Nxe5?? { [%eval #-3] } 4... Qg5 5. Nxf7 Qxg2
6. Rf1 Qxe4+ 7. Be2 Nf3# { Black wins by checkmate. } 0-1"""

CHESSCOM = """[Event "Live Chess"]
[Site "Chess.com"]
[White "carol"]
[Black "dave"]
[Result "1/2-1/2"]
[TimeControl "180"]

1. d4 {[%clk 0:02:59.9][%timestamp 1]} 1... d5 {[%clk 0:02:58.2][%timestamp 18]} 2.
c4 {[%clk 0:02:57][%timestamp 29]} 2... e6 {[%clk 0:02:55.5][%timestamp 27]} 1/2-1/2
"""

CHESSBASE = """[Event "Club"]
[White "Erin"]
[Black "Frank"]
[Result "*"]

1.e4 c5 2.Nf3 d6

3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 $14

*
"""


def sans(line: tuple[Node, ...]) -> list[str]:
    return [node.san for node in line]


def oracle_tree(text: str) -> list[object]:
    """Every game of `text` read by python-chess, as nested lists of SAN (variations after
    the move they replace, as [alternatives...])."""
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(_oracle_line(game))
    return games


def _oracle_line(parent: chess.pgn.GameNode) -> list[object]:
    """python-chess's line from `parent`, up to its first null move: ours ends there (the rest
    kept as text), and so do the variations that a null move opens."""
    line: list[object] = []
    node = parent
    while node.variations and node.variations[0].move:
        main, *others = node.variations
        alternatives = [_oracle_variation(other) for other in others if other.move]
        line.append((main.san(), alternatives))
        node = main
    return line


def _oracle_variation(first: chess.pgn.ChildNode) -> list[object]:
    return [(first.san(), []), *_oracle_line(first)]


def our_tree(line: tuple[Node, ...]) -> list[object]:
    result: list[object] = []
    for index, node in enumerate(line):
        result.append((node.san, []))
        for variation in node.variations:
            # python-chess hangs a move's alternatives on the move before: the same place.
            result[index][1].append(our_tree(variation))  # type: ignore[index]
    return result


@pytest.mark.parametrize(
    ("text", "oracle_text"),
    [
        (LICHESS, LICHESS),
        (CHESSCOM, CHESSCOM),
        # python-chess ends a game at a blank line; ChessBase writes them inside the moves.
        (CHESSBASE, CHESSBASE.replace("\n\n3.", "\n3.").replace("$14\n\n*", "$14 *")),
    ],
    ids=["lichess", "chesscom", "chessbase"],
)
def test_trees_agree_with_python_chess(text: str, oracle_text: str) -> None:
    games = read_games(text)
    assert [our_tree(game.moves) for game in games] == oracle_tree(oracle_text)


# Some tools write moves from square to square (UCI), castling as the king's move.
UCI_MOVES = """[Event "UCI"]

1. e2e4 e7e5 2. g1f3 (2. f1c4 g8f6) 2... b8c6 3. f1-c4 g8f6 4. e1g1 f8xc5?! 5. d2d4 *

[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]

1. a7a8q Kg6 2. a8=Q?? *
"""

# ChessBase writes null moves as Z0, others as --: the line ends there, in a variation too.
NULL_MOVES = """[Event "Nulls"]

1. e4 e5 (1... Z0 2. d4 d5) 2. Nf3 Nc6 (2... d6 3. -- Nf6 {threat} 4. Nc3) 3. Bb5 a6 4. Z0
(4. Ba4 Nf6) Nf6 {Black develops} 5. Nc3 1-0

1. -- e5 2. Nf3 *
"""


def test_moves_written_square_to_square_are_read_as_python_chess_reads_them() -> None:
    text = UCI_MOVES.replace("a8=Q??", "Qb7")
    games = read_games(text)
    assert [our_tree(game.moves) for game in games] == oracle_tree(text)
    assert sans(games[0].moves)[6:8] == ["O-O", "Bc5"] and games[0].moves[7].nags == (6,)
    assert sans(games[1].moves) == ["a8=Q", "Kg6", "Qb7"]


def test_a_move_square_to_square_that_is_illegal_is_refused_naming_it() -> None:
    with pytest.raises(InvalidPgnError, match=re.escape("line 1: 1. 'e2e5'")):
        read_games("1. e2e5 *")


def test_a_null_move_ends_its_line_and_the_rest_is_kept_as_a_comment() -> None:
    games = read_games(NULL_MOVES)
    assert [our_tree(game.moves) for game in games] == oracle_tree(NULL_MOVES)
    first, second = games
    assert sans(first.moves) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert first.moves[-1].comment == "Z0 (4. Ba4 Nf6) Nf6 Black develops 5. Nc3"
    assert first.result == "1-0"
    # Opening a variation: kept on the move the variation replaces.
    assert first.moves[1].comment == "Z0 2. d4 d5"
    (d6_line,) = first.moves[3].variations
    assert sans(d6_line) == ["d6"] and d6_line[0].comment == "-- Nf6 threat 4. Nc3"
    assert sans(second.moves) == [] and second.comment == "-- e5 2. Nf3"
    # A file's listing (read without playing the moves) counts the main line as read.
    assert [span.plies for span in scan_games(NULL_MOVES)] == [6, 0]


def test_the_null_moves_python_chess_knows_are_all_read() -> None:
    for null in ("--", "Z0", "0000", "@@@@", "null"):
        (game,) = read_games(f"1. e4 e5 2. {null} Nc6 *")
        assert sans(game.moves) == ["e4", "e5"]
        assert game.moves[-1].comment == f"{null} Nc6"


def test_lichess_clocks_evals_nags_and_comments() -> None:
    (game,) = read_games(LICHESS)
    assert game.headers["White"] == "alice" and game.headers["ECO"] == "C50"
    first, second = game.moves[0], game.moves[1]
    assert (first.clock, first.evaluation, first.comment) == (180.0, "0.36", "")
    assert game.moves[2].clock == 178.0
    knight = game.moves[5]
    assert knight.san == "Nd4" and knight.nags == (6,)
    assert knight.comment == "(0.30 → 0.90) Inaccuracy."
    assert [sans(line) for line in knight.variations] == [["Nf6", "Ng5", "d5"]]
    assert [sans(line) for line in knight.variations[0][1].variations] == [["d3", "Be7"]]
    assert knight.variations[0][2].nags == (1,)
    blunder = game.moves[6]
    assert blunder.nags == (4,) and blunder.evaluation == "#-3"
    assert game.moves[-1].san == "Nf3#"
    assert second.clock == 180.0


def test_chesscom_clocks_with_tenths_and_timestamps() -> None:
    (game,) = read_games(CHESSCOM)
    assert sans(game.moves) == ["d4", "d5", "c4", "e6"]
    assert [node.clock for node in game.moves] == [179.9, 178.2, 177.0, 175.5]
    assert all(node.comment == "" for node in game.moves)  # only commands were there


def test_a_byte_order_mark_crlf_and_several_games() -> None:
    text = "\ufeff" + (LICHESS + "\n" + CHESSBASE + "\n" + CHESSCOM).replace("\n", "\r\n")
    games = read_games(text)
    assert [game.headers["White"] for game in games] == ["alice", "Erin", "carol"]
    assert [game.title for game in games] == [
        "alice - bob (1-0)",
        "Erin - Frank (*)",
        "carol - dave (1/2-1/2)",
    ]
    assert games[1].line == LICHESS.count("\n") + 2  # where the second game's tags begin


def test_a_game_from_a_set_up_position() -> None:
    text = '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 Kd7 *'
    (game,) = read_games(text)
    assert game.start_fen == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert sans(game.moves) == ["e4", "Kd7"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[White "a"]\n\n1. e4 e5\n2. Ke3 *', "line 4: 2. 'Ke3'"),
        ("1. e4 e5 2. Nf3 (2. Nc3\n", "variation '(' is not closed"),
        ("1. e4 )", "line 1: ')' closes no variation"),
        ("1. e4 {unclosed\n\n", "comment '{' is not closed"),
        ('[White "a"\n1. e4 *', "line 1: malformed tag pair"),
        ('[FEN "not a fen"]\n\n1. e4 *', "the FEN tag 'not a fen' is not a position"),
        ("", "no game in the PGN"),
        ("( e4 )", "line 1: a variation '(' before any move"),
    ],
)
def test_errors_name_the_line_and_what_was_wrong(text: str, message: str) -> None:
    with pytest.raises(InvalidPgnError, match=re.escape(message)):
        read_games(text)
