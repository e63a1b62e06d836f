"""PGN export and import (chesscore.rules.pgn): exact texts, what import skips, its errors, and
round trips over seeded random games, also through python-chess's PGN reader and writer."""

from __future__ import annotations

import io
from itertools import pairwise

import chess
import chess.pgn
import pytest

from chesscore import Board, InvalidPgnError
from chesscore.rules.pgn import make_pgn, parse_pgn
from tests.random_games import play_random_game

SCHOLARS_MATE = ["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"]


def play(board: Board, moves: list[str]) -> Board:
    for uci in moves:
        board.push_uci(uci)
    return board


def test_make_pgn_writes_the_roster_and_the_result() -> None:
    board = play(Board(), SCHOLARS_MATE)
    headers = {"White": "Anna", "Black": 'Bob "the rook"', "Event": "Club", "Annotator": "me"}
    assert make_pgn(board, headers) == (
        '[Event "Club"]\n'
        '[Site "?"]\n'
        '[Date "????.??.??"]\n'
        '[Round "?"]\n'
        '[White "Anna"]\n'
        '[Black "Bob \\"the rook\\""]\n'
        '[Result "1-0"]\n'
        '[Annotator "me"]\n'
        "\n"
        "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
    )


@pytest.mark.parametrize(
    ("moves", "headers", "result", "expected"),
    [
        ([], None, None, "*"),
        (["e2e4"], None, None, "*"),
        (["e2e4"], None, "1/2-1/2", "1/2-1/2"),
        (["e2e4"], {"Result": "0-1"}, None, "0-1"),  # a resignation, say
        (["e2e4"], {"Result": "0-1"}, "1-0", "1-0"),  # the argument wins
        (SCHOLARS_MATE, None, None, "1-0"),  # from the board's outcome
    ],
)
def test_make_pgn_result(
    moves: list[str], headers: dict[str, str] | None, result: str | None, expected: str
) -> None:
    text = make_pgn(play(Board(), moves), headers, result)
    assert f'[Result "{expected}"]' in text
    assert text.rstrip().endswith(expected)


def test_make_pgn_from_a_set_up_position() -> None:
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    board = play(Board.from_fen(fen), ["e8d7", "e2e4", "d7d6"])
    text = make_pgn(board)
    assert '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]\n' in text
    assert text.index("[Result") < text.index("[SetUp")
    assert text.endswith("\n40... Kd7 41. e4 Kd6 *\n")


def test_make_pgn_wraps_movetext_at_80_columns() -> None:
    board = play_random_game(3, max_plies=200)
    movetext = make_pgn(board).split("\n\n", 1)[1]
    lines = movetext.splitlines()
    assert len(lines) > 5
    assert all(len(line) <= 80 for line in lines)
    # Filled greedily: the next line's first token would not have fitted.
    assert all(len(line) + 1 + len(nxt.split()[0]) > 80 for line, nxt in pairwise(lines))


def test_make_pgn_refuses_a_bad_result() -> None:
    with pytest.raises(InvalidPgnError, match="2-0"):
        make_pgn(Board(), result="2-0")


def test_parse_pgn_skips_comments_nags_and_variations() -> None:
    text = (
        '[Event "Casual"]\n[White "A \\"B\\" C"]\n[Black "D"]\n\n'
        "1. e4 {King's pawn} e5 2.Nf3 $1 Nc6!? (2... d6 3. d4 (3. Bc4) exd4) 3. Bb5 ; Spanish\n"
        "3... a6 4. Ba4 1/2-1/2\n"
    )
    game = parse_pgn(text)
    assert game.headers == {"Event": "Casual", "White": 'A "B" C', "Black": "D"}
    ucis = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"]
    assert [move.uci() for move in game.moves] == ucis
    assert game.board.move_stack == game.moves
    assert game.board.fen() == play(Board(), ucis).fen()


def test_parse_pgn_from_a_fen_tag() -> None:
    game = parse_pgn('[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]\n\n40... Kd7 41. e4 *')
    assert [move.uci() for move in game.moves] == ["e8d7", "e2e4"]


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("1. e4 e5 2. Ke3 *", "2. 'Ke3'"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Bg4 6. Bxg4 *", "6. 'Bxg4'"),
        ("1. e4 e5 2. Nf3 Nf3 *", "2... 'Nf3'"),
        ("1. d4 d5 2. Nf3 Nf6 3. Nd2 *", "3. 'Nd2'"),  # ambiguous
        ("1. e4 e5 2. N *", "2. 'N'"),
        ("1. e4 e5 } *", "2. '}'"),
        ("", "empty PGN"),
        ('[White "A"\n\n1. e4 *', "malformed tag pair"),
        ("1. e4 { unfinished", "unterminated"),
        ("1. e4 ( e3 *", "unterminated '('"),
        ("1. e4 ) *", "unbalanced"),
        ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*', "invalid FEN tag"),
    ],
)
def test_parse_pgn_errors_name_the_problem(text: str, quoted: str) -> None:
    with pytest.raises(InvalidPgnError) as raised:
        parse_pgn(text)
    assert quoted in str(raised.value)


def test_parse_pgn_reads_the_first_game_only() -> None:
    text = '[White "A"]\n\n1. e4 1-0\n\n[White "B"]\n\n1. d4 0-1\n'
    game = parse_pgn(text)
    assert [move.uci() for move in game.moves] == ["e2e4"]
    assert game.headers == {"White": "A"}


@pytest.mark.parametrize("seed", range(10))
def test_pgn_round_trip(seed: int) -> None:
    board = play_random_game(seed, max_plies=300)
    text = make_pgn(board, {"White": "Random", "Black": f"Seed {seed}"})
    game = parse_pgn(text)
    assert game.moves == board.move_stack
    assert game.board.fen() == board.fen()
    assert make_pgn(game.board, game.headers) == text


@pytest.mark.parametrize("seed", range(10, 14))
def test_python_chess_reads_our_pgn_and_we_read_theirs(seed: int) -> None:
    board = play_random_game(seed, max_plies=300)
    theirs = chess.pgn.read_game(io.StringIO(make_pgn(board)))
    assert theirs is not None and not theirs.errors
    assert [move.uci() for move in theirs.mainline_moves()] == [m.uci() for m in board.move_stack]
    exported = str(theirs)  # python-chess's own writing of the same game
    assert [move.uci() for move in parse_pgn(exported).moves] == [m.uci() for m in board.move_stack]


def test_parse_pgn_skips_the_en_passant_mark() -> None:
    game = parse_pgn("1. e4 Nf6 2. e5 d5 3. exd6 e.p. exd6 *")
    assert [move.uci() for move in game.moves][-2:] == ["e5d6", "e7d6"]


@pytest.mark.parametrize("name", ["My Tag", "", "Tag]", 'A"'])
def test_make_pgn_refuses_a_bad_tag_name(name: str) -> None:
    with pytest.raises(InvalidPgnError, match="invalid tag name"):
        make_pgn(Board(), {name: "x"})


def test_make_pgn_keeps_each_tag_on_one_line() -> None:
    text = make_pgn(Board(), {"Annotator": "line one\nline two"})
    assert '[Annotator "line one line two"]\n' in text
    assert parse_pgn(text).headers["Annotator"] == "line one line two"


def test_make_pgn_writes_a_comment_after_its_move() -> None:
    board = play(Board(), SCHOLARS_MATE)
    comments = [None, "", "aims at f7", None, None, None, "mate"]
    movetext = make_pgn(board, comments=comments).split("\n\n", 1)[1]
    assert movetext == ("1. e4 e5 2. Bc4 { aims at f7 } Nc6 3. Qh5 Nf6 4. Qxf7# { mate } 1-0\n")
    assert [move.uci() for move in parse_pgn(movetext).moves] == SCHOLARS_MATE


@pytest.mark.parametrize(
    ("comments", "message"),
    [
        (["one"], "1 comments given for 2 moves"),
        (["a } b", None], "invalid comment 'a } b'"),
        ([3, None], "invalid comment 3"),
    ],
)
def test_make_pgn_refuses_bad_comments(comments: list[object], message: str) -> None:
    board = play(Board(), SCHOLARS_MATE[:2])
    with pytest.raises(InvalidPgnError, match=message):
        make_pgn(board, comments=comments)  # type: ignore[arg-type]
